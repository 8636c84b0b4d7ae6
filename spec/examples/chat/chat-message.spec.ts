/** messageFactory: numbering and time stamps. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { messageFactory } from '../../../examples/chat/chat-message.js'

test('messageFactory :: numbers from 1 and stamps with the clock, in ISO 8601 UTC', () => {
  let t = 0
  const make = messageFactory(() => new Date((t += 1000)))
  const first = make({ room: 'lobby', name: 'ada', text: 'hi', via: 'ws' })
  const second = make({ room: 'lobby', name: 'bot', text: 'yo', via: 'http' })
  assert.equal(first, { id: 1, room: 'lobby', name: 'ada', text: 'hi', at: '1970-01-01T00:00:01.000Z', via: 'ws' })
  assert.equal(second, { id: 2, room: 'lobby', name: 'bot', text: 'yo', at: '1970-01-01T00:00:02.000Z', via: 'http' })
})

test('messageFactory :: each factory counts on its own; the default clock is the real one', () => {
  const make = messageFactory()
  const message = make({ room: 'r', name: 'n', text: 't', via: 'ws' })
  assert.is(message.id, 1)
  assert.ok(!Number.isNaN(Date.parse(message.at)))
})

test.run()
