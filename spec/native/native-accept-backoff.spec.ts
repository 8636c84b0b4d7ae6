/**
 * The native transport at the open-file limit: when accept fails with EMFILE the addon stops
 * watching the listening socket for a while instead of spinning on the connection the kernel
 * still queues, the engine's AcceptWall logs it once (with its count), and once descriptors
 * are free again the queued connections are taken and served. The server runs in a child
 * started under `ulimit -n 256` (spec/native/emfile-child.ts).
 */
import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { delay } from '../support/server.js'
import { buildNative } from './build-native.js'

const test = suite('native transport :: accept back-off')
const built = buildNative('release')
const skip = 'skip' in built ? built.skip : undefined
if (skip !== undefined) console.log(`  native accept back-off specs skipped: ${skip}`)

// Opens a TCP connection (the kernel completes it whether or not the server accepts it).
const open = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })

// Sends GET /hello on a fresh connection and answers the response's first line.
const hello = (port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''))
    socket.on('error', reject)
  })

test('EMFILE: backs off instead of spinning, logs once with the count, takes the queued connections once descriptors are free', async () => {
  if (skip !== undefined) return
  const child = spawn('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" --import tsx spec/native/emfile-child.ts`], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async <T>(): Promise<T> => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null') as T
  const sockets: Socket[] = []
  try {
    const { port } = await next<{ port: number }>()
    // More connections than the child has descriptors left: the rest wait in the kernel's queue.
    for (let i = 0; i < 300; i++) sockets.push(await open(port))
    await delay(200)
    child.stdin.write('mark\n')
    await delay(2000)
    child.stdin.write('report\n')
    const report = await next<{ cpuMs: number; warnings: { message: string; context: Record<string, unknown> }[] }>()
    // Spinning on the readable listening socket would take most of a core for the 2 s.
    assert.ok(report.cpuMs < 250, `the server used ${report.cpuMs.toFixed(0)} ms of CPU in 2 s at the wall`)
    const walls = report.warnings.filter((w) => w.message.includes('out of file descriptors'))
    assert.is(walls.length, 1, JSON.stringify(report.warnings))
    assert.ok(Number(walls[0]?.context.descriptors) >= 1, JSON.stringify(walls[0]?.context))
    // Descriptors free again: the server takes what waited and serves a new request.
    for (const socket of sockets.splice(0)) socket.destroy()
    assert.is(await hello(port), 'HTTP/1.1 200 OK')
  } finally {
    for (const socket of sockets) socket.destroy()
    child.stdin.write('close\n')
    await new Promise((resolve) => child.once('exit', resolve))
  }
})

test.run()
