/**
 * `serveStatic` in process, over an in-memory `StaticFiles`: the route table, validators,
 * conditional requests, ranges, precompressed siblings, and each refusal (`..` in any
 * spelling, NUL, dotfiles, links leaving the root, hard links), the answer never being a
 * file outside the root.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readResponseBody } from '../../../lib/core/http/in-process-exchange.js'
import { getResponseHeader } from '../../../lib/core/http/read-response.js'
import type { FileInfo, StaticFiles } from '../../../lib/core/http/static/static-files.js'
import type { Response } from '../../../lib/core/http/types.js'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { dispatchHttp } from '../../../lib/core/route/dispatch-http.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { routes } from '../../../lib/core/route/routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { serveStatic } from '../../../lib/core/files/serve-static.js'
import type { ServeStaticOptions } from '../../../lib/core/files/serve-static-options.js'
import { httpRequest } from '../route/support.js'

const MTIME = Date.UTC(2024, 0, 2, 3, 4, 5)
const NOW = Date.UTC(2025, 0, 1)

interface Entry {
  readonly kind: FileInfo['kind']
  readonly bytes?: string
  /** Where the name leads once links are resolved (a symbolic link), if elsewhere. */
  readonly target?: string
  readonly links?: number
}

// The in-memory tree: /srv/www is the root; /srv/secret is outside it.
const tree: Readonly<Record<string, Entry>> = {
  '/srv/www': { kind: 'directory' },
  '/srv/www/index.html': { kind: 'file', bytes: '<h1>home</h1>' },
  '/srv/www/app.js': { kind: 'file', bytes: 'console.log("plain")' },
  '/srv/www/app.js.br': { kind: 'file', bytes: 'BROTLI' },
  '/srv/www/app.js.gz': { kind: 'file', bytes: 'GZIP' },
  '/srv/www/app.3f9a1c2e.js': { kind: 'file', bytes: 'hashed' },
  '/srv/www/digits.txt': { kind: 'file', bytes: '0123456789' },
  '/srv/www/empty.txt': { kind: 'file', bytes: '' },
  '/srv/www/docs': { kind: 'directory' },
  '/srv/www/docs/index.html': { kind: 'file', bytes: '<h1>docs</h1>' },
  '/srv/www/.env': { kind: 'file', bytes: 'SECRET=1' },
  '/srv/www/escape.txt': { kind: 'file', target: '/srv/secret/passwd' },
  '/srv/www/inner.txt': { kind: 'file', target: '/srv/www/digits.txt' },
  '/srv/www/hard.txt': { kind: 'file', bytes: 'linked twice', links: 2 },
  '/srv/secret/passwd': { kind: 'file', bytes: 'root:x:0:0' },
}

const files: StaticFiles = {
  stat: async (path) => {
    const entry = tree[path]
    if (entry === undefined) return undefined
    const real = entry.target ?? path
    const at = tree[real] ?? entry
    return { kind: at.kind, realPath: real, size: (at.bytes ?? '').length, mtimeMs: MTIME, links: entry.links ?? 1 }
  },
  read: async function* (path, first, last) {
    const bytes = new TextEncoder().encode(tree[path]?.bytes ?? '')
    // Two pieces, to show the body is joined from what is pulled.
    const mid = Math.min(last + 1, first + 3)
    yield bytes.subarray(first, mid)
    if (mid <= last) yield bytes.subarray(mid, last + 1)
  },
}

const context = { ...inertHttpContext, files, now: () => NOW }

const compile = (table: RouteTable) => E.getOrElseW(() => assert.unreachable('table compiles') as never)(compileRoutes(table))

const serve = async (target: string, headers: readonly (readonly [string, string])[] = [], options: ServeStaticOptions = {}, method = 'GET') => {
  const table = routes([httpRoute('GET', '/api/hello', () => 'hi'), ...serveStatic('/static', '/srv/www', { boundary: () => 'B0UNDARY', ...options })])
  const res: Response = await dispatchHttp(compile(table), httpRequest(method, target, headers), { context })
  const body = new TextDecoder().decode(await readResponseBody(res))
  return { res, status: res.status, body, header: (name: string) => getResponseHeader(res, name) }
}

test('serveStatic :: a file with its type, length, validators and policy headers', async () => {
  const { status, body, res, header } = await serve('/static/app.js')
  assert.is(status, 200)
  assert.is(body, 'console.log("plain")')
  assert.is(res.contentType, 'text/javascript; charset=utf-8')
  assert.is(header('ETag'), `"14-${MTIME.toString(16)}"`)
  assert.is(header('Last-Modified'), 'Tue, 02 Jan 2024 03:04:05 GMT')
  assert.is(header('Cache-Control'), 'public, max-age=0')
  assert.is(header('Accept-Ranges'), 'bytes')
  assert.is(header('X-Content-Type-Options'), 'nosniff')
  assert.is(header('Vary'), undefined)
})

test('serveStatic :: a fingerprinted name is immutable; the policy is an option', async () => {
  assert.is((await serve('/static/app.3f9a1c2e.js')).header('Cache-Control'), 'public, max-age=31536000, immutable')
  assert.is((await serve('/static/app.js', [], { cacheControl: 'no-cache' })).header('Cache-Control'), 'no-cache')
  assert.is((await serve('/static/app.js', [], { cacheControl: () => undefined })).header('Cache-Control'), undefined)
})

test('serveStatic :: directories: index.html, a 301 to add the slash, the mount itself', async () => {
  assert.is((await serve('/static/')).body, '<h1>home</h1>')
  assert.is((await serve('/static/docs/')).body, '<h1>docs</h1>')
  const dir = await serve('/static/docs?x=1')
  assert.is(dir.status, 301)
  assert.is(dir.header('Location'), '/static/docs/?x=1')
  assert.is((await serve('/static')).header('Location'), '/static/')
  assert.is((await serve('/static/docs', [], { index: false })).status, 404)
})

test('serveStatic :: other routes are untouched; other methods are 405', async () => {
  assert.is((await serve('/api/hello')).body, '"hi"')
  const post = await serve('/static/app.js', [], {}, 'POST')
  assert.is(post.status, 405)
  assert.is(post.header('Allow'), 'GET, HEAD')
})

test('serveStatic :: HEAD has the headers of GET and no body', async () => {
  const head = await serve('/static/digits.txt', [], {}, 'HEAD')
  assert.is(head.status, 200)
  assert.is(head.header('ETag'), `"a-${MTIME.toString(16)}"`)
})

test('serveStatic :: conditional requests: 304 with validators and no body, 412', async () => {
  const { header } = await serve('/static/digits.txt')
  const etag = header('ETag') as string
  const notModified = await serve('/static/digits.txt', [['If-None-Match', etag]])
  assert.is(notModified.status, 304)
  assert.is(notModified.body, '')
  assert.is(notModified.header('ETag'), etag)
  assert.is(notModified.header('Cache-Control'), 'public, max-age=0')
  assert.is((await serve('/static/digits.txt', [['If-Modified-Since', 'Tue, 02 Jan 2024 03:04:05 GMT']])).status, 304)
  assert.is((await serve('/static/digits.txt', [['If-Modified-Since', 'Mon, 01 Jan 2024 00:00:00 GMT']])).status, 200)
  assert.is((await serve('/static/digits.txt', [['If-Match', '"other"']])).status, 412)
  assert.is((await serve('/static/digits.txt', [['If-Unmodified-Since', 'Mon, 01 Jan 2024 00:00:00 GMT']])).status, 412)
})

test('serveStatic :: ranges: 206 one range, multipart/byteranges, 416, If-Range', async () => {
  const one = await serve('/static/digits.txt', [['Range', 'bytes=2-5']])
  assert.is(one.status, 206)
  assert.is(one.body, '2345')
  assert.is(one.header('Content-Range'), 'bytes 2-5/10')
  assert.is((await serve('/static/digits.txt', [['Range', 'bytes=-3']])).body, '789')
  const many = await serve('/static/digits.txt', [['Range', 'bytes=0-0,9-9']], { ranges: { coalesceGap: 0 } })
  assert.is(many.status, 206)
  assert.is(many.res.contentType, 'multipart/byteranges; boundary=B0UNDARY')
  assert.is(
    many.body,
    '--B0UNDARY\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 0-0/10\r\n\r\n0' +
      '\r\n--B0UNDARY\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 9-9/10\r\n\r\n9\r\n--B0UNDARY--\r\n',
  )
  const none = await serve('/static/digits.txt', [['Range', 'bytes=20-']])
  assert.is(none.status, 416)
  assert.is(none.header('Content-Range'), 'bytes */10')
  assert.is((await serve('/static/digits.txt', [['Range', 'bytes=2-5'], ['If-Range', '"stale"']])).status, 200)
  assert.is((await serve('/static/digits.txt', [['Range', 'bytes=2-5']], { ranges: false })).status, 200)
  assert.is((await serve('/static/empty.txt')).body, '')
})

test('serveStatic :: precompressed siblings by Accept-Encoding, with Vary', async () => {
  const options: ServeStaticOptions = { precompressed: ['br', 'gzip'] }
  const br = await serve('/static/app.js', [['Accept-Encoding', 'gzip, br']], options)
  assert.is(br.body, 'BROTLI')
  assert.is(br.header('Content-Encoding'), 'br')
  assert.is(br.header('Vary'), 'Accept-Encoding')
  assert.is(br.res.contentType, 'text/javascript; charset=utf-8')
  assert.is((await serve('/static/app.js', [['Accept-Encoding', 'gzip;q=1, br;q=0.5']], options)).body, 'GZIP')
  const plain = await serve('/static/app.js', [], options)
  assert.is(plain.body, 'console.log("plain")')
  assert.is(plain.header('Vary'), 'Accept-Encoding')
  // No sibling for this file: the file itself.
  assert.is((await serve('/static/digits.txt', [['Accept-Encoding', 'br']], options)).header('Content-Encoding'), undefined)
  assert.is((await serve('/static/app.js', [['Accept-Encoding', 'zstd']], { precompressed: ['zstd', 'gzip'] })).body, 'console.log("plain")')
})

test('serveStatic :: .. in any spelling, backslashes, NUL, bad escapes are refused before any file is read', async () => {
  const cases: readonly (readonly [string, number])[] = [
    ['/static/../secret/passwd', 403],
    ['/static/%2e%2e/secret/passwd', 403],
    ['/static/%2E%2E/secret/passwd', 403],
    ['/static/%252e%252e/secret/passwd', 403],
    ['/static/..%2fsecret%2fpasswd', 403],
    ['/static/..%5csecret%5cpasswd', 403],
    ['/static/..\\secret\\passwd', 403],
    ['/static/%c0%ae%c0%ae/secret/passwd', 400],
    ['/static/app.js%00.png', 400],
    ['/static/%', 400],
  ]
  for (const [target, status] of cases) {
    const res = await serve(target)
    assert.is(res.status, status, target)
    assert.not.match(res.body, 'root:x', target)
  }
})

test('serveStatic :: an absolute path after the mount stays under the root', async () => {
  const res = await serve('/static//srv/secret/passwd')
  assert.is(res.status, 404)
  assert.not.match(res.body, 'root:x')
})

test('serveStatic :: dotfiles are 404 by default, 403 or served by option', async () => {
  assert.is((await serve('/static/.env')).status, 404)
  assert.is((await serve('/static/.env', [], { dotfiles: 'deny' })).status, 403)
  assert.is((await serve('/static/.env', [], { dotfiles: 'allow' })).body, 'SECRET=1')
})

test('serveStatic :: a link out of the root and a file with two hard links are 403 unless links are followed', async () => {
  const out = await serve('/static/escape.txt')
  assert.is(out.status, 403)
  assert.not.match(out.body, 'root:x')
  assert.is((await serve('/static/inner.txt')).body, '0123456789')
  assert.is((await serve('/static/hard.txt')).status, 403)
  assert.is((await serve('/static/hard.txt', [], { links: 'follow' })).body, 'linked twice')
  assert.is((await serve('/static/escape.txt', [], { links: 'follow' })).body, 'root:x:0:0')
})

test('serveStatic :: the SPA fallback answers HTML requests only', async () => {
  const options: ServeStaticOptions = { fallback: 'index.html' }
  const page = await serve('/static/app/route/7', [['Accept', 'text/html,*/*']], options)
  assert.is(page.status, 200)
  assert.is(page.body, '<h1>home</h1>')
  assert.is((await serve('/static/missing.js', [['Accept', '*/*']], options)).status, 404)
  assert.is((await serve('/static/%2e%2e/x', [['Accept', 'text/html']], options)).status, 403)
})

test('serveStatic :: without file access in the context: 500 static_files_unavailable', async () => {
  const table = serveStatic('/', '/srv/www')
  const res = await dispatchHttp(compile(table), httpRequest('GET', '/index.html'), { context: inertHttpContext })
  assert.is(res.status, 500)
  assert.equal(res.body, { error: 'static_files_unavailable' })
})

test.run()
