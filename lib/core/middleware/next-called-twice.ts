/**
 * The value a middleware's second call of `next` rejects with. The dispatchers turn it
 * into a 500 or a `handler_error` and report it like a thrown error.
 * Pure and portable: no node:* imports.
 */

/** A middleware called `next` more than once; `position` is its index in the stack. */
export interface NextCalledTwice {
  readonly _tag: 'NextCalledTwice'
  readonly position: number
  readonly message: string
}

/** Builds the rejection value for the middleware at `position`. */
export const nextCalledTwice = (position: number): NextCalledTwice => ({
  _tag: 'NextCalledTwice',
  position,
  message: `middleware #${position} called next() more than once`,
})
