import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { getHeader } from '../../../lib/core/http/request-accessors.js'
import { BodyStreamError } from '../../../lib/core/http/body-stream.js'
import { bodyIncomplete, bodyTooLarge } from '../../../lib/core/http/http-error.js'
import { fileTooLarge, missingBoundary } from '../../../lib/core/http/multipart/multipart-error.js'
import { MultipartReadError } from '../../../lib/core/http/multipart/read-multipart.js'
import { errorResponse, text } from '../../../lib/core/http/response.js'
import { withHeader } from '../../../lib/core/http/response-updates.js'
import type { HttpRequest, Response } from '../../../lib/core/http/types.js'
import type { HttpMiddleware } from '../../../lib/core/route/http-middleware.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { type CorsHooks, dispatchHttp, dispatchHttpNow } from '../../../lib/core/route/dispatch-http.js'
import type { HttpContext } from '../../../lib/core/route/http-context.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { httpRequest } from './support.js'

const compile = (table: RouteTable): CompiledRoutes =>
  E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const header = (res: Response, name: string): string | undefined => res.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1]

const app = compile([
  httpRoute('GET', '/hello', () => ({ hello: 'world' })),
  httpRoute('GET', '/users/{id}', (req) => ({ id: req.params.id, q: req.query })),
  httpRoute('POST', '/users', async () => text('made', 201)),
  httpRoute('DELETE', '/users/{id}', () => undefined),
  httpRoute('GET', '/boom', () => {
    throw new Error('boom')
  }),
  httpRoute('GET', '/reject', () => Promise.reject(new Error('rejected'))),
  httpRoute('POST', '/api/rooms/{room}/messages', (req, ctx) => {
    ctx.broadcast('message', { text: getHeader(req, 'x-text') }, { room: req.params.room })
    return { delivered: ctx.roomMembers(req.params.room).length }
  }),
])

test('dispatchHttp :: a plain value is sent as JSON', async () => {
  const res = await dispatchHttp(app, httpRequest('GET', '/hello'))
  assert.equal([res.status, res.contentType, res.body], [200, 'application/json', { hello: 'world' }])
})

test('dispatchHttp :: the handler gets decoded params and the query', async () => {
  const res = await dispatchHttp(app, httpRequest('GET', '/users/a%20b?x=1'))
  assert.equal(res.body, { id: 'a b', q: { x: '1' } })
})

test('dispatchHttp :: a Response (or a promise of one) is sent as is; nothing is 204', async () => {
  const made = await dispatchHttp(app, httpRequest('POST', '/users'))
  assert.equal([made.status, made.body], [201, 'made'])
  assert.is((await dispatchHttp(app, httpRequest('DELETE', '/users/1'))).status, 204)
})

test('dispatchHttp :: HEAD runs the GET route', async () => {
  const res = await dispatchHttp(app, httpRequest('HEAD', '/hello'))
  assert.equal([res.status, res.body], [200, { hello: 'world' }])
})

test('dispatchHttp :: unknown path 404, wrong method 405 with Allow, bad encoding 400', async () => {
  const missing = await dispatchHttp(app, httpRequest('GET', '/nope'))
  assert.equal([missing.status, missing.body], [404, { error: 'not_found' }])
  const wrong = await dispatchHttp(app, httpRequest('PUT', '/users/1'))
  assert.equal([wrong.status, wrong.body, header(wrong, 'allow')], [405, { error: 'method_not_allowed' }, 'GET, DELETE, HEAD'])
  const bad = await dispatchHttp(app, httpRequest('GET', '/users/%E0%A4%A'))
  assert.equal([bad.status, bad.body], [400, { error: 'invalid_path_encoding' }])
})

test('dispatchHttp :: a throw or a rejection is a 500 and is reported with the request', async () => {
  const reports: [unknown, HttpRequest][] = []
  const onError = (e: unknown, r: HttpRequest) => void reports.push([e, r])
  for (const path of ['/boom', '/reject']) {
    const res = await dispatchHttp(app, httpRequest('GET', path), { onError })
    assert.equal([res.status, res.body], [500, { error: 'internal_error' }])
  }
  assert.equal(reports.map(([e, r]) => [(e as Error).message, r.path]), [['boom', '/boom'], ['rejected', '/reject']])
  assert.ok((reports[0]?.[0] as Error).stack?.includes('boom'))
})

test('dispatchHttp :: a throwing error hook still gives the 500', async () => {
  const res = await dispatchHttp(app, httpRequest('GET', '/boom'), { onError: () => { throw new Error('hook') } })
  assert.is(res.status, 500)
})

test('dispatchHttp :: handlers reach WebSocket clients through the context', async () => {
  const calls: unknown[] = []
  const context: HttpContext = { ...inertHttpContext, broadcast: (...a) => void calls.push(a), roomMembers: () => [1, 2] }
  const res = await dispatchHttp(app, httpRequest('POST', '/api/rooms/lobby/messages', [['X-Text', 'hi']]), { context })
  assert.equal(res.body, { delivered: 2 })
  assert.equal(calls, [['message', { text: 'hi' }, { room: 'lobby' }]])
  const inert = await dispatchHttp(app, httpRequest('POST', '/api/rooms/lobby/messages'))
  assert.equal(inert.body, { delivered: 0 })
})

const trace = (name: string, log: string[]): HttpMiddleware => async (req, next) => {
  log.push(`${name} in ${req.path}`)
  const res = await next()
  log.push(`${name} out ${res.status}`)
  return res
}

test('dispatchHttp :: middleware wraps routes and unmatched paths in onion order', async () => {
  const log: string[] = []
  const middleware = [trace('a', log), trace('b', log)]
  await dispatchHttp(app, httpRequest('GET', '/hello'), { middleware })
  await dispatchHttp(app, httpRequest('GET', '/missing'), { middleware })
  await dispatchHttp(app, httpRequest('PATCH', '/hello'), { middleware })
  assert.equal(log, [
    'a in /hello', 'b in /hello', 'b out 200', 'a out 200',
    'a in /missing', 'b in /missing', 'b out 404', 'a out 404',
    'a in /hello', 'b in /hello', 'b out 405', 'a out 405',
  ])
})

test('dispatchHttp :: middleware can rewrite the request, the response, or answer early', async () => {
  const rewrite: HttpMiddleware = (req, next) => next({ ...req, path: req.path.replace(/^\/v1/, '') })
  const stamp: HttpMiddleware = async (_req, next, ctx) => withHeader(await next(), 'X-Clients', String(ctx.clients().length))
  const res = await dispatchHttp(app, httpRequest('GET', '/v1/hello'), { middleware: [stamp, rewrite] })
  assert.equal([res.status, header(res, 'x-clients')], [200, '0'])
  const auth: HttpMiddleware = (req, next) => (req.headers.some(([n]) => n.toLowerCase() === 'authorization') ? next() : errorResponse(401, 'Unauthorized'))
  const denied = await dispatchHttp(app, httpRequest('GET', '/hello'), { middleware: [auth] })
  assert.equal([denied.status, denied.body], [401, { error: 'Unauthorized' }])
  const allowed = await dispatchHttp(app, httpRequest('GET', '/hello', [['Authorization', 'x']]), { middleware: [auth] })
  assert.is(allowed.status, 200)
})

test('dispatchHttp :: a second next() or a throwing middleware is a reported 500', async () => {
  const reports: unknown[] = []
  let calls = 0
  const counted = compile([httpRoute('GET', '/c', () => ++calls)])
  const twice: HttpMiddleware = async (_req, next) => {
    await next()
    return next()
  }
  const res = await dispatchHttp(counted, httpRequest('GET', '/c'), { middleware: [twice], onError: (e) => void reports.push(e) })
  assert.equal([res.status, calls], [500, 1])
  assert.equal(reports, [{ _tag: 'NextCalledTwice', position: 0, message: 'middleware #0 called next() more than once' }])
  const throwing: HttpMiddleware = () => {
    throw new Error('mw')
  }
  assert.is((await dispatchHttp(counted, httpRequest('GET', '/c'), { middleware: [throwing] })).status, 500)
})

const cors: CorsHooks = {
  preflight: (req) =>
    req.method === 'OPTIONS' && req.headers.some(([n]) => n.toLowerCase() === 'access-control-request-method')
      ? withHeader(text('', 204), 'Access-Control-Allow-Methods', 'GET')
      : undefined,
  apply: (_req, res) => withHeader(res, 'Access-Control-Allow-Origin', '*'),
}

test('dispatchHttp :: CORS preflights are answered inside the middleware; apply runs on every response', async () => {
  const log: string[] = []
  const pre = await dispatchHttp(app, httpRequest('OPTIONS', '/hello', [['Access-Control-Request-Method', 'GET']]), { cors, middleware: [trace('m', log)] })
  assert.equal([pre.status, header(pre, 'access-control-allow-methods'), header(pre, 'access-control-allow-origin')], [204, 'GET', '*'])
  assert.equal(log, ['m in /hello', 'm out 204'])
  for (const [method, path, status] of [['GET', '/hello', 200], ['GET', '/x', 404], ['OPTIONS', '/hello', 405], ['GET', '/boom', 500]] as const) {
    const res = await dispatchHttp(app, httpRequest(method, path), { cors })
    assert.equal([res.status, header(res, 'access-control-allow-origin')], [status, '*'])
  }
})

test('dispatchHttp :: a throwing CORS step is a reported 500', async () => {
  const reports: unknown[] = []
  const broken: CorsHooks = { preflight: () => undefined, apply: () => { throw new Error('cors') } }
  const res = await dispatchHttp(app, httpRequest('GET', '/hello'), { cors: broken, onError: (e) => void reports.push(e) })
  assert.equal([res.status, (reports[0] as Error).message], [500, 'cors'])
})

test('dispatchHttpNow :: a synchronous handler is answered synchronously, CORS applied', () => {
  const cors: CorsHooks = { preflight: () => undefined, apply: (_req, res) => ({ ...res, headers: [...res.headers, ['X-Cors', 'yes']] }) }
  const res = dispatchHttpNow(app, httpRequest('GET', '/hello'), { cors })
  assert.not.ok(res instanceof Promise)
  if (res instanceof Promise) return
  assert.equal([res.status, res.body, res.headers.at(-1)], [200, { hello: 'world' }, ['X-Cors', 'yes']])
  const missing = dispatchHttpNow(app, httpRequest('GET', '/nope'))
  assert.equal(missing instanceof Promise ? 0 : missing.status, 404)
})

test('dispatchHttpNow :: an async handler or any middleware gives a promise that never rejects', async () => {
  const rejected = dispatchHttpNow(app, httpRequest('GET', '/reject'), { onError: () => undefined })
  assert.ok(rejected instanceof Promise)
  assert.is((await rejected).status, 500)
  const through = dispatchHttpNow(app, httpRequest('GET', '/hello'), { middleware: [(_req, next) => next()] })
  assert.ok(through instanceof Promise)
  assert.is((await through).status, 200)
})

test('dispatchHttp :: a BodyStreamError or MultipartReadError out of a handler is answered with its status, not reported', async () => {
  const errors: unknown[] = []
  const faulty = compile([
    httpRoute('POST', '/too-large', async () => {
      throw new BodyStreamError(bodyTooLarge(10))
    }),
    httpRoute('POST', '/cut', () => {
      throw new BodyStreamError(bodyIncomplete(3))
    }),
    httpRoute('POST', '/form', async () => {
      throw new MultipartReadError(fileTooLarge('photo', 5))
    }),
    httpRoute('POST', '/form-now', () => {
      throw new MultipartReadError(missingBoundary())
    }),
  ])
  const options = { onError: (e: unknown) => void errors.push(e) }
  const tooLarge = await dispatchHttp(faulty, httpRequest('POST', '/too-large'), options)
  assert.equal([tooLarge.status, tooLarge.body], [413, { error: 'body_too_large' }])
  const cut = await dispatchHttp(faulty, httpRequest('POST', '/cut'), options)
  assert.equal([cut.status, cut.body], [400, { error: 'body_incomplete' }])
  const form = await dispatchHttp(faulty, httpRequest('POST', '/form'), options)
  assert.is(form.status, 413)
  assert.equal((form.body as { error: string }).error, 'file_too_large')
  assert.match((form.body as { message: string }).message, /photo/)
  const now = await dispatchHttp(faulty, httpRequest('POST', '/form-now'), options)
  assert.equal([now.status, (now.body as { error: string }).error], [400, 'missing_boundary'])
  assert.equal(errors, [], "the client's fault: not reported as a handler error")
})

test("dispatchHttp :: the handler's request reads its signal and streamed body from the owner", async () => {
  const controller = new AbortController()
  const seen: unknown[] = []
  const owner = { signalOf: (n: number) => (seen.push(n), controller.signal), bodyOf: (n: number) => (n === 9 ? ({ length: 4 } as never) : undefined) }
  const table = compile([httpRoute('POST', '/s', { body: 'stream' }, (req) => ({ aborted: req.signal.aborted, length: req.body.length }))])
  controller.abort()
  const res = await dispatchHttpNow(table, httpRequest('POST', '/s'), {}, owner, 9)
  assert.equal(res instanceof Promise ? (await res).body : res.body, { aborted: true, length: 4 })
  assert.equal(seen, [9])
})

test.run()
