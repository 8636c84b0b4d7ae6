/**
 * Spec helper (not a spec) for the broadcast specs of this folder: frames named by one letter,
 * and a `SocketIo` over sockets that log the names of the frames written to them, in order.
 * Portable (Node, Bun, Deno): no node:* imports.
 */
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import type { SocketIo } from '../../../lib/engine/platform.js'

/** A text frame whose one payload byte is `name`. */
export const frame = (name: string): Uint8Array => portableFrames.text(name)

/** The name of a frame built by `frame` (its first payload byte). */
export const nameOf = (bytes: Uint8Array): string => String.fromCharCode(bytes[2] as number)

/**
 * A `SocketIo` whose `write` logs each frame's name on the socket (`got`) and calls `onWrite`;
 * nothing is ever buffered, closed or ended unless `overrides` says so.
 */
export const logSocketIo = <S extends { readonly got: string[] }>(overrides: Partial<SocketIo<S>> = {}, onWrite?: () => void): SocketIo<S> => ({
  write: (s, bytes) => {
    onWrite?.()
    s.got.push(nameOf(bytes))
  },
  buffered: () => 0,
  isClosed: () => false,
  isEnded: () => false,
  end: () => undefined,
  destroy: () => undefined,
  cork: () => undefined,
  uncork: () => undefined,
  pause: () => undefined,
  resume: () => undefined,
  ...overrides,
})
