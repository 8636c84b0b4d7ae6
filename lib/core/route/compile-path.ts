/**
 * `compilePath`: a route path pattern (`/users/{id}/posts`) into its segments, checked once
 * so matching never has to parse a pattern again. Pure and portable: no node:* imports.
 *
 * Trailing-slash policy (one for the whole router): a single trailing slash is ignored on
 * both sides, so `/users/` and `/users` are the same route and the same request path.
 */
import * as E from 'fp-ts/lib/Either.js'

/** A literal segment (compared with the still-encoded request path) or a named param. */
export type PathSegment =
  | { readonly _tag: 'Static'; readonly text: string }
  | { readonly _tag: 'Param'; readonly name: string }
  /** `{*name}`, last only: the rest of the path, zero or more segments, slashes included. */
  | { readonly _tag: 'Rest'; readonly name: string }

export interface CompiledPath {
  /** The pattern with its trailing slash dropped (`/` stays `/`). */
  readonly path: string
  readonly segments: readonly PathSegment[]
  /** Param names in path order. */
  readonly params: readonly string[]
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const REST = /^\{\*([A-Za-z_][A-Za-z0-9_]*)\}$/

// RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@". Braces are
// allowed here only as whole-segment params; "?" and "#" would end the path.
const STATIC_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/

/** Drops one trailing slash unless the path is the root. */
export const trimTrailingSlash = (path: string): string =>
  path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path

/**
 * Checks and splits a pattern. A last segment `{*name}` is a rest param: it matches the rest
 * of the path, zero or more segments (`/static/{*path}` matches `/static`, `/static/a` and
 * `/static/a/b.css`), and only where no literal or single-segment route does.
 *
 * Left holds the reason when the path does not start with
 * `/`, has an empty segment, a malformed or repeated `{param}`, or characters a path
 * cannot hold literally.
 *
 * @example
 * compilePath('/users/{id}') // right({ path: '/users/{id}', segments: [...], params: ['id'] })
 */
export const compilePath = (pattern: string): E.Either<string, CompiledPath> => {
  if (!pattern.startsWith('/')) return E.left('must start with "/"')
  const path = trimTrailingSlash(pattern)
  if (path === '/') return E.right({ path, segments: [], params: [] })
  const segments: PathSegment[] = []
  const params: string[] = []
  const parts = path.slice(1).split('/')
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string
    if (part === '') return E.left('empty segment')
    const rest = REST.exec(part)
    if (rest !== null && i !== parts.length - 1) return E.left(`a rest param must be the last segment: ${part}`)
    const param = rest ?? PARAM.exec(part)
    if (param !== null) {
      const name = param[1] as string
      // Params become keys of a plain object; this one would set its prototype instead.
      if (name === '__proto__') return E.left('{__proto__} cannot be a param name')
      if (params.includes(name)) return E.left(`param {${name}} appears twice`)
      params.push(name)
      segments.push({ _tag: rest === null ? 'Param' : 'Rest', name })
    } else if (STATIC_SEGMENT.test(part)) {
      segments.push({ _tag: 'Static', text: part })
    } else {
      return E.left(part.includes('{') || part.includes('}') ? `a param must be a whole segment: ${part}` : `invalid characters in ${part}`)
    }
  }
  return E.right({ path, segments, params })
}
