/**
 * `clientAddress`: the address of the client behind `hops` trusted proxies, by the rule of
 * docs/guide.md "Behind a reverse proxy": each proxy appends the address it saw to
 * `X-Forwarded-For`, so only the right-most `hops` entries were written by proxies we run;
 * the entry that many places from the right is what our outermost proxy saw. Whatever is left
 * of it the client wrote, and is never read. Pure and portable: no node:* imports.
 */

/**
 * The client's address: `peer` without trusted proxies (`hops` 0), else the `hops`-th entry
 * of `forwardedFor` from the right; `peer` when the header has fewer entries (a request that
 * did not come through all the proxies).
 *
 * @example
 * clientAddress('10.0.0.2', '198.51.100.9, 203.0.113.7', 1) // '203.0.113.7'
 * clientAddress('10.0.0.2', '198.51.100.9, 203.0.113.7', 0) // '10.0.0.2'
 */
export const clientAddress = (peer: string | undefined, forwardedFor: string | undefined, hops: number): string | undefined => {
  if (hops <= 0 || forwardedFor === undefined) return peer
  const entries = forwardedFor.split(',')
  if (entries.length < hops) return peer
  const entry = (entries[entries.length - hops] as string).trim()
  return entry === '' ? peer : entry
}
