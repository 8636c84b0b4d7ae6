/**
 * `isFingerprinted`: whether a file name carries a content hash (`app.3f9a1c2e.js`,
 * `index-BwQ3x1a9.css`), so that its content never changes under that name and it may be
 * cached as `immutable` (RFC 8246). Pure and portable: no node:* imports.
 */

// A `.` or `-` then at least 8 hash characters with a digit and a letter among them (so
// `-settings.js` is not a hash), then the extension.
const HASHED = /[.-](?=[A-Za-z0-9_]*[0-9])(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/

/**
 * Whether the last segment of `path` looks content-hashed, as bundlers name their output
 * (webpack `[contenthash]`, Vite, esbuild `[hash]`).
 *
 * @example
 * isFingerprinted('assets/app.3f9a1c2e.js') // true
 * isFingerprinted('assets/index-BwQ3x1a9.css') // true
 * isFingerprinted('settings-page.js') // false
 */
export const isFingerprinted = (path: string): boolean => HASHED.test(path.slice(path.lastIndexOf('/') + 1))
