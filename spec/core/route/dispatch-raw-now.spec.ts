import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { dispatchRawNow } from '../../../lib/core/route/dispatch-raw.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { rawText } from '../../../lib/core/route/raw-message.js'
import type { RawHandler, RouteTable } from '../../../lib/core/route/route.js'
import type { WsErrorSite } from '../../../lib/core/route/ws-error-reporter.js'
import { recordingContext } from './support.js'

const compile = (table: RouteTable): CompiledRoutes =>
  E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const with_ = (handler: RawHandler): CompiledRoutes => compile([onMessage(handler)])

test('dispatchRawNow :: a handler that answers at once gives the outcome at once, not a promise', () => {
  const { ctx } = recordingContext()
  const out = dispatchRawNow(with_((m) => m), rawText('hi'), ctx)
  assert.not.ok(out instanceof Promise)
  assert.equal(out, { _tag: 'Reply', message: rawText('hi') })
  assert.equal(dispatchRawNow(with_(() => undefined), rawText('x'), ctx), { _tag: 'NoReply' })
})

test('dispatchRawNow :: a handler that returns a promise (or any thenable) gives a promise of the outcome', async () => {
  const { ctx } = recordingContext()
  const later = dispatchRawNow(with_(async () => 'pong'), rawText('ping'), ctx)
  assert.ok(later instanceof Promise)
  assert.equal(await later, { _tag: 'Reply', message: rawText('pong') })
  const thenable = { then: (resolve: (v: string) => void) => resolve('via then') }
  assert.equal(await dispatchRawNow(with_(() => thenable as unknown as Promise<string>), rawText('x'), ctx), { _tag: 'Reply', message: rawText('via then') })
})

test('dispatchRawNow :: a throw or a rejection is reported and gives Failed; no raw route gives 1003', async () => {
  const { ctx } = recordingContext()
  const sites: WsErrorSite[] = []
  const onError = (_e: unknown, site: WsErrorSite): void => void sites.push(site)
  assert.equal(dispatchRawNow(with_(() => { throw new Error('sync') }), rawText('x'), ctx, onError), { _tag: 'Failed' })
  assert.equal(await dispatchRawNow(with_(async () => { throw new Error('async') }), rawText('x'), ctx, onError), { _tag: 'Failed' })
  assert.is(sites.length, 2)
  assert.is(sites[0]?.phase, 'message')
  assert.equal(dispatchRawNow(compile([]), rawText('x'), ctx), { _tag: 'NoRawRoute', closeCode: 1003 })
})

test.run()
