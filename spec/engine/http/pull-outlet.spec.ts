/**
 * `PullOutlet` and `withPullOutlets`: an event-stream client's output as a pull source. What
 * is written waits (its bytes are the backlog) until the host pulls it, as one piece; a pull
 * that waits gets the next write at once; pulled empty it says `writable`; ended, it hands over
 * what it holds and then ends; destroyed (or cancelled by the host) it drops it; `closed` is
 * said once, a turn later. The wrapped platform tells outlets from the runtime's sockets.
 * Portable: runs in Node, Bun and Deno.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { PullOutlet, withPullOutlets } from '../../../lib/engine/http/pull-outlet.js'
import { type MemorySocket, memoryPlatform } from '../../support/memory-platform.js'

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
const text = (value: Uint8Array | undefined): string => new TextDecoder().decode(value)
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

const outletOf = () => {
  const said: string[] = []
  const outlet = new PullOutlet({ writable: () => void said.push('writable'), closed: () => void said.push('closed') })
  return { outlet, said }
}

test('PullOutlet :: writes wait as the backlog, pulled as one piece; pulled empty it is writable', async () => {
  const { outlet, said } = outletOf()
  outlet.write(bytes('a'))
  outlet.write(bytes('bc'))
  assert.is(outlet.buffered(), 3)
  const step = await outlet.next()
  assert.equal([step.done, text(step.value)], [false, 'abc'])
  assert.is(outlet.buffered(), 0)
  assert.equal(said, ['writable'])
})

test('PullOutlet :: a waiting pull gets the next write at once, counted nowhere', async () => {
  const { outlet } = outletOf()
  const pending = outlet.next()
  outlet.write(bytes('now'))
  assert.is(outlet.buffered(), 0)
  assert.is(text((await pending).value), 'now')
})

test('PullOutlet :: ended, it hands over what it holds, then ends; closed once, a turn later', async () => {
  const { outlet, said } = outletOf()
  outlet.write(bytes('last'))
  outlet.end(bytes('!'))
  assert.ok(outlet.isEnded())
  assert.not.ok(outlet.isClosed())
  outlet.write(bytes('dropped'))
  assert.is(text((await outlet.next()).value), 'last!')
  assert.ok((await outlet.next()).done)
  assert.ok(outlet.isClosed())
  await turn()
  assert.equal(said, ['closed'])
})

test('PullOutlet :: destroyed, or cancelled by the host, it drops what it holds; a waiting pull ends', async () => {
  const { outlet, said } = outletOf()
  outlet.write(bytes('never read'))
  outlet.destroy()
  assert.is(outlet.buffered(), 0)
  assert.ok((await outlet.next()).done)
  const other = outletOf()
  const pending = other.outlet.next()
  await other.outlet.return()
  assert.ok((await pending).done)
  other.outlet.destroy()
  await turn()
  assert.equal([said, other.said], [['closed'], ['closed']])
})

test("withPullOutlets :: the platform's operations take outlets and still reach the runtime's sockets", () => {
  const platform = withPullOutlets(memoryPlatform<MemorySocket>())
  const made = platform.pullOutlet?.({ writable: () => undefined, closed: () => undefined })
  if (made === undefined) return assert.unreachable('no outlet made')
  const outlet = made.socket
  assert.ok((outlet as unknown) instanceof PullOutlet && made.source === (outlet as unknown))
  platform.io.cork(outlet)
  platform.io.write(outlet, bytes('abc'))
  platform.io.uncork(outlet)
  assert.is(platform.io.buffered(outlet), 3)
  platform.io.end(outlet)
  assert.equal([platform.io.isEnded(outlet), platform.io.isClosed(outlet)], [true, false])
  platform.io.destroy(outlet)
  assert.ok(platform.io.isClosed(outlet))
  // A runtime socket goes to the runtime's operations, untouched.
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  platform.io.write(socket, bytes('x'))
  platform.io.end(socket)
  assert.equal([socket.out.map(text), socket.ended], [['x'], true])
})

test.run()
