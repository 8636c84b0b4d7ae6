/**
 * `httpRoute` typing: the params of a handler come from the path string. The
 * `@ts-expect-error` lines make the type check (run by `npm test`) fail the day a wrong
 * param name compiles.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeRequest } from '../../../lib/core/http/request.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import type { PathParams } from '../../../lib/core/route/path-params.js'
import { httpRequest } from './support.js'

test('httpRoute :: upper-cases the method and keeps the path', () => {
  const route = httpRoute('post', '/users/{id}', () => null)
  assert.equal([route._tag, route.method, route.path], ['HttpRoute', 'POST', '/users/{id}'])
})

test('httpRoute :: the handler sees params typed by the path', () => {
  const route = httpRoute('GET', '/users/{id}/posts/{postId}', (req) => {
    const id: string = req.params.id
    const postId: string = req.params.postId
    // @ts-expect-error wrong param name
    const nope: string = req.params.nope
    return [id, postId, nope]
  })
  const req = makeRequest(httpRequest('GET', '/users/1/posts/2'), { id: '1', postId: '2' })
  assert.equal(route.handler(req, inertHttpContext), ['1', '2', undefined])
})

test('httpRoute :: a path without params gives no params', () => {
  httpRoute('GET', '/health', (req) => {
    // @ts-expect-error no params on a static path
    return req.params.id
  })
  const anyPath: string = '/x/{y}'
  httpRoute('GET', anyPath, (req) => {
    const open: string | undefined = req.params.whatever
    return open
  })
  const params: PathParams<'/a/{b}/c/{d}'> = { b: '1', d: '2' }
  // @ts-expect-error missing param d
  const missing: PathParams<'/a/{b}/c/{d}'> = { b: '1' }
  assert.equal([params, missing], [{ b: '1', d: '2' }, { b: '1' }])
})

test('httpRoute :: options between the path and the handler: body stream and maxBody kept on the route', async () => {
  const streamed = httpRoute('PUT', '/files/{name}', { body: 'stream', maxBody: 2048 }, async (req) => {
    const size: number | undefined = req.body.length
    return { name: req.params.name, size }
  })
  assert.equal([streamed.body, streamed.maxBody, streamed.method], ['stream', 2048, 'PUT'])
  const limited = httpRoute('POST', '/small', { maxBody: 10 }, (req) => req.rawBody.length)
  assert.equal([limited.body, limited.maxBody], [undefined, 10])
  const buffered = httpRoute('POST', '/b', { body: 'buffer' }, () => 1)
  assert.not.ok('body' in buffered, 'buffer is the default: not written on the route')
  assert.not.ok('maxBody' in buffered)
  const plain = httpRoute('GET', '/p', () => 1)
  assert.not.ok('body' in plain || 'maxBody' in plain)
  // The handler of a streamed route is called with the request as it is.
  const owner = { signalOf: () => new AbortController().signal, bodyOf: () => ({ length: 5 }) as never }
  const req = makeRequest(httpRequest('PUT', '/files/a'), { name: 'a' }, owner, 1, true)
  assert.equal(await streamed.handler(req, inertHttpContext), { name: 'a', size: 5 })
})

test('httpRoute :: a stream handler needs { body: "stream" }', () => {
  // @ts-expect-error req.body is a BodyStream only on a streamed route
  httpRoute('POST', '/x', { maxBody: 1 }, (req) => req.body.length)
  httpRoute('POST', '/y', { body: 'stream' }, (req) => req.body.length)
})

test.run()
