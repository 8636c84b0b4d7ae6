/**
 * HTTP/1.1 end to end: routes, 404/405, HEAD, errors, pipelining, keep-alive, half-close,
 * 100-continue, malformed requests and their statuses, time-outs, CORS, middleware, the
 * connection limit and start-up refusals. The server is an app of
 * spec/integration/fixtures/http.ts, served by the runtime TWINPORT_TARGET names; the clients are
 * Node's `fetch` and raw sockets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'
import { delay, rawConnect, rawExchange, statusOf } from '../support/server.js'

const Http = suite('runServer :: HTTP')

Http('answers a route with JSON, params and query URL-decoded', async () => {
  const { server, url } = await serve('http', 'table')
  try {
    const hello = await fetch(`${url}/hello`)
    assert.is(hello.status, 200)
    assert.is(hello.headers.get('content-type'), 'application/json')
    assert.equal(await hello.json(), { hello: 'world' })
    const user = await fetch(`${url}/users/a%20b?x=1&x=2&y=%C3%A9`)
    assert.equal(await user.json(), { id: 'a b', q: { x: ['1', '2'], y: 'é' } })
    const posted = await fetch(`${url}/users`, { method: 'POST', body: 'hi there' })
    assert.equal(await posted.json(), { got: 'hi there' })
  } finally {
    await server.close()
  }
})

Http('404 for an unknown path, 405 with Allow for a wrong method, HEAD without a body', async () => {
  const { server, url, port } = await serve('http', 'table')
  try {
    const missing = await fetch(`${url}/nope`)
    assert.is(missing.status, 404)
    assert.equal(await missing.json(), { error: 'not_found' })
    const wrong = await fetch(`${url}/hello`, { method: 'DELETE' })
    assert.is(wrong.status, 405)
    assert.is(wrong.headers.get('allow'), 'GET, HEAD')
    const head = await rawExchange(port, 'HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(head), 200)
    assert.match(head, /Content-Length: 17\r\n/)
    assert.ok(head.endsWith('\r\n\r\n'), 'no body after the head')
  } finally {
    await server.close()
  }
})

Http('a throwing handler gives 500, is logged with its stack, and the server keeps serving', async () => {
  const { server, url } = await serve('http', 'table')
  try {
    const res = await fetch(`${url}/boom`)
    assert.is(res.status, 500)
    assert.equal(await res.json(), { error: 'internal_error' })
    const logged = (await server.records()).find((r) => r.level === 'error')
    assert.ok(logged !== undefined)
    assert.match(String(logged?.context.exception), /kaput/)
    assert.is((await fetch(`${url}/hello`)).status, 200)
  } finally {
    await server.close()
  }
})

Http('pipelined requests are answered in order on one connection', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const conn = await rawConnect(port)
    conn.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /users/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const text = (await conn.closed()).toString()
    const bodies = text.split('HTTP/1.1 ').slice(1).map((r) => r.slice(r.indexOf('\r\n\r\n') + 4))
    assert.equal(bodies, ['{"slow":true}', '{"hello":"world"}', '{"id":"7","q":{}}'])
    assert.match(text.split('HTTP/1.1 ')[3] ?? '', /Connection: close/)
  } finally {
    await server.close()
  }
})

Http('pipelined synchronous answers around a slow one still leave in request order', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const conn = await rawConnect(port)
    conn.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /users/8 HTTP/1.1\r\nHost: x\r\n\r\n')
    await conn.until((d) => d.toString().includes('{"id":"8"'))
    conn.write('GET /users/9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const text = (await conn.closed()).toString()
    const bodies = text.split('HTTP/1.1 ').slice(1).map((r) => r.slice(r.indexOf('\r\n\r\n') + 4))
    assert.equal(bodies, ['{"hello":"world"}', '{"slow":true}', '{"id":"8","q":{}}', '{"id":"9","q":{}}'])
  } finally {
    await server.close()
  }
})

Http('keep-alive serves many requests on one connection; HTTP/1.0 closes by default', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const conn = await rawConnect(port)
    for (let i = 1; i <= 3; i++) {
      conn.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
      await conn.until((d) => d.toString().split('{"hello":"world"}').length - 1 === i)
    }
    assert.not.ok(conn.socket.destroyed)
    conn.socket.destroy()
    const old = await rawExchange(port, 'GET /hello HTTP/1.0\r\n\r\n')
    assert.is(statusOf(old), 200)
  } finally {
    await server.close()
  }
})

Http('a client that half-closes after its requests still gets every answer', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const conn = await rawConnect(port)
    conn.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
    conn.socket.end()
    const text = (await conn.closed()).toString()
    assert.match(text, /\{"slow":true\}HTTP\/1\.1 200 OK[\s\S]*\{"hello":"world"\}$/)
  } finally {
    await server.close()
  }
})

Http('Expect: 100-continue gets an interim 100 before the body is sent', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const conn = await rawConnect(port)
    conn.write('POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n')
    await conn.until((d) => d.toString().startsWith('HTTP/1.1 100 Continue\r\n\r\n'))
    conn.write('hello')
    const text = (await conn.closed()).toString()
    assert.match(text, /HTTP\/1\.1 200 OK[\s\S]*\{"got":"hello"\}$/)
  } finally {
    await server.close()
  }
})

const rejections: ReadonlyArray<readonly [string, string, number]> = [
  ['malformed request line', 'GET\r\n\r\n', 400],
  ['both Content-Length and Transfer-Encoding', 'POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
  ['conflicting Content-Length', 'POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 400],
  ['invalid chunk size', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400],
  ['whitespace before a colon', 'GET /hello HTTP/1.1\r\nHost : x\r\n\r\n', 400],
  ['obs-fold', 'GET /hello HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  2\r\n\r\n', 400],
  ['unknown transfer coding before a final chunked', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 501],
  ['chunked not the final coding', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n', 400],
  ['a coding without chunked', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n', 400],
  ['HTTP/1.1 without Host', 'GET /hello HTTP/1.1\r\n\r\n', 400],
  ['HTTP/1.1 without Host, a body declared but not sent', 'POST /users HTTP/1.1\r\nContent-Length: 10\r\n\r\n', 400],
  ['two Host lines', 'GET /hello HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n', 400],
  ['an invalid Host', 'GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
  ['three empty lines before the request line', '\r\n\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['a chunk extension with no name', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;\r\nhi\r\n0\r\n\r\n', 400],
  ['whitespace after a chunk size', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nhi\r\n0\r\n\r\n', 400],
  ['an unterminated quoted chunk extension', 'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;a="x\r\nhi\r\n0\r\n\r\n', 400],
  ['a method that is not a token', 'G(T /hello HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['unsupported version', 'GET /hello HTTP/2.0\r\nHost: x\r\n\r\n', 505],
  ['target too long', `GET /${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
  ['headers too large', `GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(1200)}\r\n\r\n`, 431],
  ['body too large', 'POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n', 413],
]

Http('malformed requests get their status with a JSON error body, then the connection closes', async () => {
  const { server, port } = await serve('http', 'table', { limits: { maxRequestLine: 256, maxHeaderBytes: 1024, maxBody: 1000 } })
  try {
    for (const [what, request, status] of rejections) {
      const text = await rawExchange(port, request)
      assert.is(statusOf(text), status, what)
      assert.match(text, /Connection: close\r\n/, what)
      assert.match(text, /\{"error":"[a-z_]+"(,"message":"[^"]+")?\}$/, what)
      if (status === 413) assert.match(text, '"message":"the body is larger than the 1000 bytes this route takes"', what)
    }
    assert.is((await fetch(`http://127.0.0.1:${port}/hello`)).status, 200)
  } finally {
    await server.close()
  }
})

// Each is a request the parser refuses, with what the client is told.
const refusedInPipeline: ReadonlyArray<readonly [string, string, number, string]> = [
  ['no Host', 'POST /count HTTP/1.1\r\nContent-Length: 0\r\n\r\n', 400, 'missing_host'],
  ['two Host lines', 'POST /count HTTP/1.1\r\nHost: x\r\nHost: y\r\nContent-Length: 0\r\n\r\n', 400, 'duplicate_host'],
  ['a bad chunk extension', 'POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1 x\r\na\r\n0\r\n\r\n', 400, 'invalid_chunk'],
  ['chunked not last', 'POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n', 400, 'invalid_transfer_encoding'],
  ['an unknown coding', 'POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br, chunked\r\n\r\n0\r\n\r\n', 501, 'unsupported_transfer_coding'],
  ['too many empty lines', '\r\n\r\n\r\nPOST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', 400, 'too_many_empty_lines'],
]

Http('a refused request closes the connection; nothing pipelined behind it runs', async () => {
  const { server, port } = await serve('http', 'counted')
  try {
    const good = 'POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'
    for (const [what, bad, status, reason] of refusedInPipeline) {
      const before = await server.probe('count')
      const text = await rawExchange(port, good + bad + good + good)
      const answers = text.split(/(?=HTTP\/1\.1 )/)
      assert.is(answers.length, 2, what)
      assert.is(statusOf(answers[0] ?? ''), 200, what)
      assert.is(statusOf(answers[1] ?? ''), status, what)
      assert.match(answers[1] ?? '', /Connection: close\r\n/, what)
      assert.ok((answers[1] ?? '').endsWith(`{"error":"${reason}"}`), what)
      assert.is(await server.probe('count'), before + 1, `${what}: only the request before it ran`)
    }
  } finally {
    await server.close()
  }
})

// RFC 9112 §2.2: a server "SHOULD ignore at least one empty line (CRLF) received prior to the request-line".
Http('empty lines before the first request and between pipelined requests are ignored', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const first = await rawExchange(port, '\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(first), 200)
    assert.ok(first.endsWith('{"hello":"world"}'))
    const two = await rawExchange(port, '\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(two), 200)
    const conn = await rawConnect(port)
    // A CRLF after a body (some clients send one), then two between requests, then one alone in its own write.
    conn.write('POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n\r\n\r\nGET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n')
    await conn.until((d) => d.toString().includes('{"id":"1"'))
    conn.write('\r\n')
    await delay(20)
    conn.write('GET /users/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const text = (await conn.closed()).toString()
    const bodies = text.split('HTTP/1.1 ').slice(1).map((r) => r.slice(r.indexOf('\r\n\r\n') + 4))
    assert.equal(bodies, ['{"got":"hi"}', '{"hello":"world"}', '{"id":"1","q":{}}', '{"id":"2","q":{}}'])
  } finally {
    await server.close()
  }
})

// RFC 9110 §9.1: method = token; the route table decides what a token it does not know gets.
Http('an unknown token method gets 404 or 405 from the routes; a non-token method gets 400', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const wrong = await rawExchange(port, 'BREW /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(wrong), 405)
    assert.match(wrong, /Allow: GET, HEAD\r\n/)
    const missing = await rawExchange(port, 'BREW /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(missing), 404)
    const bad = await rawExchange(port, 'BR{W /hello HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.is(statusOf(bad), 400)
    assert.ok(bad.endsWith('{"error":"invalid_method"}'))
  } finally {
    await server.close()
  }
})

// RFC 9112 §3.2 requires Host of HTTP/1.1 requests only (decisions.md).
Http('an HTTP/1.0 request without Host is served', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const text = await rawExchange(port, 'POST /users HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi')
    assert.is(statusOf(text), 200)
    assert.ok(text.endsWith('{"got":"hi"}'))
  } finally {
    await server.close()
  }
})

Http('bytes that are not HTTP at all close the connection without an answer', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const tlsHello = new Uint8Array([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03])
    assert.is(await rawExchange(port, tlsHello), '')
  } finally {
    await server.close()
  }
})

Http('an answer JSON cannot hold: 500 unserializable_body, logged with the route (sync and async)', async () => {
  const { server, url } = await serve('http', 'unserializable')
  try {
    for (const path of ['/cycle', '/later']) {
      const res = await fetch(`${url}${path}`)
      assert.is(res.status, 500)
      assert.match(await res.text(), 'unserializable_body')
      const logged = (await server.records()).find((r) => r.level === 'error' && r.context['path'] === path)
      assert.ok(logged !== undefined, `logged for ${path}`)
      assert.is(logged?.context['method'], 'GET')
      assert.match(String(logged?.context['reason']), path === '/cycle' ? /circular|cyclic/i : /BigInt/i)
    }
  } finally {
    await server.close()
  }
})

Http('a malformed first request line starting with a visible character gets 400, not a silent close', async () => {
  const { server, port } = await serve('http', 'table')
  try {
    const text = await rawExchange(port, '(GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.is(statusOf(text), 400)
  } finally {
    await server.close()
  }
})

// RFC 9112 §2.2: empty lines after a request are no request in progress.
Http('a CRLF left after the last request is idle time, not a slow head: closed when idle, no 408', async () => {
  const { server, port } = await serve('http', 'table', { limits: { headerTimeoutMs: 40, keepAliveTimeoutMs: 200 } })
  try {
    const conn = await rawConnect(port)
    conn.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n\r\n')
    const text = (await conn.closed()).toString()
    assert.is(statusOf(text), 200)
    assert.not.match(text, /408/, 'the idle rule closed it, not the head time-out')
  } finally {
    await server.close()
  }
})

Http('a head that does not arrive in time gets 408; an idle keep-alive connection is closed', async () => {
  const { server, port } = await serve('http', 'table', { limits: { headerTimeoutMs: 80, keepAliveTimeoutMs: 80 } })
  try {
    const slow = await rawConnect(port)
    slow.write('GET /hello HTTP/1.1\r\nHost: x\r\n')
    const text = (await slow.closed()).toString()
    assert.is(statusOf(text), 408)
    assert.match(text, /\r\n\r\n\{"error":"request_timeout"\}$/)
    const idle = await rawConnect(port)
    idle.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
    const served = (await idle.closed()).toString()
    assert.is(statusOf(served), 200, 'served, then closed when idle')
  } finally {
    await server.close()
  }
})

Http('CORS: preflight answered with 204 and the grant; responses carry the allowed origin', async () => {
  const { server, url } = await serve('http', 'table', { cors: { allowedOrigins: ['https://app.example'], allowCredentials: true } })
  try {
    const pre = await fetch(`${url}/users`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    })
    assert.is(pre.status, 204)
    assert.is(pre.headers.get('access-control-allow-origin'), 'https://app.example')
    assert.is(pre.headers.get('access-control-max-age'), '86400')
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/)
    const res = await fetch(`${url}/hello`, { headers: { Origin: 'https://app.example' } })
    assert.is(res.headers.get('access-control-allow-origin'), 'https://app.example')
    assert.is(res.headers.get('access-control-allow-credentials'), 'true')
    assert.match(res.headers.get('vary') ?? '', /Origin/)
    const other = await fetch(`${url}/hello`, { headers: { Origin: 'https://evil.example' } })
    assert.is(other.headers.get('access-control-allow-origin'), null)
  } finally {
    await server.close()
  }
})

Http('HTTP middleware sees every request, unmatched ones included, and can answer early', async () => {
  const { server, url } = await serve('http', 'guarded')
  try {
    const missing = await fetch(`${url}/missing`)
    assert.is(missing.status, 404)
    assert.is(missing.headers.get('x-seen'), 'yes')
    const denied = await fetch(`${url}/users`, { method: 'POST', body: 'x' })
    assert.is(denied.status, 401)
    assert.equal(await server.probe('seen'), ['GET /missing', 'POST /users'])
  } finally {
    await server.close()
  }
})

Http('past maxConnections a new connection gets 503', async () => {
  const { server, port } = await serve('http', 'table', { limits: { maxConnections: 1 } })
  try {
    const first = await rawConnect(port)
    await delay(20)
    const second = await rawExchange(port, 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.is(statusOf(second), 503)
    assert.match(second, /\r\n\r\n\{"error":"unavailable"\}$/)
    first.socket.destroy()
  } finally {
    await server.close()
  }
})

Http('a bad option or route table is a clear error at start', async () => {
  try {
    await serve('http', 'bare', { limits: { maxBody: -1 } })
    assert.unreachable('should reject')
  } catch (error) {
    assert.match(String(error), /limits\.maxBody: expected a positive integer, got -1/)
  }
  try {
    await serve('http', 'duplicate')
    assert.unreachable('should reject')
  } catch (error) {
    assert.match(String(error), /invalid route table/)
  }
  // The type catches these in an editor; JavaScript callers still get the start-up check.
  try {
    // @ts-expect-error maxAge is a number of seconds
    await serve('http', 'bare', { cors: { maxAge: 'soon' } })
    assert.unreachable('should reject')
  } catch (error) {
    assert.match(String(error), /cors\.maxAge/)
  }
  try {
    // @ts-expect-error a misspelt option (allowedOrigins) is a compile error
    await serve('http', 'bare', { cors: { allowedOrigin: ['https://app.example'] } })
    assert.unreachable('should reject')
  } catch (error) {
    assert.match(String(error), /unknown CORS option "allowedOrigin"/)
  }
})

Http.run()
