/**
 * `runServer` on Bun (lib/bun/run-server.ts) against a fake `Bun.listen`: what the adapter
 * does with a socket between Bun's callbacks, without a network or a clock. Every socket is
 * set no-delay when it opens (a small answer must not wait for Nagle and the peer's delayed
 * ACK); the answer of a synchronous route, and the echo of a WebSocket message, is written
 * inside the `data` callback that brought the request, before it returns (no timer, no
 * microtask, no later turn between the read and the write), in one write. Runs in Node: the
 * fake is installed as `globalThis.Bun` for the duration of each test (in Bun itself, whose
 * `Bun` cannot be replaced, the tests are skipped).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute, onMessage, routes } from '../../lib/index.js'
import type { BunApi, BunListener, BunSocket, BunSocketHandler } from '../../lib/bun/bun-api.js'
import type { Conn } from '../../lib/bun/bun-socket-io.js'
import { runServer } from '../../lib/bun/run-server.js'
import { memoryLogger } from '../support/server.js'

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes)
const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0))

// A socket whose kernel takes everything; each call it gets, in order.
interface FakeSocket extends BunSocket<Conn> {
  readonly calls: string[]
  readonly written: Uint8Array[]
}
const fakeSocket = (): FakeSocket => {
  const calls: string[] = []
  const written: Uint8Array[] = []
  return {
    data: undefined as unknown as Conn,
    calls,
    written,
    remoteAddress: '127.0.0.1',
    write(bytes) {
      calls.push('write')
      written.push(bytes.slice())
      return bytes.length
    },
    shutdown: () => void calls.push('shutdown'),
    terminate: () => void calls.push('terminate'),
    setNoDelay(enabled) {
      calls.push(`setNoDelay ${String(enabled)}`)
      return true
    },
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
  }
}

// `Bun.listen` that keeps the handlers it is given, so a test can play Bun's part.
const fakeBun = (): { api: BunApi; handlers: () => BunSocketHandler<Conn> } => {
  let kept: BunSocketHandler<Conn> | undefined
  const api: BunApi = {
    listen<D>(options: { readonly hostname: string; readonly socket: BunSocketHandler<D> }): BunListener {
      kept = options.socket as unknown as BunSocketHandler<Conn>
      return { port: 4321, hostname: options.hostname, stop: () => undefined }
    },
  }
  return {
    api,
    handlers: () => {
      if (kept === undefined) throw new Error('Bun.listen was not called')
      return kept
    },
  }
}

// Bun's own `Bun` is read-only: there the fake cannot stand in.
const it = Object.getOwnPropertyDescriptor(globalThis, 'Bun')?.writable === false ? test.skip : test

// Plays Bun's part for one server: `open()` accepts a fake socket; every socket still open is
// closed (as Bun would on stop) before the server, even when an assertion failed.
interface Bunside {
  readonly handlers: BunSocketHandler<Conn>
  open(): FakeSocket
}
const withFakeBun = async (app: Parameters<typeof runServer>[0], body: (bun: Bunside) => void | Promise<void>): Promise<void> => {
  const global = globalThis as { Bun?: unknown }
  const before = global.Bun
  const bun = fakeBun()
  global.Bun = bun.api
  const sockets: FakeSocket[] = []
  let server: Awaited<ReturnType<typeof runServer>> | undefined
  try {
    server = await runServer({ port: 0, logger: memoryLogger().logger, ...app })
    const handlers = bun.handlers()
    await body({
      handlers,
      open() {
        const socket = fakeSocket()
        sockets.push(socket)
        handlers.open(socket)
        return socket
      },
    })
  } finally {
    for (const socket of sockets) bun.handlers().close(socket)
    await server?.close()
    if (before === undefined) delete global.Bun
    else global.Bun = before
  }
}

it('runServer (Bun) :: sets every accepted socket no-delay when it opens', async () => {
  await withFakeBun({ routes: [httpRoute('GET', '/hi', () => 'hi')] }, ({ open }) => {
    const socket = open()
    assert.equal(socket.calls, ['setNoDelay true'])
  })
})

it('runServer (Bun) :: answers a synchronous route inside the data callback that brought it, in one write', async () => {
  await withFakeBun({ routes: [httpRoute('GET', '/hi', () => 'hi')] }, ({ handlers, open }) => {
    const socket = open()
    for (let i = 0; i < 3; i++) {
      socket.calls.length = 0
      socket.written.length = 0
      handlers.data(socket, ascii('GET /hi HTTP/1.1\r\nHost: x\r\n\r\n'))
      // Nothing awaited: the answer is out before `data` returns (keep-alive, no shutdown).
      assert.equal(socket.calls, ['write'], `request ${i}`)
      const answer = latin1(socket.written[0] as Uint8Array)
      assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/)
      assert.ok(answer.endsWith('\r\n\r\n"hi"'), answer)
    }
  })
})

it('runServer (Bun) :: answers pipelined requests of one data chunk in one write', async () => {
  await withFakeBun({ routes: [httpRoute('GET', '/hi', () => 'hi')] }, ({ handlers, open }) => {
    const socket = open()
    handlers.data(socket, ascii('GET /hi HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4)))
    assert.equal(socket.calls, ['setNoDelay true', 'write'])
    assert.equal(latin1(socket.written[0] as Uint8Array).split('HTTP/1.1 200 OK').length - 1, 4)
  })
})

// RFC 6455 §5.3: a client's frame is masked; with the zero mask its payload is as sent.
const maskedText = (text: string): Uint8Array => Uint8Array.of(0x81, 0x80 | text.length, 0, 0, 0, 0, ...ascii(text))

it('runServer (Bun) :: echoes a WebSocket message inside the data callback that brought it', async () => {
  await withFakeBun({ routes: routes({ echo: onMessage((message) => message) }) }, async ({ handlers, open }) => {
    const socket = open()
    handlers.data(
      socket,
      ascii('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'),
    )
    // The handshake may finish on a later turn (upgrade checks can be asynchronous).
    for (let i = 0; i < 20 && socket.written.length === 0; i++) await new Promise((resolve) => setImmediate(resolve))
    assert.match(latin1(socket.written[0] as Uint8Array), /^HTTP\/1\.1 101 /)
    socket.calls.length = 0
    socket.written.length = 0
    handlers.data(socket, maskedText('ping'))
    assert.equal(socket.calls, ['write'])
    assert.equal(Array.from(socket.written[0] as Uint8Array), [0x81, 4, ...ascii('ping')])
  })
})

test.run()
