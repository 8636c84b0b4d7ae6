/**
 * The chat demo's WebSocket events against the real server, with the `ws` package as the
 * client: names, joining and leaving rooms, messages reaching exactly the room, notices,
 * refusals, payload validation, disconnects, and the origin rule.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ServerHandle } from '../../../lib/index.js'
import { MAX_ROOMS_PER_CLIENT } from '../../../examples/chat/chat-rooms.js'
import { type ChatClient, chatUrl, connect, member, settle, startTestChat } from './chat-client.js'

interface Ctx {
  chat: ServerHandle
  clients: ChatClient[]
}

const events = suite<Ctx>('chat events', { chat: undefined as unknown as ServerHandle, clients: [] })

events.before(async (ctx) => {
  ctx.chat = await startTestChat()
})
events.after.each(async (ctx) => {
  await Promise.all(ctx.clients.splice(0).map((c) => c.close()))
  await settle(ctx.chat)
})
events.after(async (ctx) => {
  await ctx.chat.close()
})

// Clients of a test, closed after it.
const keep = (ctx: Ctx, ...clients: ChatClient[]): ChatClient[] => {
  ctx.clients.push(...clients)
  return clients
}

events('hello :: answers the trimmed name, the client id, a resume token and the rooms', async (ctx) => {
  const [ada] = keep(ctx, await connect(ctx.chat))
  const reply = await ada!.request('hello', { name: '  ada  ' })
  assert.is(reply.ok, true)
  assert.is(reply.name, 'ada')
  assert.type(reply.id, 'number')
  assert.match(reply.token, /^[0-9a-f-]{36}$/)
  assert.equal(reply.rooms, [])
  assert.is((await ada!.request('hello', { name: 'ada' })).token, reply.token)
})

events('hello :: names are unique, ignoring case; a name is free again once its holder is gone', async (ctx) => {
  const [ada, other] = keep(ctx, await member(ctx.chat, 'ada'), await connect(ctx.chat))
  for (const name of ['ada', 'ADA', ' Ada ']) {
    assert.equal(await other!.request('hello', { name }), { ok: false, error: 'name_taken', message: `"${name.trim()}" is taken: pick another name` })
  }
  // A resume token of someone connected does not take the name over either.
  const token = (await ada!.request('hello', { name: 'ada' })).token
  assert.is((await other!.request('hello', { name: 'ada', resume: token })).error, 'name_taken')
  // Its holder may change its case; the old name is then free.
  assert.is((await ada!.request('hello', { name: 'Ada' })).name, 'Ada')
  assert.is((await ada!.request('hello', { name: 'adele' })).ok, true)
  assert.is((await other!.request('hello', { name: 'ada' })).ok, true)
  await ada!.close()
  await settle(ctx.chat, 1)
  const [late] = keep(ctx, await connect(ctx.chat))
  assert.is((await late!.request('hello', { name: 'adele' })).ok, true)
})

events('presence :: the member list is the room\'s presence: a join lists the names online, members get presence:<room> diffs', async (ctx) => {
  const [bob] = keep(ctx, await member(ctx.chat, 'bob', 'events-presence'))
  await bob!.next('presence:events-presence', (d) => d.joined.includes('bob'))
  const [ada] = keep(ctx, await member(ctx.chat, 'Ada'))
  // Names as people read a list: ignoring case.
  assert.equal((await ada!.request('join', { room: 'events-presence' })).members, ['Ada', 'bob'])
  const joined = await bob!.next('presence:events-presence', (d) => d.joined.length > 0)
  assert.equal([joined.joined, joined.left], [['Ada'], []])
  assert.is(joined.joins[0].key, 'Ada')
  // A rename is one diff: the old name left, the new one joined.
  await ada!.request('hello', { name: 'adele' })
  const renamed = await bob!.next('presence:events-presence', (d) => d.left.length > 0)
  assert.equal([renamed.joined, renamed.left], [['adele'], ['Ada']])
  await ada!.request('leave', { room: 'events-presence' })
  assert.equal((await bob!.next('presence:events-presence', (d) => d.left.length > 0)).left, ['adele'])
  // Another room's changes are not this room's.
  await ada!.request('join', { room: 'events-presence-2' })
  assert.equal(bob!.pending().filter((r) => r.event.startsWith('presence:')), [])
})

events('join :: refused before hello with name_required', async (ctx) => {
  const [anon] = keep(ctx, await connect(ctx.chat))
  const reply = await anon!.request('join', { room: 'lobby' })
  assert.equal(reply, { ok: false, error: 'name_required', message: 'send "hello" with your name first' })
})

events('join :: lists members, announces the joiner to the room and the head count to all', async (ctx) => {
  const [ada, outsider] = keep(ctx, await member(ctx.chat, 'ada', 'events-join'), await member(ctx.chat, 'zed'))
  const bob = keep(ctx, await member(ctx.chat, 'bob'))[0]!
  const reply = await bob.request('join', { room: 'events-join' })
  assert.equal(reply, { ok: true, room: 'events-join', members: ['ada', 'bob'], history: [] })
  assert.equal(await ada!.next('joined', (d) => d.name === 'bob'), { room: 'events-join', name: 'bob', members: 2 })
  const rooms = await outsider!.next('rooms', (d) => d.rooms.some((r: { members: number }) => r.members === 2))
  assert.equal(rooms.rooms, [{ room: 'events-join', members: 2 }])
  await bob.next('rooms', (d) => d.rooms.some((r: { members: number }) => r.members === 2))
  // The joiner learns it from the reply: no notice about itself.
  assert.not.ok(bob.pending().some((r) => r.event === 'joined'))
  assert.not.ok(outsider!.pending().some((r) => r.event === 'joined'))
})

events('join :: joining twice is harmless and announced once', async (ctx) => {
  const [ada, bob] = keep(ctx, await member(ctx.chat, 'ada', 'events-twice'), await member(ctx.chat, 'bob', 'events-twice'))
  await ada!.next('joined', (d) => d.name === 'bob')
  assert.is((await bob!.request('join', { room: 'events-twice' })).ok, true)
  await ada!.request('hello', { name: 'ada' }) // a round trip: anything announced has arrived
  assert.not.ok(ada!.pending().some((r) => r.event === 'joined'))
  const again = await ada!.request('join', { room: 'events-twice' })
  assert.equal(again, { ok: true, room: 'events-twice', members: ['ada', 'bob'], history: [] })
  await ada!.request('hello', { name: 'ada' }) // a round trip: anything announced has arrived
  assert.not.ok(ada!.pending().some((r) => r.event === 'joined'))
})

events(`join :: at most ${MAX_ROOMS_PER_CLIENT} rooms per client`, async (ctx) => {
  const [ada] = keep(ctx, await connect(ctx.chat))
  await ada!.request('hello', { name: 'ada' })
  for (let i = 0; i < MAX_ROOMS_PER_CLIENT; i++) assert.is((await ada!.request('join', { room: `many-${i}` })).ok, true)
  const reply = await ada!.request('join', { room: 'one-too-many' })
  assert.is(reply.error, 'too_many_rooms')
})

events('message :: reaches every member of the room, sender included, and nobody else', async (ctx) => {
  const [ada, bob, eve] = keep(
    ctx,
    await member(ctx.chat, 'ada', 'events-msg'),
    await member(ctx.chat, 'bob', 'events-msg'),
    await member(ctx.chat, 'eve', 'elsewhere'),
  )
  const reply = await ada!.request('message', { room: 'events-msg', text: ' hi bob ' })
  assert.is(reply.ok, true)
  const expected = { id: reply.message.id, room: 'events-msg', name: 'ada', text: 'hi bob', at: '2026-01-02T03:04:05.000Z', via: 'ws' }
  assert.equal(reply.message, expected)
  assert.equal(await bob!.next('message'), expected)
  assert.equal(await ada!.next('message'), expected)
  await eve!.request('hello', { name: 'eve' })
  assert.not.ok(eve!.pending().some((r) => r.event === 'message'))
})

events('message :: refused in a room the sender is not in', async (ctx) => {
  const [ada] = keep(ctx, await member(ctx.chat, 'ada'))
  const reply = await ada!.request('message', { room: 'not-mine', text: 'hi' })
  assert.equal(reply, { ok: false, error: 'not_in_room', message: 'join "not-mine" first' })
})

events('join :: newcomers get the recent messages of the room', async (ctx) => {
  const [ada] = keep(ctx, await member(ctx.chat, 'ada', 'events-history'))
  await ada!.request('message', { room: 'events-history', text: 'first' })
  await ada!.request('message', { room: 'events-history', text: 'second' })
  const [bob] = keep(ctx, await member(ctx.chat, 'bob'))
  const reply = await bob!.request('join', { room: 'events-history' })
  assert.equal(
    reply.history.map((m: { text: string }) => m.text),
    ['first', 'second'],
  )
})

events('leave :: announced to those who stay; leaving again is refused', async (ctx) => {
  const [ada, bob] = keep(ctx, await member(ctx.chat, 'ada', 'events-leave'), await member(ctx.chat, 'bob', 'events-leave'))
  assert.equal(await bob!.request('leave', { room: 'events-leave' }), { ok: true, room: 'events-leave' })
  assert.equal(await ada!.next('left'), { room: 'events-leave', name: 'bob', members: 1 })
  assert.is((await bob!.request('leave', { room: 'events-leave' })).error, 'not_in_room')
  // bob no longer receives the room's messages
  await ada!.request('message', { room: 'events-leave', text: 'still here?' })
  await bob!.request('hello', { name: 'bob' })
  assert.not.ok(bob!.pending().some((r) => r.event === 'message'))
})

events('hello :: a rename is announced in the rooms of the renamed', async (ctx) => {
  const [ada, bob] = keep(ctx, await member(ctx.chat, 'ada', 'events-rename'), await member(ctx.chat, 'bob', 'events-rename'))
  await bob!.request('hello', { name: 'robert' })
  assert.equal(await ada!.next('renamed'), { room: 'events-rename', from: 'bob', to: 'robert' })
  await bob!.request('message', { room: 'events-rename', text: 'new name' })
  assert.is((await ada!.next('message')).name, 'robert')
})

events('disconnect :: the others are told who left, and the room disappears when empty', async (ctx) => {
  const [ada] = keep(ctx, await member(ctx.chat, 'ada', 'events-gone'))
  const bob = await member(ctx.chat, 'bob', 'events-gone')
  const [watcher] = keep(ctx, await member(ctx.chat, 'watcher'))
  await bob.close()
  assert.equal(await ada!.next('left', (d) => d.name === 'bob'), { room: 'events-gone', name: 'bob', members: 1 })
  await ada!.close()
  const gone = (d: { rooms: { room: string }[] }): boolean => !d.rooms.some((r) => r.room === 'events-gone')
  await watcher!.next('rooms', gone)
  const body = (await (await fetch(`${chatUrl(ctx.chat)}/api/rooms`)).json()) as { rooms: { room: string }[] }
  assert.ok(gone(body))
})

for (const [name, event, data, path] of [
  ['an empty name', 'hello', { name: '   ' }, 'name'],
  ['a name of 33 characters', 'hello', { name: 'n'.repeat(33) }, 'name'],
  ['a name with a newline', 'hello', { name: 'a\nb' }, 'name'],
  ['a room with a space', 'join', { room: 'two words' }, 'room'],
  ['a room of 33 characters', 'join', { room: 'r'.repeat(33) }, 'room'],
  ['a text of 501 characters', 'message', { room: 'x', text: 't'.repeat(501) }, 'text'],
  ['a number as text', 'message', { room: 'x', text: 5 }, 'text'],
  ['no data', 'leave', null, ''],
] as const) {
  events(`codecs :: ${name} gets invalid_payload naming "${path}"`, async (ctx) => {
    const [ada] = keep(ctx, await connect(ctx.chat))
    const reply = await ada!.request(event, data)
    assert.is(reply.error, 'invalid_payload')
    assert.ok(
      reply.details.some((d: { path: string }) => d.path === path),
      JSON.stringify(reply),
    )
  })
}

events('origin :: a page of another site gets 403 before the upgrade; others keep chatting', async (ctx) => {
  const [ada] = keep(ctx, await member(ctx.chat, 'ada', 'events-origin'))
  const refused = await connect(ctx.chat, 'https://evil.example').then(
    () => 'connected',
    (error: Error) => error.message,
  )
  assert.match(refused, 'Unexpected server response: 403')
  assert.is((await ada!.request('message', { room: 'events-origin', text: 'still fine' })).ok, true)
})

events('origin :: the page of the chat itself may connect', async (ctx) => {
  const [page] = keep(ctx, await connect(ctx.chat, chatUrl(ctx.chat)))
  assert.is((await page!.request('hello', { name: 'ada' })).ok, true)
})

events.run()

const trusted = suite('chat events with listed origins')

trusted('origin :: an origin listed in `origins` may connect', async () => {
  const chat = await startTestChat({ origins: ['https://chat.example'] })
  const page = await connect(chat, 'https://CHAT.example')
  try {
    assert.is((await page.request('hello', { name: 'ada' })).ok, true)
  } finally {
    await page.close()
    await chat.close()
  }
})

trusted.run()

const grace = suite('chat grace period')

// A server with a grace period no test waits out: a departure within it is silent.
grace('hello :: a member back on a new connection with its token keeps name and rooms, and nobody is told', async () => {
  const chat = await startTestChat({ graceMs: 60_000 })
  const clients: ChatClient[] = []
  try {
    const ada = await member(chat, 'ada', 'grace')
    const bob = await connect(chat)
    clients.push(ada, bob)
    const token = (await bob.request('hello', { name: 'bob' })).token as string
    await bob.request('join', { room: 'grace' })
    await ada.next('joined', (d) => d.name === 'bob')
    await bob.close()
    await settle(chat, 1)

    // Within the grace period the name is held: not for others, not with a wrong token.
    const eve = await connect(chat)
    clients.push(eve)
    assert.is((await eve.request('hello', { name: 'bob' })).error, 'name_taken')
    assert.is((await eve.request('hello', { name: 'bob', resume: 'not-the-token' })).error, 'name_taken')

    const back = await connect(chat)
    clients.push(back)
    const reply = await back.request('hello', { name: 'bob', resume: token })
    assert.equal({ ...reply, id: 0 }, { ok: true, id: 0, name: 'bob', token, rooms: ['grace'] })
    assert.equal(await back.request('join', { room: 'grace' }), { ok: true, room: 'grace', members: ['ada', 'bob'], history: [] })
    // The room's messages reach the new connection, and ada saw neither a leave nor a join.
    await ada.request('message', { room: 'grace', text: 'still there?' })
    assert.is((await back.next('message')).text, 'still there?')
    assert.not.ok(ada.pending().some((r) => r.event === 'left' || r.event === 'joined'))
    assert.equal(((await (await fetch(`${chatUrl(chat)}/api/rooms`)).json()) as unknown), { rooms: [{ room: 'grace', members: 2 }] })
    // A token works once: the held client is gone now.
    const again = await connect(chat)
    clients.push(again)
    assert.is((await again.request('hello', { name: 'bob', resume: token })).error, 'name_taken')
  } finally {
    await Promise.all(clients.map((c) => c.close()))
    await chat.close()
  }
})

grace('disconnect :: without a return, the departure is announced when the grace period ends', async () => {
  const chat = await startTestChat({ graceMs: 20 })
  const clients: ChatClient[] = []
  try {
    const ada = await member(chat, 'ada', 'grace-end')
    const bob = await member(chat, 'bob', 'grace-end')
    clients.push(ada)
    await bob.close()
    assert.equal(await ada.next('left'), { room: 'grace-end', name: 'bob', members: 1 })
    const late = await connect(chat)
    clients.push(late)
    assert.is((await late.request('hello', { name: 'bob' })).ok, true)
  } finally {
    await Promise.all(clients.map((c) => c.close()))
    await chat.close()
  }
})

grace.run()
