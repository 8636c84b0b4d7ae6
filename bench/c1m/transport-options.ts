/**
 * The transport of bench/c1m's server workers, from the environment: `TRANSPORT=native` gives
 * `{ transport: 'native', reusePort: true }`, so that each node:cluster worker listens on the
 * port with its own SO_REUSEPORT socket (the addon binds it directly, not through the primary)
 * and the kernel spreads connections over the workers' accept queues: no round-robin hand-off
 * (SCHED is then moot). Unset or `net`: `{}` (node:net through node:cluster, as before).
 * Imports nothing; bench/c1m/server.ts spreads it into runServer's options.
 */

/** The `runServer` options for `env.TRANSPORT`; throws on anything but `native`, `net` or unset. */
export const transportOptions = (env: Readonly<Record<string, string | undefined>>): { readonly transport?: 'native' | 'net'; readonly reusePort?: boolean } => {
  const transport = env.TRANSPORT ?? ''
  if (transport === '' || transport === 'net') return {}
  if (transport === 'native') return { transport: 'native', reusePort: true }
  throw new Error(`TRANSPORT: expected native or net, got ${JSON.stringify(transport)}`)
}
