/**
 * `isCompressible`: whether a response of a media type is worth compressing with gzip, br or
 * zstd. Text, JSON, JavaScript, XML (SVG included), WebAssembly, uncompressed fonts and
 * bitmaps are; images, audio, video, archives, woff/woff2 and PDF are already compressed
 * and are not. Agrees with mime-db's `compressible` flags but for unknown bytes
 * (`application/octet-stream`), disk images and GPU textures (checked by its spec).
 *
 * Pure and portable: no node:* imports.
 */

// Beyond text/*, +json, +xml and +yaml: types mime-db marks compressible (or that compress
// well for the same reason: uncompressed bytes, repetitive text).
const COMPRESSIBLE: ReadonlySet<string> = new Set([
  'application/dart',
  'application/ecmascript',
  'application/graphql',
  'application/javascript',
  'application/json',
  'application/ld+json',
  'application/manifest+json',
  'application/postscript',
  'application/rtf',
  'application/tar',
  'application/toml',
  'application/vnd.dart',
  'application/vnd.ms-fontobject',
  'application/vnd.ms-opentype',
  'application/wasm',
  'application/x-javascript',
  'application/x-httpd-php',
  'application/x-ns-proxy-autoconfig',
  'application/x-sh',
  'application/x-tar',
  'application/x-virtualbox-ovf',
  'application/x-virtualbox-vbox',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/xml-dtd',
  'application/yaml',
  'font/otf',
  'font/ttf',
  'image/bmp',
  'image/vnd.microsoft.icon',
  'image/x-icon',
  'image/x-ms-bmp',
  'message/rfc822',
  'model/gltf-binary',
  'x-shader/x-fragment',
  'x-shader/x-vertex',
])

/**
 * Whether a body of this Content-Type (parameters ignored, any case) is worth compressing.
 *
 * @example
 * isCompressible('text/html; charset=utf-8') // true
 * isCompressible('image/svg+xml') // true
 * isCompressible('image/png') // false
 */
export const isCompressible = (contentType: string): boolean => {
  const semi = contentType.indexOf(';')
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
  if (type.startsWith('text/')) return true
  if (type.endsWith('+json') || type.endsWith('+xml') || type.endsWith('+yaml')) return true
  return COMPRESSIBLE.has(type)
}
