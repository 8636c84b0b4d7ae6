/**
 * `readJsonBody` as a property: a request whose media type is not JSON never reaches the
 * body, whatever the bytes.
 */
import { test } from 'uvu'
import fc from 'fast-check'
import { makeRequest } from '../../../lib/core/http/request.js'
import { readJsonBody } from '../../../lib/core/http/request-accessors.js'

const post = (contentType: string, body: Uint8Array): ReturnType<typeof makeRequest> =>
  makeRequest(
    {
      method: 'POST',
      target: '/',
      path: '/',
      rawQuery: '',
      protocol: 'HTTP/1.1',
      headers: [['Content-Type', contentType]],
      trailers: [],
      body,
      keepAlive: true,
      expectContinue: false,
    },
    {},
  )

test('readJsonBody :: any media type without a JSON suffix is 415, whatever the body', () => {
  const token = fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}$/)
  fc.assert(
    fc.property(token, token, fc.uint8Array({ maxLength: 32 }), (top, sub, body) => {
      fc.pre(`${top}/${sub}` !== 'application/json' && !sub.endsWith('+json'))
      const read = readJsonBody(post(`${top}/${sub}`, body))
      return read._tag === 'Left' && read.left.status === 415 && read.left._tag === 'UnsupportedMediaType' && read.left.contentType === `${top}/${sub}`
    }),
  )
})

test.run()
