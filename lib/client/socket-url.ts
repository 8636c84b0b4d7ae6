/**
 * `socketUrl`: the WebSocket URL `connect` opens for the URL it was given. Part of `connect`.
 *
 * Portable like the core: no node:*, no Buffer, no process; imports nothing.
 */

/**
 * `url` as a ws:// or wss:// URL without fragment: http(s) maps to ws(s), a relative URL
 * resolves against the page in a browser. Throws a `TypeError` for anything else (`connect`
 * refuses a bad URL at once).
 *
 * @example
 * socketUrl('http://127.0.0.1:6001/chat#top') // 'ws://127.0.0.1:6001/chat'
 */
export const socketUrl = (url: string): string => {
  try {
    const u = new URL(url, (globalThis as { location?: { href: string } }).location?.href)
    u.protocol = u.protocol.replace(/^http/, 'ws')
    u.hash = ''
    if (/^wss?:$/.test(u.protocol)) return u.href
  } catch {
    // Not a URL at all: refused below, like one of another scheme.
  }
  throw new TypeError(`bad URL ${url}`)
}
