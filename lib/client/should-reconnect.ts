/** `shouldReconnect`: the default rule for whether a close code is worth another attempt. Pure. */

/**
 * `false` for the close codes that say "do not come back as you are": 1003 (a data type the
 * server does not accept), 1008 (policy violation) and 4000–4999 (the application's own
 * codes, by convention final). Any other code (1000 and 1001 from a server that dropped or
 * restarted, 1006 for a lost connection, 1011 for a server error, …) is retried.
 *
 * @example
 * shouldReconnect(1006) // true
 * shouldReconnect(1008) // false
 * shouldReconnect(4401) // false
 */
export const shouldReconnect = (code: number): boolean => code !== 1003 && code !== 1008 && (code < 4000 || code > 4999)
