import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createJobLimiter } from '../../../lib/engine/deflate/job-limiter.js'

// A job whose end the spec decides.
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

test('createJobLimiter :: runs at most `concurrency` jobs at once, the rest in arrival order', async () => {
  const limiter = createJobLimiter(2)
  const jobs = Array.from({ length: 5 }, () => deferred<number>())
  const started: number[] = []
  const results = jobs.map((job, i) =>
    limiter.run(() => {
      started.push(i)
      return job.promise
    }),
  )
  assert.equal([started, limiter.active, limiter.waiting], [[0, 1], 2, 3])
  jobs[1]!.resolve(1)
  await tick()
  assert.equal([started, limiter.active, limiter.waiting], [[0, 1, 2], 2, 2])
  jobs[0]!.resolve(0)
  jobs[2]!.resolve(2)
  await tick()
  assert.equal([started, limiter.active, limiter.waiting], [[0, 1, 2, 3, 4], 2, 0])
  jobs[3]!.resolve(3)
  jobs[4]!.resolve(4)
  assert.equal(await Promise.all(results), [0, 1, 2, 3, 4])
  assert.equal([limiter.active, limiter.waiting], [0, 0])
})

test('createJobLimiter :: a failed job frees its slot and rejects with its error', async () => {
  const limiter = createJobLimiter(1)
  const failing = limiter.run(() => Promise.reject(new Error('zlib failed')))
  const next = limiter.run(() => Promise.resolve('next'))
  await failing.then(
    () => assert.unreachable('must reject'),
    (error: Error) => assert.is(error.message, 'zlib failed'),
  )
  assert.is(await next, 'next')
})

test('createJobLimiter :: a job that throws before its promise is a rejection too', async () => {
  const limiter = createJobLimiter(1)
  const thrown = limiter.run((): Promise<void> => {
    throw new Error('thrown')
  })
  await thrown.then(
    () => assert.unreachable('must reject'),
    (error: Error) => assert.is(error.message, 'thrown'),
  )
  assert.is(await limiter.run(() => Promise.resolve(7)), 7)
})

test('createJobLimiter :: Infinity runs everything at once', () => {
  const limiter = createJobLimiter(Infinity)
  const job = deferred<void>()
  for (let i = 0; i < 100; i++) void limiter.run(() => job.promise)
  assert.equal([limiter.active, limiter.waiting], [100, 0])
  job.resolve()
})

test('createJobLimiter :: a long queue is served in order (its storage compacted on the way)', async () => {
  const limiter = createJobLimiter(1)
  const order: number[] = []
  const all = Array.from({ length: 3000 }, (_, i) =>
    limiter.run(async () => {
      order.push(i)
    }),
  )
  await Promise.all(all)
  assert.equal(order, Array.from({ length: 3000 }, (_, i) => i))
  assert.equal([limiter.active, limiter.waiting], [0, 0])
})

test.run()
