/**
 * `reusePort` on the native transport: two server processes (this one and a child,
 * spec/native/reuse-port-child.ts) listen on one port with SO_REUSEPORT and both receive
 * connections, spread by the kernel; without it the second listener fails with EADDRINUSE; on
 * node:net the option is ignored with one warning.
 */
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { runServer } from '../../lib/node/run-server.js'
import { memoryLogger } from '../support/server.js'
import { buildNative } from './build-native.js'

const test = suite('native transport :: reusePort')
const built = buildNative('release')
const skip = 'skip' in built ? built.skip : undefined
if (skip !== undefined) console.log(`  native reusePort specs skipped: ${skip}`)

const whoRoutes = [httpRoute('GET', '/who', () => ({ pid: process.pid }))]

// GET /who on a fresh connection (a new source port each time): the pid that answered.
const who = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('end', () => resolve((JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { pid: number }).pid))
    socket.on('error', reject)
  })

// Starts the child on `port`; answers what it printed first and a way to stop it.
const startChild = async (port: number, reusePort: boolean): Promise<{ said: { port?: number; error?: string }; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'spec/native/reuse-port-child.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, PORT: String(port), REUSE_PORT: reusePort ? '1' : '0' },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.stdin.end('close\n')
    await exited
  }
  try {
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()
    return { said: JSON.parse((first.value as string | undefined) ?? '{"error":"no output"}') as { port?: number; error?: string }, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

test('two processes on one port with reusePort both receive connections', async () => {
  if (skip !== undefined) return
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', reusePort: true, logger: memoryLogger().logger, routes: whoRoutes })
  let stopChild = async (): Promise<void> => undefined
  try {
    const port = server.address.port
    const child = await startChild(port, true)
    stopChild = child.stop
    assert.equal(child.said, { port })
    // The kernel picks a listener by a hash of the connection's addresses: fresh source ports
    // reach both soon (all of 200 on one listener would be a 1-in-2^199 chance).
    const seen = new Set<number>()
    for (let i = 0; i < 200 && seen.size < 2; i++) seen.add(await who(port))
    assert.is(seen.size, 2, `answered by ${[...seen].join(', ')}`)
    assert.ok(seen.has(process.pid))
  } finally {
    await stopChild()
    await server.close()
  }
})

test('without reusePort a second process gets EADDRINUSE', async () => {
  if (skip !== undefined) return
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', reusePort: true, logger: memoryLogger().logger, routes: whoRoutes })
  let stopChild = async (): Promise<void> => undefined
  try {
    const child = await startChild(server.address.port, false)
    stopChild = child.stop
    assert.equal(child.said, { error: 'EADDRINUSE' })
  } finally {
    await stopChild()
    await server.close()
  }
})

test('on node:net reusePort is ignored with one warning; a non-boolean rejects', async () => {
  const { logger, records } = memoryLogger()
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'net', reusePort: true, logger, routes: whoRoutes })
  try {
    assert.equal(records.filter((r) => r.level === 'warning').map((r) => r.message), ['reusePort is served by the native transport only; node:net listens without SO_REUSEPORT'])
  } finally {
    await server.close()
  }
  const error = await runServer({ reusePort: 'yes' as unknown as boolean }).then(() => undefined, (e: unknown) => e as Error)
  assert.match(error?.message ?? '', /reusePort: expected a boolean, got "yes"/)
})

test.run()
