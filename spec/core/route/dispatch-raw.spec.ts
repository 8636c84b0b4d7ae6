import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { dispatchRaw } from '../../../lib/core/route/dispatch-raw.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { rawBinary, rawText } from '../../../lib/core/route/raw-message.js'
import type { RawHandler, RouteTable } from '../../../lib/core/route/route.js'
import type { WsErrorSite } from '../../../lib/core/route/ws-error-reporter.js'
import { recordingContext } from './support.js'

const compile = (table: RouteTable): CompiledRoutes =>
  E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const with_ = (handler: RawHandler): CompiledRoutes => compile([onMessage(handler)])

test('dispatchRaw :: echoing the message replies with it, text or binary', async () => {
  const echo = with_((m) => m)
  const { ctx } = recordingContext()
  const bytes = new Uint8Array([0, 255, 1])
  assert.equal(await dispatchRaw(echo, rawText('hi'), ctx), { _tag: 'Reply', message: { _tag: 'Text', text: 'hi' } })
  const out = await dispatchRaw(echo, rawBinary(bytes), ctx)
  assert.is(out._tag === 'Reply' && out.message._tag === 'Binary' && out.message.data, bytes)
})

test('dispatchRaw :: a string or bytes returned become text or binary replies', async () => {
  const { ctx } = recordingContext()
  assert.equal(await dispatchRaw(with_(async () => 'pong'), rawText('ping'), ctx), { _tag: 'Reply', message: rawText('pong') })
  const b = new Uint8Array([9])
  assert.equal(await dispatchRaw(with_(() => b), rawText('x'), ctx), { _tag: 'Reply', message: rawBinary(b) })
})

test('dispatchRaw :: nothing returned, nothing sent; the context is passed on', async () => {
  const { ctx, calls } = recordingContext(2)
  const bcast = with_((m, c) => c.broadcastRaw(m, { room: 'bcast' }))
  assert.equal(await dispatchRaw(bcast, rawText('all'), ctx), { _tag: 'NoReply' })
  assert.equal(calls, [['broadcastRaw', rawText('all'), { room: 'bcast' }]])
  assert.equal(await dispatchRaw(with_(() => ({ _tag: 'Other' }) as never), rawText('x'), ctx), { _tag: 'NoReply' })
})

test('dispatchRaw :: without a raw route a message is unsupported data (1003)', async () => {
  assert.equal(await dispatchRaw(compile([]), rawBinary(new Uint8Array(1)), recordingContext().ctx), { _tag: 'NoRawRoute', closeCode: 1003 })
})

test('dispatchRaw :: a throwing handler is reported and the connection stays', async () => {
  const reports: [unknown, WsErrorSite][] = []
  const boom = with_(() => {
    throw new Error('raw')
  })
  const out = await dispatchRaw(boom, rawText('x'), recordingContext(8).ctx, (e, s) => reports.push([e, s]))
  assert.equal(out, { _tag: 'Failed' })
  assert.equal(reports.map(([e, s]) => [(e as Error).message, s]), [['raw', { phase: 'message', clientId: 8 }]])
  assert.equal(await dispatchRaw(boom, rawText('x'), recordingContext().ctx), { _tag: 'Failed' })
})

test.run()
