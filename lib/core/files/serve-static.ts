/**
 * `serveStatic(mount, root, options)`: the files under a directory as a route table
 * (`GET mount/{*path}`, HEAD included) to spread into `routes(...)`. The request path is
 * taken still percent-encoded (`req.http.path`) and resolved by `resolveStaticPath`; the
 * file is found through the runtime's `StaticFiles` (`ctx.files`), its real path checked
 * against the root's, and answered by `sendFile`.
 *
 * Pure and portable: no node:* imports. File access, the clock and randomness come in (the
 * server's context; the `boundary` option).
 */
import * as E from 'fp-ts/lib/Either.js'
import { OCTET_STREAM } from '../http/content-types.js'
import type { Request } from '../http/request.js'
import { errorResponse, redirect } from '../http/response.js'
import type { Header, Response } from '../http/types.js'
import { contentTypeOf } from '../http/static/content-type-of.js'
import { pickEncoding } from '../http/static/pick-encoding.js'
import { resolveStaticPath } from '../http/static/resolve-static-path.js'
import type { FileInfo, StaticFiles } from '../http/static/static-files.js'
import type { HttpContext } from '../route/http-context.js'
import { httpRoute } from '../route/http-route.js'
import type { HttpRoute } from '../route/route.js'
import { type CachedInfo, createFileCache, type FileCache } from './file-cache.js'
import { extraHeaders, sendFile } from './send-file.js'
import { cacheControlOf, type PrecompressedCoding, type ServeStaticOptions } from './serve-static-options.js'

const SIBLING: Readonly<Record<PrecompressedCoding, string>> = Object.freeze({ br: '.br', gzip: '.gz', zstd: '.zst' })

const randomBoundary = (): string => {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return hex
}

const trimSlash = (path: string): string => (path.endsWith('/') ? path.slice(0, -1) : path)

// The file an answer sends: the one asked for, or its precompressed sibling.
interface Variant {
  readonly path: string
  readonly found: CachedInfo
  readonly coding: string | undefined
}

// The canonical root, looked up once per route table (it is this table's, not module state).
interface RootMemo {
  real: string | undefined
}

// No string built per call: it runs on every answer.
const isInside = (real: string, root: string): boolean =>
  real === root || (real.startsWith(root) && (root.endsWith('/') || real.charCodeAt(root.length) === 0x2f))

const allowed = (info: FileInfo, root: string, options: ServeStaticOptions): boolean =>
  options.links === 'follow' || (isInside(info.realPath, root) && (info.kind !== 'file' || info.links <= 1))

const acceptsHtml = (req: Request): boolean => (req.headerMap.get('accept') ?? '').includes('text/html')

// The same path with a slash added; leading slashes collapsed, so `//evil.example` can never
// become a Location another host's.
const slashed = (req: Request): string => {
  const path = `/${req.http.path.replace(/^\/+/, '')}/`
  return req.http.rawQuery === '' ? path : `${path}?${req.http.rawQuery}`
}

/**
 * The files of `root` under the URL path `mount`, as a route table: typed as the HTTP route it
 * is (not as any `Route`), so a table it is spread into keeps its event names for a typed client.
 *
 * - `GET` and `HEAD` `mount/...`: the file, streamed with its length, with `ETag`,
 *   `Last-Modified`, `Cache-Control` (`immutable` for fingerprinted names),
 *   `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`; conditional requests (304,
 *   412) and ranges (206, multipart/byteranges, 416);
 * - a directory: its `index.html` (option `index`); named without its trailing slash, a
 *   301 to the name with it (so relative links in the page resolve);
 * - `..` in any spelling 403, NUL or a bad escape 400, dotfiles 404 (option `dotfiles`),
 *   a file whose real path leaves the root, or with several hard links, 403 (option `links`);
 * - nothing there: 404, or the `fallback` page for a request that accepts HTML.
 *
 * The server's runtime reads the files (the Platform's `files`); without one (a context
 * made in a test), every request is 500 `static_files_unavailable`.
 *
 * @example
 * const table = routes([...serveStatic('/static', './public', { precompressed: ['br', 'gzip'] }), httpRoute('GET', '/hello', () => 'hi')])
 */
export const serveStatic = (mount: string, root: string, options: ServeStaticOptions = {}): readonly HttpRoute<'GET'>[] => {
  const prefix = trimSlash(mount)
  const pattern = `${prefix}/{*path}`
  const memo: RootMemo = { real: undefined }
  const user = extraHeaders(options.headers)
  const precompressed = options.precompressed ?? []
  const ranges = options.ranges ?? {}
  const boundary = options.boundary ?? randomBoundary
  // One per table: its paths are this root's. `cache: false` keeps nothing (a stat per request).
  const fileCache: FileCache = createFileCache(options.cache === false ? { maxEntries: 0 } : options.cache)

  const realRoot = async (files: StaticFiles): Promise<string | undefined> => {
    if (memo.real !== undefined) return memo.real
    const info = await files.stat(root)
    if (info === undefined || info.kind !== 'directory') return undefined
    return (memo.real = info.realPath)
  }

  // The best precompressed sibling the request accepts, or the file itself.
  const variant = async (files: StaticFiles, req: Request, full: string, found: CachedInfo, base: string, nowMs: number | undefined): Promise<Variant> => {
    const accept = req.headerMap.get('accept-encoding')
    let left: readonly string[] = precompressed
    while (left.length > 0) {
      const choice = pickEncoding(accept, [...left, 'identity'])
      if (choice.coding === 'identity') break
      const path = full + SIBLING[choice.coding as PrecompressedCoding]
      const sibling = await fileCache.stat(files, path, nowMs)
      if (sibling !== undefined && sibling.info.kind === 'file' && allowed(sibling.info, base, options)) return { path, found: sibling, coding: choice.coding }
      left = left.filter((c) => c !== choice.coding)
    }
    return { path: full, found, coding: undefined }
  }

  // The answer for a file found (and its variant chosen): headers, validators, then sendFile.
  const reply = (req: Request, files: StaticFiles, relative: string, chosen: Variant, bytes: Uint8Array | undefined, nowMs: number | undefined): Response => {
    const headers: Header[] = []
    const cache = cacheControlOf(relative, options)
    if (cache !== undefined) headers.push(['Cache-Control', cache])
    if (chosen.coding !== undefined) headers.push(['Content-Encoding', chosen.coding])
    if (precompressed.length > 0) headers.push(['Vary', 'Accept-Encoding'])
    headers.push(...user)
    const contentType = contentTypeOf(relative, OCTET_STREAM)
    const sent = chosen.found
    const validators = { etag: sent.etag, lastModified: sent.lastModified(nowMs) }
    return sendFile(req, { path: sent.info.realPath, info: sent.info, contentType, headers, validators, ...(bytes === undefined ? {} : { bytes }) }, { files, ranges, boundary, nowMs })
  }

  const answer = async (req: Request, files: StaticFiles, base: string, relative: string, nowMs: number | undefined): Promise<Response | undefined> => {
    const full = relative === '' ? base : `${base}/${relative}`
    const found = await fileCache.stat(files, full, nowMs)
    if (found === undefined) return undefined
    const info = found.info
    if (!allowed(info, base, options)) return errorResponse(403, 'outside_root')
    if (info.kind === 'directory') return options.index === false ? undefined : redirect(slashed(req), 301)
    if (info.kind !== 'file') return undefined
    const chosen = precompressed.length === 0 ? { path: full, found, coding: undefined } : await variant(files, req, full, found, base, nowMs)
    // A GET of a small file reads it once per version, then answers from memory; a HEAD never reads.
    const bytes = req.method === 'GET' ? await fileCache.bytes(files, chosen.path, chosen.found) : fileCache.held(chosen.path, chosen.found)
    return reply(req, files, relative, chosen, bytes, nowMs)
  }

  // The same answer as \`answer\` when memory has all of it (the file's facts fresh, a GET's
  // bytes held, no precompressed siblings to look for), with no promise on the way (session 13:
  // each await cost Bun's JIT more than V8's); \`undefined\`: take \`answer\`.
  const answerHeld = (req: Request, files: StaticFiles, base: string, relative: string, nowMs: number | undefined): Response | undefined => {
    const full = relative === '' ? base : `${base}/${relative}`
    const found = fileCache.fresh(full, nowMs)
    if (found === undefined || found.info.kind !== 'file' || !allowed(found.info, base, options)) return undefined
    const bytes = fileCache.held(full, found)
    if (bytes === undefined && req.method === 'GET') return undefined
    return reply(req, files, relative, { path: full, found, coding: undefined }, bytes, nowMs)
  }

  const handler = (req: Request, ctx: HttpContext): Response | Promise<Response> => {
    const files = ctx.files
    if (files === undefined) return errorResponse(500, 'static_files_unavailable')
    const rest = req.http.path.slice(prefix.length)
    // \`/static\` names the mount's directory: send the client to \`/static/\`.
    if (rest === '') return redirect(slashed(req), 301)
    const resolved = resolveStaticPath(rest, options)
    const known = memo.real
    if (known !== undefined && precompressed.length === 0 && E.isRight(resolved)) {
      const held = answerHeld(req, files, known, resolved.right.path, ctx.now?.())
      if (held !== undefined) return held
    }
    return answerFrom(req, ctx, files, resolved)
  }

  const answerFrom = async (req: Request, ctx: HttpContext, files: StaticFiles, resolved: ReturnType<typeof resolveStaticPath>): Promise<Response> => {
    const base = await realRoot(files)
    if (base === undefined) return errorResponse(404, 'not_found')
    const nowMs = ctx.now?.()
    const found = E.isRight(resolved) ? await answer(req, files, base, resolved.right.path, nowMs) : undefined
    if (found !== undefined) return found
    if (E.isLeft(resolved) && resolved.left.status !== 404) return errorResponse(resolved.left.status, resolved.left.reason)
    if (options.fallback !== undefined && acceptsHtml(req)) {
      const page = resolveStaticPath(`/${options.fallback}`, { ...options, dotfiles: 'allow' })
      const spa = E.isRight(page) ? await answer(req, files, base, page.right.path, nowMs) : undefined
      if (spa !== undefined) return spa
    }
    return errorResponse(404, 'not_found')
  }

  return [httpRoute('GET', pattern, handler)]
}
