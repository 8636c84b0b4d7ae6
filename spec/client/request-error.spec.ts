import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { describeFailure, RequestError } from '../../lib/client/request-error.js'

const test = suite('RequestError')

test('describeFailure :: says the event, the tag and the facts', () => {
  assert.is(describeFailure('join', { _tag: 'Timeout', ms: 500 }), 'join: Timeout 500 ms')
  assert.is(
    describeFailure('join', { _tag: 'ServerError', code: 'invalid_payload', message: 'invalid data for "join": room: expected string' }),
    'join: ServerError invalid_payload: invalid data for "join": room: expected string',
  )
  assert.is(describeFailure('join', { _tag: 'Closed', code: 1008, reason: 'policy' }), 'join: Closed 1008 policy')
  assert.is(describeFailure('join', { _tag: 'Aborted', reason: 'why' }), 'join: Aborted')
  assert.is(describeFailure('join', { _tag: 'QueueFull', limit: 3 }), 'join: QueueFull')
  assert.is(describeFailure('join', { _tag: 'Offline' }), 'join: Offline')
  assert.is(describeFailure('join', { _tag: 'Cleared' }), 'join: Cleared')
  assert.is(describeFailure('join', { _tag: 'Unserializable', error: new TypeError('x') }), 'join: Unserializable')
})

test('RequestError :: an Error carrying the event, the id and the failure', () => {
  const err = new RequestError('join', 3, { _tag: 'Timeout', ms: 10 })
  assert.instance(err, Error)
  assert.equal([err.name, err.message, err.event, err.id, err.failure], ['RequestError', 'join: Timeout 10 ms', 'join', 3, { _tag: 'Timeout', ms: 10 }])
})

test.run()
