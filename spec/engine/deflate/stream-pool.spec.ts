import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createJobLimiter } from '../../../lib/engine/deflate/job-limiter.js'
import { createStreamPool, type PoolStream } from '../../../lib/engine/deflate/stream-pool.js'

// A stand-in for a zlib stream: it counts resets and closes, and can be broken.
class FakeStream implements PoolStream {
  broken = false
  resets = 0
  closed = false
  constructor(readonly id: number) {}
  reset(): void {
    this.resets++
  }
  close(): void {
    this.closed = true
  }
}

const deferred = <T>() => {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

const poolOf = (size: number, resetAfterJob: boolean, concurrency = Infinity) => {
  const made: FakeStream[] = []
  const pool = createStreamPool({
    make: () => {
      const stream = new FakeStream(made.length)
      made.push(stream)
      return stream
    },
    size,
    resetAfterJob,
    limiter: createJobLimiter(concurrency),
  })
  return { pool, made }
}

test('createStreamPool :: makes no stream before a job needs one', () => {
  const { pool, made } = poolOf(4, true)
  assert.equal([pool.streams, made.length], [0, 0])
})

test('createStreamPool :: settles in submission order though later jobs finish first', async () => {
  const { pool } = poolOf(3, true)
  const jobs = [deferred<string>(), deferred<string>(), deferred<string>()]
  const settled: string[] = []
  const all = jobs.map((job, i) => pool.run(() => job.promise).then((v) => settled.push(`${i}:${v}`)))
  jobs[2]!.resolve('c')
  jobs[1]!.resolve('b')
  await tick()
  assert.equal(settled, [], 'nothing before the first job is done')
  jobs[0]!.resolve('a')
  await Promise.all(all)
  assert.equal(settled, ['0:a', '1:b', '2:c'])
})

test('createStreamPool :: a failed job rejects in its turn, the others still settle', async () => {
  const { pool } = poolOf(2, true)
  const jobs = [deferred<number>(), deferred<number>()]
  const events: string[] = []
  const first = pool.run(() => jobs[0]!.promise).then((v) => events.push(`ok ${v}`), (e: Error) => events.push(`failed ${e.message}`))
  const second = pool.run(() => jobs[1]!.promise).then((v) => events.push(`ok ${v}`))
  jobs[1]!.resolve(2)
  jobs[0]!.reject(new Error('bad'))
  await Promise.all([first, second])
  assert.equal(events, ['failed bad', 'ok 2'])
})

test('createStreamPool :: at most `size` streams, each job on a stream of its own, reused after a reset', async () => {
  const { pool, made } = poolOf(2, true)
  const jobs = [deferred<void>(), deferred<void>(), deferred<void>()]
  const used: number[] = []
  const all = jobs.map((job) =>
    pool.run((stream) => {
      used.push(stream.id)
      return job.promise
    }),
  )
  assert.equal([used, made.length], [[0, 1], 2], 'the third waits for a stream')
  jobs[0]!.resolve()
  await tick()
  assert.equal(used, [0, 1, 0], 'stream 0, reset, takes the third job')
  assert.is(made[0]!.resets, 1)
  jobs[1]!.resolve()
  jobs[2]!.resolve()
  await Promise.all(all)
  assert.equal([made.length, made[0]!.resets, made[1]!.resets, pool.streams], [2, 2, 1, 2])
})

test('createStreamPool :: a pool of one runs jobs one after the other, never reset (context takeover)', async () => {
  const { pool, made } = poolOf(1, false)
  const running: number[] = []
  let busy = false
  const all = [0, 1, 2].map((i) =>
    pool.run(async () => {
      assert.not.ok(busy, 'one job at a time')
      busy = true
      running.push(i)
      await tick()
      busy = false
      return i
    }),
  )
  assert.equal(await Promise.all(all), [0, 1, 2])
  assert.equal([running, made.length, made[0]!.resets], [[0, 1, 2], 1, 0])
})

test('createStreamPool :: a broken stream is closed and replaced', async () => {
  const { pool, made } = poolOf(1, false)
  const waiting = deferred<void>()
  const first = pool.run(async (stream) => {
    await waiting.promise
    stream.broken = true
  })
  const second = pool.run(async (stream) => stream.id)
  waiting.resolve()
  await first
  assert.is(await second, 1, 'the waiting job gets a new stream')
  assert.equal([made[0]!.closed, made[0]!.resets, made.length], [true, 0, 2])
  await pool.run(async (stream) => {
    stream.broken = true
  })
  assert.equal([made[1]!.closed, pool.streams], [true, 0], 'broken with nobody waiting: dropped')
  assert.is(await pool.run(async (stream) => stream.id), 2)
})

test('createStreamPool :: jobs go through the limiter', async () => {
  const limiter = createJobLimiter(1)
  const pool = createStreamPool({ make: () => new FakeStream(0), size: 4, resetAfterJob: true, limiter })
  const jobs = [deferred<void>(), deferred<void>()]
  const all = jobs.map((job) => pool.run(() => job.promise))
  await tick()
  assert.equal([limiter.active, limiter.waiting, pool.streams], [1, 1, 2])
  jobs[0]!.resolve()
  jobs[1]!.resolve()
  await Promise.all(all)
})

test('createStreamPool :: close frees the streams once submitted jobs are done, and refuses new ones', async () => {
  const { pool, made } = poolOf(2, true)
  const job = deferred<string>()
  const running = pool.run(() => job.promise)
  pool.close()
  assert.is(made[0]!.closed, false, 'still busy')
  await pool.run(async () => 'late').then(
    () => assert.unreachable('refused after close'),
    (error: Error) => assert.match(error.message, /closed/),
  )
  job.resolve('done')
  assert.is(await running, 'done')
  await tick()
  assert.equal([made[0]!.closed, pool.streams], [true, 0])
  const idle = poolOf(2, true)
  await idle.pool.run(async () => undefined)
  idle.pool.close()
  assert.equal([idle.made[0]!.closed, idle.pool.streams], [true, 0], 'idle streams freed at once')
})

test.run()
