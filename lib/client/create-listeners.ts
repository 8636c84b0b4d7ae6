/**
 * `createListeners`: the client's listener registry: `on`, `once`, `off` and `emit` by event
 * name. A listener that throws is reported to `onThrow` and the others still run, so nothing
 * thrown by user code escapes into the WebSocket's callbacks. Pure (no I/O).
 */

/** A listener of one event. */
export type Listener = (payload: never) => void

type Entry = readonly [fn: Listener, once: boolean]

/** The registry. */
export interface Listeners {
  /** Adds a listener; the answer removes it. */
  on(event: string, fn: Listener, once?: boolean): () => void
  /** Removes the first registration of `fn` for `event`, if any. */
  off(event: string, fn: Listener): void
  /** Calls every listener of `event` registered now, in order. */
  emit(event: string, payload?: unknown): void
}

/**
 * A registry; `onThrow(event, error)` hears of listeners that threw.
 *
 * @example
 * const l = createListeners(() => undefined)
 * const off = l.on('message', (m: string) => console.log(m))
 * l.emit('message', 'hi') // logs hi
 * off()
 */
export const createListeners = (onThrow: (event: string, error: unknown) => void): Listeners => {
  // Copy on write: `emit` walks the array it started with, whatever listeners do meanwhile.
  const byEvent = new Map<string, readonly Entry[]>()
  const remove = (event: string, entry: Entry | undefined): void => {
    const rest = (byEvent.get(event) ?? []).filter((e) => e !== entry)
    if (rest.length === 0) byEvent.delete(event)
    else byEvent.set(event, rest)
  }
  return {
    on: (event, fn, once = false) => {
      const entry: Entry = [fn, once]
      byEvent.set(event, [...(byEvent.get(event) ?? []), entry])
      return () => remove(event, entry)
    },
    off: (event, fn) => remove(event, byEvent.get(event)?.find((e) => e[0] === fn)),
    emit: (event, payload) => {
      for (const entry of byEvent.get(event) ?? []) {
        if (entry[1]) remove(event, entry)
        try {
          ;(entry[0] as (p: unknown) => void)(payload)
        } catch (error) {
          onThrow(event, error)
        }
      }
    },
  }
}
