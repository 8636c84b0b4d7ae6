/**
 * Every way `resolveStaticPath` refuses a request path, as a tagged union. Each variant
 * carries the offending segment and its consequence: the `status` to answer and a short
 * `reason` for `{"error": reason}`. Tags and reasons are stable: never rename, only add.
 *
 * Pure and portable: no node:* imports.
 */

interface Base<Tag extends string, Status extends number, Reason extends string> {
  readonly _tag: Tag
  readonly status: Status
  readonly reason: Reason
}

/** A `%` escape that is malformed or not UTF-8 (overlong forms included). */
export interface InvalidPathEncoding extends Base<'InvalidPathEncoding', 400, 'invalid_path_encoding'> {
  readonly segment: string
}
/** A NUL byte, raw or `%00`: no file system takes it, some truncate at it. */
export interface NulInPath extends Base<'NulInPath', 400, 'nul_in_path'> {
  readonly segment: string
}
/**
 * A path that would leave the root or name it in another way: a `..` segment in any
 * spelling (`..`, `%2e%2e`, `%252e%252e`), a backslash, an encoded `/` (`%2F`), a drive or
 * stream name (`C:`, `a:b`) where Windows names are refused.
 */
export interface PathTraversal extends Base<'PathTraversal', 403, 'path_traversal'> {
  readonly segment: string
}
/** A segment starting with a dot, with `dotfiles: 'deny'`. */
export interface DotfileDenied extends Base<'DotfileDenied', 403, 'dotfile_denied'> {
  readonly segment: string
}
/** A segment starting with a dot, with `dotfiles: 'ignore'` (the default): as if absent. */
export interface DotfileIgnored extends Base<'DotfileIgnored', 404, 'not_found'> {
  readonly segment: string
}
/** A name Windows reserves (`CON`, `nul.txt`, `COM1`, a trailing dot or space), where refused. */
export interface ReservedName extends Base<'ReservedName', 404, 'not_found'> {
  readonly segment: string
}
/** A directory (trailing slash) with no index file configured. */
export interface NoIndex extends Base<'NoIndex', 404, 'not_found'> {
  readonly segment: string
}

/** Why a request path names no file under the root. */
export type StaticPathError = InvalidPathEncoding | NulInPath | PathTraversal | DotfileDenied | DotfileIgnored | ReservedName | NoIndex

export const invalidPathEncoding = (segment: string): InvalidPathEncoding => ({
  _tag: 'InvalidPathEncoding',
  status: 400,
  reason: 'invalid_path_encoding',
  segment,
})
export const nulInPath = (segment: string): NulInPath => ({ _tag: 'NulInPath', status: 400, reason: 'nul_in_path', segment })
export const pathTraversal = (segment: string): PathTraversal => ({ _tag: 'PathTraversal', status: 403, reason: 'path_traversal', segment })
export const dotfileDenied = (segment: string): DotfileDenied => ({ _tag: 'DotfileDenied', status: 403, reason: 'dotfile_denied', segment })
export const dotfileIgnored = (segment: string): DotfileIgnored => ({ _tag: 'DotfileIgnored', status: 404, reason: 'not_found', segment })
export const reservedName = (segment: string): ReservedName => ({ _tag: 'ReservedName', status: 404, reason: 'not_found', segment })
export const noIndex = (segment: string): NoIndex => ({ _tag: 'NoIndex', status: 404, reason: 'not_found', segment })
