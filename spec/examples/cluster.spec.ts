/**
 * `npm run example:cluster` (examples/cluster.ts) as processes against a real redis-server:
 * two of them on two ports behave as two hosts of one app (each with its own workers
 * sharing its port): a `/bcast` message sent on one reaches the `/bcast` clients of both,
 * sender included, and each still serves the echo routes. Node only (node:cluster).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startRedis, type RedisServer } from '../support/redis.js'
import { delay, eventually, openClient, type TestClient } from '../support/server.js'

interface Ctx {
  redis: RedisServer | undefined
  hosts: { child: ChildProcess; port: number }[]
}

const startHost = (redisUrl: string, workers: number): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/cluster.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', WORKERS: String(workers), REDIS_URL: redisUrl, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let seen = ''
    // tsx compiles the example in each process first: slow on a loaded 2-core machine.
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`example:cluster did not start within 60 s:\n${seen}`))
    }, 60_000)
    const look = (chunk: Buffer): void => {
      seen += chunk.toString()
      const port = /cluster: \d+ workers listening on 127\.0\.0\.1:(\d+)/.exec(seen)?.[1]
      // Every worker has joined through Redis too.
      if (port !== undefined && (seen.match(/joined through Redis/g) ?? []).length >= workers) {
        clearTimeout(timer)
        resolve({ child, port: Number(port) })
      }
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code) => reject(new Error(`example:cluster exited with ${code}:\n${seen}`)))
  })

const Example = suite<Ctx>('examples/cluster.ts', { redis: undefined, hosts: [] })

Example.before(async (ctx) => {
  ctx.redis = await startRedis()
  // Each host is kept as it starts, so the after hook stops it even when the other did not start.
  const url = ctx.redis.url
  await Promise.all([2, 1].map(async (workers) => void ctx.hosts.push(await startHost(url, workers))))
})

Example.after(async (ctx) => {
  await Promise.all(
    ctx.hosts.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve()
          child.once('exit', () => resolve())
          child.kill('SIGTERM')
        }),
    ),
  )
  await ctx.redis?.dispose()
})

Example('two hosts on one Redis: a /bcast message sent on one reaches every /bcast client of both', async (ctx) => {
  const [one, two] = ctx.hosts
  assert.ok(one !== undefined && two !== undefined)
  // Several clients per host, so that both workers of the first host have some.
  const clients: TestClient[] = []
  for (let i = 0; i < 4; i++) clients.push(await openClient(one.port, '/bcast'), await openClient(two.port, '/bcast'))
  await delay(300) // every worker's subscription to the room
  clients[1]?.ws.send('hello from host two')
  for (const c of clients) assert.is(await c.next(5000), 'hello from host two')
  clients[0]?.ws.send(Buffer.from([1, 2, 3]))
  await eventually(() => clients.every((c) => c.pending.length === 1), 5000, 'the binary message everywhere')
  for (const c of clients) assert.equal([...(c.pending[0] as Buffer)], [1, 2, 3])
  for (const c of clients) c.ws.close()
})

Example('each host still serves the echo routes', async (ctx) => {
  for (const { port } of ctx.hosts) {
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/hello`)).json(), { hello: 'world' })
    const echo = await openClient(port, '/')
    echo.ws.send('same bytes back')
    assert.is(await echo.next(), 'same bytes back')
    echo.ws.close()
  }
})

Example.run()
