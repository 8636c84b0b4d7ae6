/**
 * `toFetch` reads a request's headers only as far as a step asks: one header by name is one
 * `get` on the host's `Headers` (the WebSocket-upgrade check of a request no route answers, `getHeader`, `req.headerMap.get`,
 * the CORS origin), and the whole set is built only when a handler takes it (`req.headers`,
 * `getHeaders`, iterating `req.headerMap`). Read lazily or whole, a header has the same value
 * (repeated lines joined with `, `) and the same case rules; middleware that copies the request
 * with a spread still hands on its headers, and a changed list is answered from the change.
 * Portable: runs in Node, Bun and Deno (spec/fetch is one of the portable folders).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { getHeader, getHeaders, hasHeader, httpRoute, type HttpMiddleware, json, type Request as RouteRequest, silentLogger } from '../../lib/core/index.js'
import { headerValue } from '../../lib/core/http/header-value.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'

const URL = 'http://app.test'

// What was asked of a request's `Headers`: `get`s by name, and walks over all of them.
interface Reads {
  gets: string[]
  walks: number
}

// `request` whose `headers` count what is asked of them.
const watched = (request: Request, reads: Reads): Request => {
  const real = request.headers
  const spy = {
    get: (name: string): string | null => (reads.gets.push(name), real.get(name)),
    has: (name: string): boolean => (reads.gets.push(name), real.has(name)),
    forEach: (each: (value: string, name: string, parent: Headers) => void): void => (reads.walks++, real.forEach(each)),
    entries: () => (reads.walks++, real.entries()),
    [Symbol.iterator]: () => (reads.walks++, real[Symbol.iterator]()),
  }
  Object.defineProperty(request, 'headers', { value: spy })
  return request
}

const headersInit = (): Headers => {
  const headers = new Headers({ host: 'app.test', accept: 'text/html', 'x-token': 'secret' })
  headers.append('x-multi', 'a')
  headers.append('x-multi', 'b')
  return headers
}

test('toFetch headers :: a routed request whose route reads no header reads none (no upgrade check), no walk', async () => {
  const app = toFetch({ logger: silentLogger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  const reads: Reads = { gets: [], walks: 0 }
  const res = await app(watched(new Request(`${URL}/hello`, { headers: headersInit() }), reads))
  assert.is(res.status, 200)
  assert.is(res.headers.get('access-control-allow-origin'), '*')
  assert.equal(reads, { gets: [], walks: 0 })
})

test('toFetch headers :: a request no route answers costs one get (the upgrade check) before its 404', async () => {
  const app = toFetch({ logger: silentLogger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  const reads: Reads = { gets: [], walks: 0 }
  const res = await app(watched(new Request(`${URL}/nope`, { headers: headersInit() }), reads))
  assert.is(res.status, 404)
  assert.equal(reads, { gets: ['upgrade'], walks: 0 })
})

test('toFetch headers :: a header read by name is one get, with the value and case rules of the whole list', async () => {
  let seen: unknown
  const app = toFetch({
    logger: silentLogger,
    routes: [
      httpRoute('GET', '/read', (req: RouteRequest) => {
        seen = {
          getHeader: getHeader(req, 'X-Token'),
          multi: getHeader(req, 'x-multi'),
          has: hasHeader(req, 'ACCEPT'),
          absent: getHeader(req, 'x-absent'),
          mapLower: req.headerMap.get('x-token'),
          // The built map's keys are lower case: another spelling is not one of them.
          mapUpper: req.headerMap.get('X-Token'),
          badName: getHeader(req, 'not a name'),
        }
        return json({ ok: true })
      }),
    ],
  })
  const reads: Reads = { gets: [], walks: 0 }
  await app(watched(new Request(`${URL}/read`, { headers: headersInit() }), reads))
  assert.equal(seen, { getHeader: 'secret', multi: 'a, b', has: true, absent: undefined, mapLower: 'secret', mapUpper: undefined, badName: undefined })
  assert.is(reads.walks, 0)
  assert.equal(reads.gets, ['x-token', 'x-multi', 'accept', 'x-absent', 'x-token', 'not a name'])
})

test('toFetch headers :: the whole set is there when a handler takes it, and agrees with the reads by name', async () => {
  let whole: unknown
  let byName: unknown
  let fromList: unknown
  const names = ['host', 'accept', 'x-token', 'x-multi', 'x-absent']
  const app = toFetch({
    logger: silentLogger,
    routes: [
      httpRoute('GET', '/all', (req: RouteRequest) => {
        byName = names.map((name) => getHeader(req, name))
        whole = { list: req.headers, record: getHeaders(req), size: req.headerMap.size }
        fromList = names.map((name) => headerValue(req.headers, name))
        return json({ ok: true })
      }),
    ],
  })
  const reads: Reads = { gets: [], walks: 0 }
  await app(watched(new Request(`${URL}/all`, { headers: headersInit() }), reads))
  assert.equal(whole, {
    list: [['accept', 'text/html'], ['host', 'app.test'], ['x-multi', 'a, b'], ['x-token', 'secret']],
    record: { accept: 'text/html', host: 'app.test', 'x-multi': 'a, b', 'x-token': 'secret' },
    size: 4,
  })
  assert.equal(byName, fromList)
  // Built once, kept: the list, then the map from it.
  assert.is(reads.walks, 1)
})

test('toFetch headers :: a request made without Host has the URL\'s, by name and in the list', async () => {
  let seen: unknown
  const app = toFetch({
    logger: silentLogger,
    routes: [httpRoute('GET', '/host', (req: RouteRequest) => ((seen = [getHeader(req, 'host'), req.headers[0]]), json({ ok: true })))],
  })
  await app(new Request(`${URL}/host`))
  assert.equal(seen, ['app.test', ['host', 'app.test']])
})

test('toFetch headers :: middleware that copies the request with a spread hands on its headers; a changed list is read from the change', async () => {
  const seen: unknown[] = []
  const rewrite: HttpMiddleware = (req, next) => next({ ...req, path: req.path === '/old' ? '/read' : req.path })
  const add: HttpMiddleware = (req, next) => next({ ...req, headers: [...req.headers.filter(([name]) => name !== 'x-token'), ['x-added', '1']] })
  const routes = [httpRoute('GET', '/read', (req: RouteRequest) => (seen.push([getHeader(req, 'x-token'), getHeader(req, 'x-added'), req.headerMap.get('accept')]), json({ ok: true })))]
  const renamed = toFetch({ logger: silentLogger, httpMiddleware: [rewrite], routes })
  const added = toFetch({ logger: silentLogger, httpMiddleware: [add], routes })
  assert.is((await renamed(new Request(`${URL}/old`, { headers: headersInit() }))).status, 200)
  assert.is((await added(new Request(`${URL}/read`, { headers: headersInit() }))).status, 200)
  assert.equal(seen, [
    ['secret', undefined, 'text/html'],
    [undefined, '1', 'text/html'],
  ])
})

test('toFetch headers :: a body read whole still comes with its headers (content type, a header by name)', async () => {
  let seen: unknown
  const app = toFetch({
    logger: silentLogger,
    routes: [httpRoute('POST', '/echo', (req: RouteRequest) => ((seen = [req.body, getHeader(req, 'x-token')]), json({ ok: true })))],
  })
  const res = await app(new Request(`${URL}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': 'secret' }, body: '{"a":1}' }))
  assert.is(res.status, 200)
  assert.equal(seen, [{ _tag: 'Right', right: { a: 1 } }, 'secret'])
})

test('toFetch headers :: the CORS origin is read by name: the allowed origin is echoed, no walk', async () => {
  const app = toFetch({ logger: silentLogger, cors: { allowedOrigins: ['https://a.test'] }, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  const reads: Reads = { gets: [], walks: 0 }
  const res = await app(watched(new Request(`${URL}/hello`, { headers: { origin: 'https://a.test' } }), reads))
  assert.is(res.headers.get('access-control-allow-origin'), 'https://a.test')
  assert.is(reads.walks, 0)
})

test.run()
