/**
 * Where the Node adapter listens: host and port (every other spec), a Unix domain socket
 * path, or a listening handle passed in. Node only (npm test runs the `run-server-*`
 * specs in Bun and Deno, not this one: these options are the Node adapter's).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, request } from 'node:http'
import { createServer as createHttp2Server } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { runServer } from '../../lib/node/run-server.js'
import { memoryLogger } from '../support/server.js'

const routes = [httpRoute('GET', '/hello', () => ({ hello: 'world' })), socketOn('echo', (data) => data)]

const getOverSocket = (socketPath: string, path: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request({ socketPath, path, headers: { Host: 'localhost' } }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })

const ackOf = (url: string): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.on('open', () => ws.send(JSON.stringify({ event: 'echo', data: 'hi', id: 1 })))
    ws.on('message', (data: Buffer) => {
      resolve(JSON.parse(data.toString()))
      ws.close()
    })
    ws.on('error', reject)
  })

const Listen = suite('runServer (Node) :: where it listens')

Listen('a Unix domain socket path: HTTP and WebSocket as on a port; address.path says where', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-'))
  const path = join(dir, 'app.sock')
  const { logger, records } = memoryLogger()
  const server = await runServer({ path, routes, logger })
  try {
    assert.is(server.address.path, path)
    assert.is(server.address.port, 0)
    assert.ok(records.some((r) => r.context['path'] === path), 'the log names the path')
    assert.equal(await getOverSocket(path, '/hello'), { status: 200, body: '{"hello":"world"}' })
    assert.equal(await ackOf(`ws+unix://${path}:/`), { event: 'ack', id: 1, data: 'hi' })
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

Listen('a listening handle passed in (a net.Server): served, its real port reported', async () => {
  const opened = createServer()
  await new Promise<void>((resolve) => opened.listen(0, '127.0.0.1', resolve))
  const port = (opened.address() as { port: number }).port
  const server = await runServer({ handle: opened, routes, logger: memoryLogger().logger })
  try {
    assert.is(server.address.port, port)
    assert.is(server.address.host, '127.0.0.1')
    const res = await fetch(`http://127.0.0.1:${port}/hello`)
    assert.equal(await res.json(), { hello: 'world' })
    assert.equal(await ackOf(`ws://127.0.0.1:${port}/`), { event: 'ack', id: 1, data: 'hi' })
  } finally {
    await server.close()
    opened.close()
  }
})

Listen('path and handle together, or an empty path: a clear start-up error', async () => {
  for (const options of [{ path: '/tmp/x.sock', handle: { fd: 3 } }, { path: '' }]) {
    try {
      await runServer({ ...options, routes })
      assert.unreachable('should reject')
    } catch (error) {
      assert.match(String(error), /runServer: invalid options\n {2}path/)
    }
  }
})

Listen('an HTTP server as handle: refused at start, pointing to attach; the app keeps its port', async () => {
  const app = createHttpServer((_req, res) => res.end('app'))
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  const port = (app.address() as { port: number }).port
  try {
    for (const handle of [app, createHttpServer(), createHttpsServer(), createHttp2Server()]) {
      try {
        await runServer({ handle, routes, logger: memoryLogger().logger })
        assert.unreachable('should reject')
      } catch (error) {
        assert.match(String(error), /runServer: invalid options\n {2}handle: an HTTP server cannot be handed over/)
        assert.match(String(error), /attach\(server, options\)/)
      }
    }
    assert.is(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'app', 'the app still answers')
  } finally {
    app.close()
  }
})

Listen('a handle it cannot own (a net.Server serving its own connections, not listening, a bad fd, not a handle): a clear start-up error', async () => {
  const cases: readonly [unknown, RegExp][] = [
    [createServer(() => undefined), /already serves its own connections/],
    [createServer(), /is not listening/],
    [{ fd: -1 }, /fd must be a non-negative integer/],
    ['3000', /expected \{ fd \} or a listening net.Server.*attach/],
  ]
  for (const [handle, message] of cases) {
    try {
      await runServer({ handle: handle as { fd: number }, routes, logger: memoryLogger().logger })
      assert.unreachable('should reject')
    } catch (error) {
      assert.match(String(error), message)
    }
  }
})

Listen.run()
