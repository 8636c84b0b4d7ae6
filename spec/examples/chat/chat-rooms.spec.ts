/** The chat's own state: names, membership, limits, history, the room list. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { messageFactory } from '../../../examples/chat/chat-message.js'
import { createChatRooms, HISTORY_LENGTH, MAX_ROOMS_PER_CLIENT } from '../../../examples/chat/chat-rooms.js'

const make = messageFactory(() => new Date(0))

test('createChatRooms :: join needs a name first', () => {
  const rooms = createChatRooms()
  assert.equal(rooms.join(1, 'lobby'), { _tag: 'NameRequired' })
  assert.not.ok(rooms.exists('lobby'))
})

test('createChatRooms :: join lists members by name in joining order; a second join is AlreadyIn', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.setName(2, 'bob')
  assert.equal(rooms.join(1, 'lobby'), { _tag: 'Joined', members: ['ada'], history: [] })
  assert.equal(rooms.join(2, 'lobby'), { _tag: 'Joined', members: ['ada', 'bob'], history: [] })
  assert.equal(rooms.join(2, 'lobby'), { _tag: 'AlreadyIn', members: ['ada', 'bob'], history: [] })
  assert.ok(rooms.isIn(2, 'lobby'))
  assert.not.ok(rooms.isIn(3, 'lobby'))
  assert.equal(rooms.roomsOf(2), ['lobby'])
})

test('createChatRooms :: a client is in at most MAX_ROOMS_PER_CLIENT rooms', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  for (let i = 0; i < MAX_ROOMS_PER_CLIENT; i++) assert.is(rooms.join(1, `r${i}`)._tag, 'Joined')
  assert.equal(rooms.join(1, 'one-more'), { _tag: 'TooManyRooms', limit: MAX_ROOMS_PER_CLIENT })
  assert.ok(rooms.leave(1, 'r0'))
  assert.is(rooms.join(1, 'one-more')._tag, 'Joined')
})

test('createChatRooms :: leave answers whether the client was in; an empty room disappears', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.setName(2, 'bob')
  rooms.join(1, 'lobby')
  rooms.join(2, 'lobby')
  assert.ok(rooms.leave(1, 'lobby'))
  assert.not.ok(rooms.leave(1, 'lobby'))
  assert.not.ok(rooms.leave(9, 'lobby'))
  assert.equal(rooms.members('lobby'), ['bob'])
  assert.ok(rooms.leave(2, 'lobby'))
  assert.not.ok(rooms.exists('lobby'))
  assert.equal(rooms.members('lobby'), [])
  assert.equal(rooms.roomsOf(2), [])
})

test('createChatRooms :: setName renames and answers the rooms to tell', () => {
  const rooms = createChatRooms()
  assert.equal(rooms.setName(1, 'ada'), [])
  rooms.join(1, 'a')
  rooms.join(1, 'b')
  assert.equal(rooms.setName(1, 'ada2'), ['a', 'b'])
  assert.is(rooms.nameOf(1), 'ada2')
  assert.equal(rooms.members('b'), ['ada2'])
})

test('createChatRooms :: forget drops the client everywhere and answers where it was', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.setName(2, 'bob')
  rooms.join(1, 'a')
  rooms.join(1, 'b')
  rooms.join(2, 'b')
  assert.equal(rooms.forget(1), ['a', 'b'])
  assert.is(rooms.nameOf(1), undefined)
  assert.equal(rooms.list(), [{ room: 'b', members: 1 }])
  assert.equal(rooms.forget(1), [])
})

test('createChatRooms :: list is sorted by room name with head counts', () => {
  const rooms = createChatRooms()
  for (const [id, room] of [[1, 'zoo'], [2, 'Alpha'], [3, 'zoo'], [4, 'mid'], [5, 'mid']] as const) {
    rooms.setName(id, `u${id}`)
    rooms.join(id, room)
  }
  assert.equal(rooms.list(), [
    { room: 'Alpha', members: 1 },
    { room: 'mid', members: 2 },
    { room: 'zoo', members: 2 },
  ])
})

test('createChatRooms :: record keeps the last HISTORY_LENGTH messages of an existing room only', () => {
  const rooms = createChatRooms()
  rooms.record(make({ room: 'ghost', name: 'x', text: 'lost', via: 'http' }))
  rooms.setName(1, 'ada')
  rooms.join(1, 'ghost')
  const history = rooms.join(1, 'ghost')
  assert.equal(history._tag === 'AlreadyIn' ? history.history : undefined, [])
  for (let i = 1; i <= HISTORY_LENGTH + 5; i++) rooms.record(make({ room: 'ghost', name: 'ada', text: `m${i}`, via: 'ws' }))
  rooms.setName(2, 'bob')
  const joined = rooms.join(2, 'ghost')
  const texts = joined._tag === 'Joined' ? joined.history.map((m) => m.text) : []
  assert.is(texts.length, HISTORY_LENGTH)
  assert.is(texts[0], 'm6')
  assert.is(texts[HISTORY_LENGTH - 1], `m${HISTORY_LENGTH + 5}`)
})

test('createChatRooms :: members skips a member without a name (never happens through join)', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.join(1, 'a')
  rooms.forget(1)
  assert.equal(rooms.members('a'), [])
})

test('createChatRooms :: holderOf finds a name ignoring case; a rename or forget frees the old one', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'Ada')
  assert.is(rooms.holderOf('ada'), 1)
  assert.is(rooms.holderOf('ADA'), 1)
  assert.is(rooms.holderOf('bob'), undefined)
  rooms.setName(1, 'adele')
  assert.is(rooms.holderOf('ada'), undefined)
  assert.is(rooms.holderOf('Adele'), 1)
  rooms.forget(1)
  assert.is(rooms.holderOf('adele'), undefined)
})

test('createChatRooms :: transfer gives name and rooms to a new client, keeping its place in each room', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.setName(2, 'bob')
  rooms.join(1, 'lobby')
  rooms.join(2, 'lobby')
  rooms.join(1, 'dev')
  assert.equal(rooms.transfer(1, 7), ['lobby', 'dev'])
  assert.is(rooms.nameOf(7), 'ada')
  assert.is(rooms.nameOf(1), undefined)
  assert.is(rooms.holderOf('ada'), 7)
  assert.equal(rooms.members('lobby'), ['ada', 'bob'])
  assert.ok(rooms.isIn(7, 'dev'))
  assert.not.ok(rooms.isIn(1, 'dev'))
  assert.equal(rooms.roomsOf(1), [])
})

test('createChatRooms :: transfer does nothing from a client without a name or to a named one', () => {
  const rooms = createChatRooms()
  rooms.setName(1, 'ada')
  rooms.setName(2, 'bob')
  rooms.join(1, 'lobby')
  assert.equal(rooms.transfer(3, 4), [])
  assert.equal(rooms.transfer(1, 2), [])
  assert.is(rooms.nameOf(1), 'ada')
  assert.equal(rooms.transfer(2, 5), [])
  assert.is(rooms.nameOf(5), 'bob')
})

test.run()
