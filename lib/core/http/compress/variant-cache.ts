/**
 * `createVariantCache`: compressed answers kept for reuse, keyed by what makes the bytes the
 * same (the request target, the answer's strong ETag and Content-Type, the coding), so a small
 * static file is compressed once per version instead of on every request. Bounded in bytes and
 * in entries; least recently used first out. A compression under way is shared by the requests
 * that arrive meanwhile.
 *
 * Pure and portable: no node:* imports.
 */

/** The key of a compressed answer; `undefined` when the answer has no strong ETag (never cached). */
export const variantKey = (target: string, etag: string | undefined, contentType: string, coding: string): string | undefined =>
  etag === undefined || !etag.startsWith('"') ? undefined : `${coding}\u0000${etag}\u0000${contentType}\u0000${target}`

/** A bounded store of compressed bodies. */
export interface VariantCache {
  /**
   * The compressed bytes for `key`: the kept ones, the one being made, or `make()`'s (kept when
   * they fit; a failure is not kept).
   */
  get(key: string, make: () => Promise<Uint8Array>): Promise<Uint8Array>
  /** How much is held. */
  readonly size: { readonly entries: number; readonly bytes: number }
}

/**
 * A cache of at most `maxBytes` of compressed bodies (a body over a quarter of it is not kept)
 * and `maxEntries` of them.
 *
 * @example
 * const cache = createVariantCache(8 * 1024 * 1024)
 * const gz = await cache.get(variantKey('/static/app.js', '"400-18bcfe56800"', 'text/javascript', 'gzip')!, () => gzip(bytes))
 */
export const createVariantCache = (maxBytes: number, maxEntries = 1000): VariantCache => {
  const kept = new Map<string, Uint8Array>()
  const making = new Map<string, Promise<Uint8Array>>()
  let held = 0

  const keep = (key: string, bytes: Uint8Array): void => {
    if (bytes.length > maxBytes / 4 || maxEntries === 0) return
    const old = kept.get(key)
    if (old !== undefined) held -= old.length
    kept.delete(key)
    kept.set(key, bytes)
    held += bytes.length
    for (const [k, v] of kept) {
      if (held <= maxBytes && kept.size <= maxEntries) break
      kept.delete(k)
      held -= v.length
    }
  }

  return {
    get(key, make) {
      const hit = kept.get(key)
      if (hit !== undefined) {
        kept.delete(key)
        kept.set(key, hit)
        return Promise.resolve(hit)
      }
      const pending = making.get(key)
      if (pending !== undefined) return pending
      const made = make().then(
        (bytes) => {
          making.delete(key)
          keep(key, bytes)
          return bytes
        },
        (error: unknown) => {
          making.delete(key)
          throw error
        },
      )
      making.set(key, made)
      return made
    },
    get size() {
      return { entries: kept.size, bytes: held }
    },
  }
}
