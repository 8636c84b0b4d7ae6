/**
 * The params type of an HTTP route, derived from its path string at compile time:
 * `'/users/{id}/posts/{postId}'` gives `{ readonly id: string; readonly postId: string }`,
 * `'/files/{*path}'` gives `{ readonly path: string }`.
 * Types only. Pure and portable: no node:* imports.
 */

/** The names between braces in a path string, as a union of string literals. */
export type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `*${infer RestName}` ? RestName : Name) | ParamNames<Rest>
  : never

/** The decoded params of any route, when the path is not known statically. */
export type RouteParams = { readonly [name: string]: string }

/**
 * The params record a handler of `httpRoute(method, path, ...)` receives. A path typed
 * only as `string` gives the open record {@link RouteParams}.
 *
 * @example
 * const p: PathParams<'/users/{id}'> = { id: '42' }
 */
export type PathParams<Path extends string> = string extends Path
  ? RouteParams
  : { readonly [K in ParamNames<Path>]: string }
