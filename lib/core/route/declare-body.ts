/**
 * `declareBody`: names, for typed clients, the JSON body an HTTP route expects. Types only:
 * it returns the route it is given, and the handler still reads and validates the body.
 * Pure and portable: no node:* imports.
 */
import type { HttpRoute } from './route.js'

/**
 * `declareBody<Body>()(route)` is `route`, typed as taking a `Body` as its JSON body, so
 * `createApi` of `twinport/client` checks what a client posts. Decode the body in the
 * handler as before (a client is not the only sender).
 *
 * @example
 * const post = declareBody<{ text: string }>()(httpRoute('POST', '/notes', (req) => readJsonBody(req)))
 */
export const declareBody =
  <Body>() =>
  <Method extends string, Path extends string, Result, Answers = unknown>(
    route: HttpRoute<Method, Path, Result, unknown, Answers>,
  ): HttpRoute<Method, Path, Result, Body, Answers> =>
    // Only the type-level `~body` differs, and it is never set.
    route as HttpRoute<Method, Path, Result, Body, Answers>
