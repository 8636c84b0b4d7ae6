/**
 * Client data typed from the application (issue 27), proved by `tsc` (the type check covers
 * every spec): a handler whose context is `SocketContext<Session>` sets only the keys of
 * `Session`, with their types, and reads them typed; a context without a declaration takes any
 * key and reads `unknown`, as before. `Equal` checks types; each `@ts-expect-error` line must be
 * an error. The routes then run on a recording context, so the values are what was stored.
 */
import * as t from 'io-ts'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ClientDataRecord } from '../../../lib/core/route/client-data.js'
import { clientDataOf } from '../../../lib/core/route/client-data-of.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../../lib/core/route/on-disconnect.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { rawText } from '../../../lib/core/route/raw-message.js'
import type { SocketContext } from '../../../lib/core/route/socket-context.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import type { TypedSocketContext } from '../../../lib/core/route/typed-context.js'
import { recordingContext } from './support.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const check = <T extends true>(): T => true as T

// Declared once by the application.
interface Session {
  user: string
  role: 'admin' | 'member'
  visits: number
}
type Ctx = SocketContext<Session>

interface Events {
  welcome: { user: string }
}

test('client data :: a declared context sets only its keys with their types, and reads them typed', async () => {
  const promote = socketOn('promote', t.type({ to: t.literal('admin') }), ({ to }, ctx: Ctx) => {
    ctx.setClientData('role', to)
    // Type errors only: never called.
    const mistakes = () => {
      // @ts-expect-error: 'owner' is not a role
      ctx.setClientData('role', 'owner')
      // @ts-expect-error: no such key in Session
      ctx.setClientData('nickname', 'x')
      // @ts-expect-error: visits is a number
      ctx.setClientData('visits', '1')
    }
    void mistakes
    const user = ctx.getClientData('user')
    check<Equal<typeof user, string | undefined>>()
    // @ts-expect-error: no such key in Session
    ctx.getClientData('nickname')
    const all = ctx.getClientData()
    check<Equal<typeof all, Partial<Session>>>()
    return all
  })
  const { ctx } = recordingContext()
  ctx.setClientData('user', 'ada')
  assert.equal(await promote.handler({ to: 'admin' }, ctx), { user: 'ada', role: 'admin' })
})

test('client data :: lifecycle and raw handlers take a declared context too, and so does the typed view', () => {
  const hello = onConnect((ctx: Ctx) => ctx.setClientData('visits', 1))
  const bye = onDisconnect((ctx: Ctx) => ctx.getClientData('visits'))
  const raw = onMessage((message, ctx: Ctx) => {
    ctx.setClientData('visits', (ctx.getClientData('visits') ?? 0) + 1)
    return message._tag === 'Text' ? message.text : undefined
  })
  const greet = socketOn('greet', (_data, ctx: TypedSocketContext<Events, Session>) => {
    const user = ctx.getClientData('user') ?? 'anonymous'
    ctx.emit('welcome', { user })
    // @ts-expect-error: role is 'admin' | 'member' (never called)
    void (() => ctx.setClientData('role', 1))
    return user
  })
  const { ctx, calls } = recordingContext()
  hello.handler(ctx)
  raw.handler(rawText('hi'), ctx)
  assert.is(bye.handler(ctx), 2)
  assert.is(greet.handler(undefined, ctx), 'anonymous')
  assert.equal(calls.filter(([name]) => name === 'emit'), [['emit', 'welcome', { user: 'anonymous' }]])
})

test('client data :: an undeclared context takes any key and reads unknown, as before', () => {
  const note = socketOn('note', t.string, (text, ctx) => {
    ctx.setClientData('note', text)
    ctx.setClientData('anything', { at: 1 })
    const read = ctx.getClientData('note')
    check<Equal<typeof read, unknown>>()
    check<Equal<ReturnType<typeof ctx.getClientData<'x'>>, unknown>>()
    const all = ctx.getClientData()
    check<Equal<typeof all, unknown>>()
    return read
  })
  const { ctx } = recordingContext()
  assert.is(note.handler('hi', ctx), 'hi')
  // clientDataOf still reads a context of either kind.
  assert.equal(clientDataOf<{ note: string }>(ctx).note, 'hi')
  check<Equal<ClientDataRecord<{ readonly [key: string]: unknown }>, unknown>>()
})

test.run()
