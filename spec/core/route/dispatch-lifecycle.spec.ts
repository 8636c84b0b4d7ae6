import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { dispatchConnect } from '../../../lib/core/route/dispatch-connect.js'
import { dispatchDisconnect } from '../../../lib/core/route/dispatch-disconnect.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../../lib/core/route/on-disconnect.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import type { WsErrorSite } from '../../../lib/core/route/ws-error-reporter.js'
import { recordingContext } from './support.js'

const compile = (table: RouteTable): CompiledRoutes =>
  E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

test('dispatchConnect :: runs every handler in table order, awaiting each', async () => {
  const trace: string[] = []
  const compiled = compile([
    onConnect(async (ctx) => {
      await Promise.resolve()
      trace.push(`first ${ctx.clientId}`)
    }),
    onDisconnect(() => trace.push('not me')),
    onConnect((ctx) => trace.push(`second ${ctx.clientId}`)),
  ])
  const errors = await dispatchConnect(compiled, recordingContext(3).ctx)
  assert.equal(trace, ['first 3', 'second 3'])
  assert.equal(errors, [])
})

test('dispatchConnect :: a failing handler is reported and the rest still run', async () => {
  const trace: string[] = []
  const reports: [unknown, WsErrorSite][] = []
  const compiled = compile([
    onConnect(() => {
      throw new Error('one')
    }),
    onConnect(() => Promise.reject(new Error('two'))),
    onConnect(() => trace.push('three')),
  ])
  const errors = await dispatchConnect(compiled, recordingContext(4).ctx, (e, s) => reports.push([e, s]))
  assert.equal(trace, ['three'])
  assert.equal(errors.map((e) => (e as Error).message), ['one', 'two'])
  assert.equal(reports.map(([, s]) => s), [
    { phase: 'connect', clientId: 4 },
    { phase: 'connect', clientId: 4 },
  ])
})

test('dispatchDisconnect :: runs every disconnect handler and isolates failures', async () => {
  const trace: string[] = []
  const reports: WsErrorSite[] = []
  const compiled = compile([
    onDisconnect(() => {
      throw new Error('x')
    }),
    onConnect(() => trace.push('not me')),
    onDisconnect((ctx) => trace.push(`bye ${ctx.clientId}`)),
  ])
  const errors = await dispatchDisconnect(compiled, recordingContext(5).ctx, (_e, s) => {
    reports.push(s)
    throw new Error('a throwing hook is contained')
  })
  assert.equal(trace, ['bye 5'])
  assert.is(errors.length, 1)
  assert.equal(reports, [{ phase: 'disconnect', clientId: 5 }])
})

test('dispatchDisconnect :: without handlers or a hook it resolves empty', async () => {
  assert.equal(await dispatchDisconnect(compile([]), recordingContext().ctx), [])
  const failing = compile([onDisconnect(() => { throw new Error('dropped') })])
  assert.is((await dispatchDisconnect(failing, recordingContext().ctx)).length, 1)
  assert.is((await dispatchConnect(compile([onConnect(() => { throw new Error('c') })]), recordingContext().ctx)).length, 1)
})

test.run()
