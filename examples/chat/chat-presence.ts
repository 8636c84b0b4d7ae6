/**
 * `createPresence`: the grace period between a departure and its announcement. A page
 * that reloads, or a phone that loses its connection for a moment, comes back on a new
 * connection within seconds; telling the room "ada left", then "ada joined" is noise. So
 * a named client that disconnects is *held*: its name and rooms stay for `graceMs`, and
 * only when nobody has resumed it does `expire` run (which announces the departure).
 *
 * Resuming needs the client's resume token, a secret issued with the name (the page keeps
 * it in `sessionStorage`), so nobody else can take over a name in its grace period.
 * Timers and randomness come in as arguments; no node:* imports.
 */

/** Schedules `run` after `ms`; answers a function that cancels it. */
export type Schedule = (ms: number, run: () => void) => () => void

export interface PresenceOptions {
  /** How long a departed client is held before `expire` runs; 0 expires at once. */
  readonly graceMs: number
  readonly schedule: Schedule
  /** A fresh, unguessable token. */
  readonly newToken: () => string
}

/** Tokens of named clients, and the departed ones held within the grace period. */
export interface Presence {
  /** The resume token of a client, issued on the first call. */
  tokenFor(clientId: number): string
  /** Holds a departed client: `expire` runs after the grace period unless it is resumed. */
  hold(clientId: number, expire: () => void): void
  /**
   * Resumes a held client with its token: its timer is cancelled and the token moves to
   * `to`. False (and nothing changes) when it is not held or the token differs.
   */
  resume(clientId: number, token: string, to: number): boolean
}

/**
 * An empty presence.
 *
 * @example
 * const presence = createPresence({ graceMs: 5000, schedule: (ms, run) => { const t = setTimeout(run, ms); return () => clearTimeout(t) }, newToken: () => crypto.randomUUID() })
 */
export const createPresence = (options: PresenceOptions): Presence => {
  const tokens = new Map<number, string>()
  const held = new Map<number, () => void>() // client -> cancel its expiry

  return {
    tokenFor(clientId) {
      const known = tokens.get(clientId)
      if (known !== undefined) return known
      const token = options.newToken()
      tokens.set(clientId, token)
      return token
    },
    hold(clientId, expire) {
      const end = (): void => {
        held.delete(clientId)
        tokens.delete(clientId)
        expire()
      }
      if (options.graceMs <= 0) return end()
      held.set(clientId, options.schedule(options.graceMs, end))
    },
    resume(clientId, token, to) {
      const cancel = held.get(clientId)
      if (cancel === undefined || tokens.get(clientId) !== token) return false
      cancel()
      held.delete(clientId)
      tokens.delete(clientId)
      tokens.set(to, token)
      return true
    },
  }
}
