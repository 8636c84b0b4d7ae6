import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { shouldReconnect } from '../../lib/client/should-reconnect.js'

const test = suite('shouldReconnect')

test('shouldReconnect :: retries normal, going-away, abnormal and server-error closes', () => {
  assert.equal([1000, 1001, 1002, 1005, 1006, 1007, 1009, 1011, 1012, 1013, 3000, 3999].map(shouldReconnect), Array(12).fill(true))
})

test('shouldReconnect :: never after 1003, 1008 or an application code 4000-4999', () => {
  assert.equal([1003, 1008, 4000, 4001, 4401, 4999].map(shouldReconnect), Array(6).fill(false))
})

test('shouldReconnect :: 5000 and up are not application codes', () => {
  assert.is(shouldReconnect(5000), true)
})

test.run()
