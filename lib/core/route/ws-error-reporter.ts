/**
 * Where a WebSocket handler failed, for the error hook the server wires to its logger
 * (the core never logs). Types only; pure and portable.
 */

/** The handler that threw or rejected: phase, client, and the event name for events. */
export interface WsErrorSite {
  readonly phase: 'event' | 'connect' | 'disconnect' | 'message'
  readonly clientId: number
  readonly event?: string
}

/** Receives a thrown value (an Error carries its stack) and where it happened. Must not throw. */
export type WsErrorReporter = (error: unknown, site: WsErrorSite) => void

/** The reporter used when none is given: drops the report. */
export const ignoreErrors: WsErrorReporter = () => undefined

/** Wraps a reporter so that one that throws cannot break the dispatch reporting to it. */
export const guardReporter =
  (report: WsErrorReporter): WsErrorReporter =>
  (error, site) => {
    try {
      report(error, site)
    } catch {
      // A broken hook must not turn a reported failure into an unhandled rejection.
    }
  }
