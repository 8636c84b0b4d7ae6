import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compose, type Layer } from '../../../lib/core/middleware/compose.js'

type L = Layer<number, string, string>

test('compose :: no layers calls the target with the input and context', async () => {
  assert.is(await compose<number, string, string>([])(4, 'ctx', (n, c) => `${c}:${n}`), 'ctx:4')
})

test('compose :: layers run in onion order', async () => {
  const log: string[] = []
  const layer =
    (name: string): L =>
    async (_n, next) => {
      log.push(`${name}>`)
      const out = await next()
      log.push(`<${name}`)
      return `${name}(${out})`
    }
  const out = await compose([layer('a'), layer('b')])(1, '', (n) => {
    log.push('target')
    return String(n)
  })
  assert.is(out, 'a(b(1))')
  assert.equal(log, ['a>', 'b>', 'target', '<b', '<a'])
})

test('compose :: next(x) replaces the input for the rest; next() keeps it', async () => {
  const double: L = (n, next) => next(n * 2)
  const keep: L = (_n, next) => next()
  assert.is(await compose([double, keep, double])(3, '', String), '12')
})

test('compose :: a layer can answer without calling next', async () => {
  let reached = false
  const stop: L = () => 'stopped'
  const out = await compose([stop])(1, '', () => {
    reached = true
    return 'target'
  })
  assert.equal([out, reached], ['stopped', false])
})

test('compose :: a layer gets the context', async () => {
  const ctxAware: L = (_n, _next, ctx) => `ctx was ${ctx}`
  assert.is(await compose([ctxAware])(0, 'C', () => 'x'), 'ctx was C')
})

test('compose :: a second next() rejects with NextCalledTwice and the position', async () => {
  let targetRuns = 0
  const ok: L = (_n, next) => next()
  const twice: L = async (_n, next) => {
    await next()
    return next()
  }
  const err = await compose([ok, twice])(1, '', () => String(++targetRuns)).then(
    () => assert.unreachable('must reject'),
    (e: unknown) => e,
  )
  assert.equal(err, { _tag: 'NextCalledTwice', position: 1, message: 'middleware #1 called next() more than once' })
  assert.is(targetRuns, 1)
})

test('compose :: a synchronous throw in a layer or the target becomes a rejection', async () => {
  const throwing: L = () => {
    throw new Error('layer')
  }
  const run = compose([throwing])(1, '', () => 'x')
  assert.instance(run, Promise)
  await run.then(
    () => assert.unreachable(),
    (e: unknown) => assert.is((e as Error).message, 'layer'),
  )
  await compose<number, string, string>([])(1, '', () => {
    throw new Error('target')
  }).then(
    () => assert.unreachable(),
    (e: unknown) => assert.is((e as Error).message, 'target'),
  )
})

test.run()
