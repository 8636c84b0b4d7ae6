import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { text } from '../../../lib/core/http/response.js'
import { withStatus } from '../../../lib/core/http/response-updates.js'
import { composeHttp } from '../../../lib/core/route/compose-http.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { httpRequest } from '../route/support.js'

test('composeHttp :: a layer can rewrite the request and the response', async () => {
  const run = composeHttp([async (req, next) => withStatus(await next({ ...req, path: `/x${req.path}` }), 201)])
  const res = await run(httpRequest('GET', '/a'), inertHttpContext, (req) => text(req.path))
  assert.equal([res.status, res.body], [201, '/x/a'])
})

test('composeHttp :: a layer can answer early', async () => {
  let reached = false
  const run = composeHttp([() => text('early', 403)])
  const res = await run(httpRequest('GET', '/a'), inertHttpContext, () => {
    reached = true
    return text('late')
  })
  assert.equal([res.status, reached], [403, false])
})

test.run()
