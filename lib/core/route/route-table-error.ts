/**
 * The problems `compileRoutes` finds in a route table, as tagged values. They are
 * programming errors found at build time (before any client connects), so they carry
 * the position of the offending route instead of a status or close code.
 * Pure and portable: no node:* imports.
 */

/** The path of an HTTP route is not a valid pattern (see `compilePath`). */
export interface InvalidPath {
  readonly _tag: 'InvalidPath'
  readonly index: number
  readonly path: string
  readonly reason: string
}

/** The method of an HTTP route is not an RFC 9110 §5.6.2 token. */
export interface InvalidMethod {
  readonly _tag: 'InvalidMethod'
  readonly index: number
  readonly method: string
}

/**
 * Two HTTP routes answer the same method on the same path shape (param names aside):
 * the later one could never run.
 */
export interface ShadowedRoute {
  readonly _tag: 'ShadowedRoute'
  readonly index: number
  /** The earlier route that wins. */
  readonly shadowedBy: number
  readonly method: string
  readonly path: string
}

/** Two `socketOn` routes for the same event name. */
export interface DuplicateEvent {
  readonly _tag: 'DuplicateEvent'
  readonly index: number
  readonly shadowedBy: number
  readonly event: string
}

/** More than one `onMessage` route: every raw message can go to one only. */
export interface DuplicateRawRoute {
  readonly _tag: 'DuplicateRawRoute'
  readonly index: number
  readonly shadowedBy: number
}

export type RouteTableError = InvalidPath | InvalidMethod | ShadowedRoute | DuplicateEvent | DuplicateRawRoute

/** One line of text for a table error, for a startup failure message. */
export const describeRouteTableError = (e: RouteTableError): string => {
  switch (e._tag) {
    case 'InvalidPath':
      return `route #${e.index}: invalid path ${JSON.stringify(e.path)}: ${e.reason}`
    case 'InvalidMethod':
      return `route #${e.index}: invalid method ${JSON.stringify(e.method)}`
    case 'ShadowedRoute':
      return `route #${e.index}: ${e.method} ${e.path} is shadowed by route #${e.shadowedBy}`
    case 'DuplicateEvent':
      return `route #${e.index}: event ${JSON.stringify(e.event)} is already handled by route #${e.shadowedBy}`
    case 'DuplicateRawRoute':
      return `route #${e.index}: a second onMessage route (the first is route #${e.shadowedBy})`
  }
}
