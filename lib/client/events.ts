/**
 * `events`: a client's server events of one name as an async iteration, for
 * `for await (const m of events(client, 'message'))`. A function beside `connect`, not a
 * method of the client: an application that does not iterate does not carry it (and
 * `eventStream`) in its bundle (bench/client-bundle.ts), while the loop is as typed as the
 * listener would be. It needs only the client's public `on` and `state`.
 *
 * Portable like the core; imports nothing at run time from outside this folder.
 */
import type { Client, StreamOptions } from './client.js'
import { eventStream } from './event-stream.js'

/** The map of server events a client was typed with (`connect<App, Events>`). */
export type ClientEvents<C> = C extends Client<infer _App, infer Events, infer _Asks> ? Events : never

/**
 * The server's `event` messages to `client`, in order, as an async iteration. It ends when
 * the client closes for good (at once if it already has), when `options.signal` fires, or
 * when the loop leaves; past `options.buffer` messages waiting (default 1024) it fails with
 * a `RangeError`.
 *
 * @example
 * const client = connect<typeof table, { tick: number }>(url)
 * for await (const n of events(client, 'tick')) if (n === 3) break
 */
export const events = <C extends Pick<Client, 'on' | 'state'>, K extends keyof ClientEvents<C> & string>(
  client: C,
  event: K,
  options?: StreamOptions,
): AsyncIterableIterator<ClientEvents<C>[K]> => {
  const on = client.on as (event: string, listener: (payload: never) => void) => () => void
  const stream = eventStream<ClientEvents<C>[K]>({
    ...options,
    name: event,
    subscribe: (push) => {
      const off = on(event, push as (payload: never) => void)
      // A close after which the client does not try again ends the iteration.
      const offClose = on('close', (({ reconnect }: { reconnect: boolean }) => reconnect || stream.end()) as (payload: never) => void)
      return () => {
        off()
        offClose()
      }
    },
  })
  if (client.state === 'closed') stream.end()
  return stream
}
