/** The chat's io-ts codecs: trimming, bounds, character rules, exact payloads. */
import { isLeft, isRight } from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CHAT_LIMITS, HelloPayload, MessageText, PostPayload, RoomName, SayPayload, UserName } from '../../../examples/chat/chat-codecs.js'

const decoded = <A>(result: { _tag: 'Left' } | { _tag: 'Right'; right: A }): A => {
  if (result._tag === 'Left') throw new Error('expected a Right')
  return result.right
}

test('UserName :: trims and keeps 1 to 32 characters of any script', () => {
  assert.is(decoded(UserName.decode('  ada ')), 'ada')
  assert.is(decoded(UserName.decode('Zoë 李')), 'Zoë 李')
  assert.is(decoded(UserName.decode('n'.repeat(CHAT_LIMITS.name))), 'n'.repeat(32))
  for (const bad of ['', '   ', 'n'.repeat(33), 'a\tb', 'a\u0000', 'a\u2028b', 'x\u0085', 42, null, undefined, ['ada']]) {
    assert.ok(isLeft(UserName.decode(bad)), JSON.stringify(bad))
  }
})

test('RoomName :: 1 to 32 of A-Z a-z 0-9 _ -, after trimming', () => {
  for (const good of ['lobby', 'a', 'R2-D2_fans', 'r'.repeat(32)]) assert.is(decoded(RoomName.decode(good)), good)
  assert.is(decoded(RoomName.decode(' lobby ')), 'lobby')
  for (const bad of ['', 'two words', 'caf\u00e9', '../etc', 'a/b', 'r'.repeat(33), '#lobby', 7]) {
    assert.ok(isLeft(RoomName.decode(bad)), JSON.stringify(bad))
  }
})

test('MessageText :: one line of 1 to 500 characters; markup is just text', () => {
  assert.is(decoded(MessageText.decode(' hi ')), 'hi')
  assert.is(decoded(MessageText.decode('<b>x</b> & "y"')), '<b>x</b> & "y"')
  assert.is(decoded(MessageText.decode('t'.repeat(CHAT_LIMITS.text))).length, 500)
  for (const bad of ['', ' ', 't'.repeat(501), 'two\nlines', 'a\rb', {}]) assert.ok(isLeft(MessageText.decode(bad)), JSON.stringify(bad))
})

test('codecs :: `is` accepts only values decode would give back unchanged', () => {
  assert.ok(UserName.is('ada'))
  assert.not.ok(UserName.is(' ada'))
  assert.not.ok(UserName.is(''))
  assert.not.ok(RoomName.is(3))
  assert.is(RoomName.encode('lobby'), 'lobby')
})

test('payloads :: unknown keys are dropped, missing ones refused', () => {
  assert.equal(decoded(HelloPayload.decode({ name: 'ada', admin: true })), { name: 'ada', resume: undefined })
  assert.equal(decoded(HelloPayload.decode({ name: 'ada', resume: ' 6f1c ' })), { name: 'ada', resume: '6f1c' })
  assert.ok(isLeft(HelloPayload.decode({ name: 'ada', resume: 'x'.repeat(65) })))
  assert.ok(isLeft(HelloPayload.decode({ name: 'ada', resume: null })))
  assert.equal(decoded(SayPayload.decode({ room: 'lobby', text: ' hi ', html: '<b>' })), { room: 'lobby', text: 'hi' })
  assert.equal(decoded(PostPayload.decode({ name: 'bot', text: 'x' })), { name: 'bot', text: 'x' })
  assert.ok(isLeft(SayPayload.decode({ room: 'lobby' })))
  assert.ok(isLeft(PostPayload.decode('name=bot&text=x')))
  assert.ok(isRight(HelloPayload.decode({ name: 'x' })))
})

test.run()
