import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { appClose, describeAppCloseError, MAX_CLOSE_REASON, refusalClose, wantsRefusalClose } from '../../../lib/core/ws/app-close.js'

test('appClose :: 4000–4999 with a reason of at most 123 bytes of UTF-8', () => {
  assert.equal(appClose(4403, 'banned'), E.right({ code: 4403, reason: 'banned' }))
  assert.equal(appClose(4000), E.right({ code: 4000, reason: '' }))
  assert.equal(appClose(4999, 'x'.repeat(MAX_CLOSE_REASON)), E.right({ code: 4999, reason: 'x'.repeat(123) }))
})

test('appClose :: refuses other codes and longer reasons, with the facts', () => {
  for (const code of [1000, 3999, 5000, 4000.5, Number.NaN]) assert.equal(appClose(code), E.left({ _tag: 'CloseCodeOutOfRange', code }))
  assert.equal(appClose(4000, '€'.repeat(41)), E.right({ code: 4000, reason: '€'.repeat(41) }))
  assert.equal(appClose(4000, '€'.repeat(42)), E.left({ _tag: 'CloseReasonTooLong', bytes: 126, limit: 123 }))
  assert.is(describeAppCloseError({ _tag: 'CloseCodeOutOfRange', code: 1000 }), 'close code 1000 is not 4000-4999')
  assert.is(describeAppCloseError({ _tag: 'CloseReasonTooLong', bytes: 126, limit: 123 }), 'close reason is 126 bytes of UTF-8, more than 123')
})

test('refusalClose :: a 4xx status is 4000 + status; anything else stays HTTP', () => {
  assert.equal(refusalClose(401, 'bad token'), { code: 4401, reason: 'bad token' })
  assert.equal(refusalClose(403, ''), { code: 4403, reason: '' })
  assert.is(refusalClose(503, 'draining'), undefined)
  assert.is(refusalClose(302, ''), undefined)
})

test('wantsRefusalClose :: tp_c=1 or tp_v=1 as a whole parameter', () => {
  assert.ok(wantsRefusalClose('tp_c=1'))
  assert.ok(wantsRefusalClose('token=x&tp_c=1'))
  assert.ok(wantsRefusalClose('tp_v=1&tp_b=64'))
  assert.not.ok(wantsRefusalClose('tp_c=10'))
  assert.not.ok(wantsRefusalClose('xtp_c=1'))
  assert.not.ok(wantsRefusalClose(''))
})

test.run()
