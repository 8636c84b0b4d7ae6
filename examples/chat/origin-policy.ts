/**
 * `originPolicy`: which browser pages may talk to the chat, for the WebSocket and for the
 * REST API's writes. The chat's own page always may (its Origin names the host the
 * request was sent to, whatever name or address the server is reached by), and so may
 * the origins the operator lists (`CHAT_ORIGINS`). A request without `Origin` does not
 * come from a page a browser loaded elsewhere (curl, the `ws` package, server to server),
 * so it is let through: the check exists to stop other sites' pages from acting as
 * the user's browser (cross-site WebSocket hijacking, cross-site posts). No node:* imports.
 */

/** Answers whether a request with this `Origin` and `Host` header may proceed. */
export type OriginPolicy = (origin: string | undefined, host: string | undefined) => boolean

const hostOf = (origin: string): string | undefined => {
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/**
 * The policy trusting the page's own origin and `trusted` (exact origins, any case).
 * The opaque origin `null` (sandboxed frames, `file:` pages) is never trusted.
 *
 * @example
 * const allowed = originPolicy(['https://chat.example'])
 * allowed('http://localhost:6001', 'localhost:6001') // true: same origin
 * allowed('https://evil.example', 'localhost:6001')  // false
 * allowed(undefined, 'localhost:6001')                // true: not a browser page
 */
export const originPolicy = (trusted: readonly string[]): OriginPolicy => {
  const listed = new Set(trusted.map((o) => o.toLowerCase()))
  return (origin, host) => {
    if (origin === undefined) return true
    if (listed.has(origin.toLowerCase())) return true
    const own = hostOf(origin)
    return own !== undefined && host !== undefined && own === host.trim().toLowerCase()
  }
}
