/**
 * `resolveStaticPath`: a request path below a static mount (still percent-encoded, as it
 * came) to a normalised relative file path, or the reason it names no file under the root.
 * String work only: symbolic links and hard links are the adapter's to check against the
 * real root, after this. Pure and portable: no node:* imports.
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  dotfileDenied,
  dotfileIgnored,
  invalidPathEncoding,
  noIndex,
  nulInPath,
  pathTraversal,
  reservedName,
  type StaticPathError,
} from './static-path-error.js'

/** How `resolveStaticPath` treats names. */
export interface StaticPathOptions {
  /** Segments starting with a dot: 404 as if absent (`'ignore'`, the default), 403 (`'deny'`), or served (`'allow'`). */
  readonly dotfiles?: 'ignore' | 'deny' | 'allow'
  /** The file served for a path ending in `/` (default `index.html`); `false`: such a path is 404. */
  readonly index?: string | false
  /** Refuse names Windows treats specially (device names, `:`, trailing dots and spaces, `<>"|?*`). Default false; an adapter on Windows sets it. */
  readonly windowsNames?: boolean
}

/** A path that is safe to join to the root: segments without separators, `.` or `..`. */
export interface StaticPath {
  /** The segments joined with `/`, no leading slash (`css/site.css`); `''` for the root itself never occurs: it is its index. */
  readonly path: string
  readonly segments: readonly string[]
  /** Whether the last segment is the index file added for a trailing slash. */
  readonly index: boolean
}

// CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript digits Windows also reserves), with
// any extension: `nul.txt` opens the device too.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.|$)/i
// Characters Win32 refuses in names, and controls; `:` also names an alternate data stream.
const WINDOWS_CHARS = /[<>:"|?*\u0000-\u001f]/

// `/a/b.js`-shaped paths: the fast case of `resolveStaticPath`.
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/

const decode = (segment: string): string | undefined => {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const isDotSegment = (segment: string): boolean => segment === '.' || segment === '..'

// A decoded segment that would still act as a separator or a parent: `/`, `\`, `..`, or
// (decoded once more, as a careless layer might) `%2e%2e`, `%2f`, `%5c`.
const isTraversal = (decoded: string): boolean => {
  if (decoded === '..' || decoded.includes('/') || decoded.includes('\\')) return true
  if (!decoded.includes('%')) return false
  const again = decode(decoded)
  return again !== undefined && (isDotSegment(again) || again.includes('/') || again.includes('\\'))
}

/**
 * Resolves a root-relative URL path (`/css/site.css`, `docs/`), without its query:
 *
 * - each `/`-separated segment is percent-decoded once; a bad escape or invalid UTF-8 is 400;
 * - a NUL byte (raw or `%00`) is 400;
 * - `..` in any spelling, a backslash raw or encoded, an encoded `/`, is 403 (never
 *   resolved, even when it would stay inside the root);
 * - empty and `.` segments are dropped (`/a//./b` is `a/b`);
 * - a segment starting with a dot is 404, 403 or served, by `dotfiles`;
 * - with `windowsNames`, reserved device names and characters are 404 (`:` is 403);
 * - a trailing `/` (or the empty path) adds the `index` name, or is 404 without one.
 *
 * @example
 * resolveStaticPath('/css/site%20v2.css') // right({ path: 'css/site v2.css', segments: ['css', 'site v2.css'], index: false })
 * resolveStaticPath('/docs/') // right({ path: 'docs/index.html', segments: ['docs', 'index.html'], index: true })
 * resolveStaticPath('/a/%2e%2e/etc/passwd') // left({ _tag: 'PathTraversal', status: 403, … })
 * resolveStaticPath('/.env') // left({ _tag: 'DotfileIgnored', status: 404, … })
 */
export const resolveStaticPath = (urlPath: string, options: StaticPathOptions = {}): E.Either<StaticPathError, StaticPath> => {
  // The common case, decided by one test: every segment non-empty, of name characters only, not
  // starting with a dot, no trailing slash (so nothing to decode, no traversal, no dotfile, no
  // index). The loop below would answer the same (session 13: it was ~7 % of a static answer).
  if (options.windowsNames !== true && PLAIN_PATH.test(urlPath)) {
    const path = urlPath.slice(1)
    return E.right({ path, segments: path.split('/'), index: false })
  }
  const dotfiles = options.dotfiles ?? 'ignore'
  const indexName = options.index ?? 'index.html'
  const raw = urlPath.split('/')
  const segments: string[] = []
  for (const segment of raw) {
    if (segment.includes('\\')) return E.left(pathTraversal(segment))
    const decoded = decode(segment)
    if (decoded === undefined) return E.left(invalidPathEncoding(segment))
    if (decoded.includes('\u0000')) return E.left(nulInPath(segment))
    if (isTraversal(decoded)) return E.left(pathTraversal(segment))
    if (decoded === '' || decoded === '.') continue
    if (decoded.startsWith('.') && dotfiles !== 'allow') return E.left(dotfiles === 'deny' ? dotfileDenied(segment) : dotfileIgnored(segment))
    if (options.windowsNames === true) {
      if (decoded.includes(':')) return E.left(pathTraversal(segment))
      if (WINDOWS_DEVICE.test(decoded) || WINDOWS_CHARS.test(decoded) || /[. ]$/.test(decoded)) return E.left(reservedName(segment))
    }
    segments.push(decoded)
  }
  const last = raw[raw.length - 1] ?? ''
  const lastDecoded = decode(last)
  const directory = segments.length === 0 || lastDecoded === '' || lastDecoded === '.'
  if (directory) {
    if (indexName === false) return E.left(noIndex(last))
    segments.push(indexName)
  }
  return E.right({ path: segments.join('/'), segments, index: directory })
}
