/**
 * `createFileCache` and `serveStatic`'s use of it, over an in-memory `StaticFiles` that
 * counts its calls and a clock the test moves: a hot file costs no file call, a changed
 * file is seen once the window has passed (not before), a deleted one 404s, a cached file
 * still answers conditional requests and ranges, and the cache stays within its bounds.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { createFileCache } from '../../../lib/core/files/file-cache.js'
import { serveStatic } from '../../../lib/core/files/serve-static.js'
import type { ServeStaticOptions } from '../../../lib/core/files/serve-static-options.js'
import { readResponseBody } from '../../../lib/core/http/in-process-exchange.js'
import { getResponseHeader } from '../../../lib/core/http/read-response.js'
import type { FileInfo, StaticFiles } from '../../../lib/core/http/static/static-files.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { dispatchHttp } from '../../../lib/core/route/dispatch-http.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { httpRequest } from '../route/support.js'

const T0 = Date.UTC(2025, 0, 1)
const encoder = new TextEncoder()

// A mutable tree of files under /www, with call counts.
const world = () => {
  const tree = new Map<string, { bytes: Uint8Array; mtimeMs: number }>()
  const calls = { stat: 0, read: 0 }
  let clock = T0
  const put = (path: string, text: string, mtimeMs = clock - 60_000) => tree.set(path, { bytes: encoder.encode(text), mtimeMs })
  const files: StaticFiles = {
    stat: async (path): Promise<FileInfo | undefined> => {
      calls.stat++
      if (path === '/www') return { kind: 'directory', realPath: '/www', size: 0, mtimeMs: T0, links: 1 }
      const file = tree.get(path)
      return file === undefined ? undefined : { kind: 'file', realPath: path, size: file.bytes.length, mtimeMs: file.mtimeMs, links: 1 }
    },
    read: async function* (path, first, last) {
      calls.read++
      const file = tree.get(path)
      if (file !== undefined) yield file.bytes.subarray(first, last + 1)
    },
  }
  return { tree, calls, files, put, now: () => clock, advance: (ms: number) => (clock += ms) }
}

const server = (w: ReturnType<typeof world>, options: ServeStaticOptions = {}) => {
  const table = E.getOrElseW(() => assert.unreachable('table compiles') as never)(compileRoutes(serveStatic('/s', '/www', options)))
  const context = { ...inertHttpContext, files: w.files, now: w.now }
  return async (target: string, headers: readonly (readonly [string, string])[] = [], method = 'GET') => {
    const res = await dispatchHttp(table, httpRequest(method, target, headers), { context })
    const body = new TextDecoder().decode(await readResponseBody(res))
    return { status: res.status, body, header: (name: string) => getResponseHeader(res, name), bodyIsBuffered: res.body instanceof Uint8Array }
  }
}

test('file cache :: a hot file is answered from memory: no stat, no read within the window', async () => {
  const w = world()
  w.put('/www/app.js', 'console.log(1)')
  const get = server(w)
  const first = await get('/s/app.js')
  assert.is(first.body, 'console.log(1)')
  const before = { ...w.calls }
  w.advance(999)
  const again = await get('/s/app.js')
  assert.is(again.status, 200)
  assert.is(again.body, 'console.log(1)')
  assert.ok(again.bodyIsBuffered, 'sent from memory, not streamed')
  assert.is(again.header('etag'), first.header('etag'))
  assert.is(again.header('last-modified'), first.header('last-modified'))
  assert.equal(w.calls, before)
})

test('file cache :: a changed file is seen once the window has passed, not before', async () => {
  const w = world()
  w.put('/www/app.js', 'one')
  const get = server(w, { cache: { revalidateMs: 500 } })
  const first = await get('/s/app.js')
  w.put('/www/app.js', 'two, longer', w.now() - 1000)
  w.advance(499)
  assert.is((await get('/s/app.js')).body, 'one', 'within the window: the remembered version')
  w.advance(1)
  const after = await get('/s/app.js')
  assert.is(after.body, 'two, longer')
  assert.is.not(after.header('etag'), first.header('etag'))
  // The same size, a new modification time: a new version too.
  w.put('/www/app.js', 'TWO, LONGER', w.now())
  w.advance(500)
  assert.is((await get('/s/app.js')).body, 'TWO, LONGER')
})

test('file cache :: a deleted file 404s after the window', async () => {
  const w = world()
  w.put('/www/gone.txt', 'here')
  const get = server(w, { cache: { revalidateMs: 100 } })
  assert.is((await get('/s/gone.txt')).status, 200)
  w.tree.delete('/www/gone.txt')
  w.advance(100)
  assert.is((await get('/s/gone.txt')).status, 404)
  w.put('/www/gone.txt', 'back')
  assert.is((await get('/s/gone.txt')).body, 'back', 'an absent file is not remembered')
})

test('file cache :: revalidateMs 0 stats every request and still reads the bytes once per version', async () => {
  const w = world()
  w.put('/www/a.txt', 'abc')
  const get = server(w, { cache: { revalidateMs: 0 } })
  await get('/s/a.txt')
  const { stat, read } = w.calls
  await get('/s/a.txt')
  assert.is(w.calls.stat, stat + 1)
  assert.is(w.calls.read, read)
})

test('file cache :: a cached file honours If-None-Match, If-Modified-Since and Range', async () => {
  const w = world()
  w.put('/www/digits.txt', '0123456789')
  const get = server(w)
  const first = await get('/s/digits.txt')
  const etag = first.header('etag') as string
  const reads = w.calls.read
  const notModified = await get('/s/digits.txt', [['If-None-Match', etag]])
  assert.is(notModified.status, 304)
  assert.is(notModified.body, '')
  assert.is((await get('/s/digits.txt', [['If-Modified-Since', first.header('last-modified') as string]])).status, 304)
  assert.is((await get('/s/digits.txt', [['If-Match', '"other"']])).status, 412)
  const range = await get('/s/digits.txt', [['Range', 'bytes=2-4']])
  assert.is(range.status, 206)
  assert.is(range.body, '234')
  assert.is(range.header('content-range'), 'bytes 2-4/10')
  const suffix = await get('/s/digits.txt', [['Range', 'bytes=-2'], ['If-Range', etag]])
  assert.is(suffix.body, '89')
  const multi = await get('/s/digits.txt', [['Range', 'bytes=0-0,8-9']])
  assert.is(multi.status, 206)
  assert.ok(multi.body.includes('0') && multi.body.includes('89'))
  assert.is((await get('/s/digits.txt', [['Range', 'bytes=50-60']])).status, 416)
  const head = await get('/s/digits.txt', [], 'HEAD')
  assert.is(head.status, 200)
  assert.is(head.header('etag'), etag)
  assert.is(w.calls.read, reads, 'every answer from memory (the two close ranges merged into one)')
})

test('file cache :: files over maxFileSize are streamed, never held', async () => {
  const w = world()
  w.put('/www/big.bin', 'x'.repeat(100))
  const get = server(w, { cache: { maxFileSize: 50 } })
  const res = await get('/s/big.bin')
  assert.is(res.body.length, 100)
  assert.not.ok(res.bodyIsBuffered)
  const reads = w.calls.read
  await get('/s/big.bin')
  assert.is(w.calls.read, reads + 1)
})

test('file cache :: cache false: a stat per request and a read per answer', async () => {
  const w = world()
  w.put('/www/a.txt', 'abc')
  const get = server(w, { cache: false })
  await get('/s/a.txt')
  const { stat, read } = w.calls
  await get('/s/a.txt')
  assert.is(w.calls.stat, stat + 1)
  assert.is(w.calls.read, read + 1)
})

test('createFileCache :: bounded in entries and in bytes, least recently used out', async () => {
  const w = world()
  for (let i = 0; i < 10; i++) w.put(`/www/${i}`, 'x'.repeat(10))
  const cache = createFileCache({ maxEntries: 4, maxBytes: 25 })
  for (let i = 0; i < 10; i++) {
    const found = await cache.stat(w.files, `/www/${i}`, w.now())
    assert.ok(found)
    assert.is((await cache.bytes(w.files, `/www/${i}`, found))?.length, 10)
    assert.ok(cache.size.entries <= 4, `entries ${cache.size.entries}`)
    assert.ok(cache.size.bytes <= 25, `bytes ${cache.size.bytes}`)
  }
  // The last ones are held: no stat for /www/9 within the window.
  const stats = w.calls.stat
  await cache.stat(w.files, '/www/9', w.now())
  assert.is(w.calls.stat, stats)
  // The first ones are gone.
  await cache.stat(w.files, '/www/0', w.now())
  assert.is(w.calls.stat, stats + 1)
})

test('createFileCache :: a file that changes size while read is not held', async () => {
  const w = world()
  w.put('/www/a.txt', 'abcdef')
  const cache = createFileCache()
  const found = await cache.stat(w.files, '/www/a.txt', w.now())
  assert.ok(found)
  w.put('/www/a.txt', 'abc')
  assert.is(await cache.bytes(w.files, '/www/a.txt', found), undefined)
  assert.is(cache.size.bytes, 0)
})

test('createFileCache :: fresh answers the remembered facts within the window only, with no file call', async () => {
  const w = world()
  w.put('/www/a.txt', 'aaa')
  const cache = createFileCache({ revalidateMs: 1000 })
  assert.is(cache.fresh('/www/a.txt', w.now()), undefined, 'nothing remembered yet')
  const stated = await cache.stat(w.files, '/www/a.txt', w.now())
  const calls = w.calls.stat
  assert.is(cache.fresh('/www/a.txt', w.now()), stated)
  assert.is(cache.fresh('/www/a.txt', undefined), undefined, 'no clock: never fresh')
  w.advance(1000)
  assert.is(cache.fresh('/www/a.txt', w.now()), undefined, 'the window has passed')
  assert.is(w.calls.stat, calls)
})

test('serveStatic :: a held file answered from memory carries the same head and body as its first answer', async () => {
  const w = world()
  w.put('/www/app.js', 'console.log(1)')
  const get = server(w)
  const first = await get('/s/app.js', [['Accept', '*/*']])
  const again = await get('/s/app.js', [['Accept', '*/*']])
  assert.is(again.status, first.status)
  assert.is(again.body, first.body)
  for (const name of ['Content-Type', 'ETag', 'Last-Modified', 'Cache-Control', 'Accept-Ranges', 'X-Content-Type-Options']) assert.is(again.header(name), first.header(name), name)
  assert.is((await get('/s/app.js', [['If-None-Match', first.header('ETag') ?? '']])).status, 304)
  assert.is((await get('/s/app.js', [['Range', 'bytes=0-6']])).body, 'console')
  const head = await get('/s/app.js', [], 'HEAD')
  // The body of a HEAD is dropped by the serialiser, not here: only its head is compared.
  assert.is(head.status, 200)
  assert.is(head.header('ETag'), first.header('ETag'))
})

test.run()
