/**
 * `isFramingHeader`: whether an application header would contradict the framing the
 * serializers derive (`Connection`, `Content-Type`, `Content-Length`, `Transfer-Encoding`);
 * such headers are dropped. Pure and portable: no node:* imports.
 */

/**
 * Compared by length first, so most names are never lower-cased.
 *
 * @example
 * isFramingHeader('content-length') // true
 * isFramingHeader('X-Id')           // false
 */
export const isFramingHeader = (name: string): boolean => {
  switch (name.length) {
    case 10:
      return name.toLowerCase() === 'connection'
    case 12:
      return name.toLowerCase() === 'content-type'
    case 14:
      return name.toLowerCase() === 'content-length'
    case 17:
      return name.toLowerCase() === 'transfer-encoding'
    default:
      return false
  }
}
