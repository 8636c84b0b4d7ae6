import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { eventStreamSocket, type StreamFetch } from '../../lib/client/fallback.js'

const test = suite('eventStreamSocket')

const SESSION = 'data: {"event":"tp:session","data":{"sid":"abc"}}\n\n'
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

// A fetch whose stream brings the session event, and whose posts are answered when the test says.
const fakeFetch = () => {
  const posts: { body: string; sid: string | undefined; answer: (status: number) => void }[] = []
  const fetch: StreamFetch = (_url, init) => {
    if (init.method === 'POST') {
      return new Promise((resolve) =>
        posts.push({
          body: init.body ?? '',
          sid: init.headers?.['x-twinport-session'],
          answer: (status) => resolve({ ok: status < 300, status, statusText: '', headers: { get: () => null }, body: null }),
        }),
      )
    }
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode(SESSION)),
    })
    return Promise.resolve({ ok: true, status: 200, statusText: 'OK', headers: { get: () => 'text/event-stream' }, body })
  }
  return { fetch, posts }
}

const opened = async (fetch: StreamFetch) => {
  const Socket = eventStreamSocket({ fetch })
  const socket = new Socket('http://example.test/events')
  await new Promise<void>((resolve) => (socket.onopen = () => resolve()))
  return socket
}

test('eventStreamSocket :: what one tick sends goes in one post, RS-separated, once the session is known', async () => {
  const { fetch, posts } = fakeFetch()
  const socket = await opened(fetch)
  socket.send('{"event":"a","id":1}')
  socket.send('{"event":"b","id":2}')
  await tick()
  assert.is(posts.length, 1)
  assert.is(posts[0]?.body, '{"event":"a","id":1}\x1e{"event":"b","id":2}')
  assert.is(posts[0]?.sid, 'abc')
  posts[0]?.answer(202)
  await socket.idle()
  socket.close()
})

test('eventStreamSocket :: one post at a time: what is sent meanwhile goes in the next one, in order', async () => {
  const { fetch, posts } = fakeFetch()
  const socket = await opened(fetch)
  socket.send('1')
  await tick()
  socket.send('2')
  socket.send('3')
  await tick()
  socket.send('4')
  await tick()
  assert.equal(posts.map((p) => p.body), ['1'])
  posts[0]?.answer(202)
  await tick()
  assert.equal(posts.map((p) => p.body), ['1', '2\x1e3\x1e4'])
  socket.send('5')
  posts[1]?.answer(202)
  await tick()
  assert.equal(posts.map((p) => p.body), ['1', '2\x1e3\x1e4', '5'])
  posts[2]?.answer(202)
  await socket.idle()
  socket.close()
})

test('eventStreamSocket :: a batch stops at the post size limit; a longer text goes alone', async () => {
  const { fetch, posts } = fakeFetch()
  const socket = await opened(fetch)
  const big = 'x'.repeat(40_000)
  const huge = 'y'.repeat(70_000)
  socket.send(big)
  socket.send(big)
  socket.send(huge)
  socket.send('z')
  socket.send('w')
  for (let i = 0; i < 4; i++) {
    await tick()
    posts[i]?.answer(202)
  }
  await socket.idle()
  assert.equal(posts.map((p) => p.body.length), [40_000, 40_000, 70_000, 3])
  assert.is(posts[3]?.body, 'z\x1ew')
  socket.close()
})

test('eventStreamSocket :: a post answered other than 202 closes the socket; what was pending is dropped', async () => {
  const { fetch, posts } = fakeFetch()
  const socket = await opened(fetch)
  const closed = new Promise<number>((resolve) => (socket.onclose = ((e: { code: number }) => resolve(e.code)) as never))
  socket.send('1')
  await tick()
  socket.send('2')
  posts[0]?.answer(404)
  assert.is(await closed, 1006)
  await socket.idle()
  assert.is(posts.length, 1)
})

test.run()
