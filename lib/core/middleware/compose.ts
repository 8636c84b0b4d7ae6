/**
 * `compose`: onion-order composition of middleware around a target, shared by the
 * WebSocket and HTTP stacks. Pure and portable: no node:* imports, no timers.
 */
import { nextCalledTwice } from './next-called-twice.js'

/**
 * Continues with the rest of the stack. Without an argument the next layer sees the same
 * input; with one it sees the replacement. A second call rejects with `NextCalledTwice`.
 */
export type Next<I, O> = (input?: I) => Promise<O>

/** One layer: may call `next` (once), change its input, or answer without calling it. */
export type Layer<I, C, O> = (input: I, next: Next<I, O>, ctx: C) => O | Promise<O>

/**
 * Wraps `target` in `stack`, the first layer outermost. A layer that throws, or whose
 * promise rejects, rejects the whole call (the dispatchers catch it).
 *
 * @example
 * const run = compose<number, void, number>([(n, next) => next(n + 1)])
 * await run(1, undefined, (n) => n * 10) // 20
 */
export const compose =
  <I, C, O>(stack: readonly Layer<I, C, O>[]) =>
  (input: I, ctx: C, target: (input: I, ctx: C) => O | Promise<O>): Promise<O> =>
    step(stack, ctx, target, 0, input)

// One layer of a run (module-level, so a run creates only the `next` of each layer it reaches).
const step = async <I, C, O>(
  stack: readonly Layer<I, C, O>[],
  ctx: C,
  target: (input: I, ctx: C) => O | Promise<O>,
  position: number,
  current: I,
): Promise<O> => {
  const layer = stack[position]
  if (layer === undefined) return target(current, ctx)
  let called = false
  return layer(
    current,
    (replacement) => {
      if (called) return Promise.reject(nextCalledTwice(position))
      called = true
      return step(stack, ctx, target, position + 1, replacement === undefined ? current : replacement)
    },
    ctx,
  )
}
