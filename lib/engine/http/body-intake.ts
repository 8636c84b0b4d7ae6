/**
 * `BodyIntake`: the part of a connection that reads one request body off the socket once its
 * head has been dispatched (a route declared `{ body: 'stream' }`, or a route that takes its
 * body whole, whose body came after its head): each read goes through the core's `readBodyPiece`,
 * its data to the handler's `RequestBody`, and what follows the body back to the connection
 * as the next request's bytes. Only a framing line cut between two reads is copied.
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { HttpError } from '../../core/http/http-error.js'
import { type BodyReader, type BodyReadLimits, readBodyPiece } from '../../core/http/read-body-piece.js'
import type { RequestBody } from './request-body.js'

/** What a read did: the body goes on, is over (with the bytes after it), or failed. */
export type IntakeStep =
  | { readonly _tag: 'More' }
  | { readonly _tag: 'Done'; readonly rest: Uint8Array }
  | { readonly _tag: 'Failed'; readonly error: HttpError }

const MORE: IntakeStep = { _tag: 'More' }

export class BodyIntake {
  private carry: Uint8Array | undefined = undefined
  /** When the last byte of the body arrived (or the intake began), for the idle time-out. */
  lastAt: number

  constructor(
    /** The exchange (request number on the connection) the body belongs to. */
    readonly exchange: number,
    readonly body: RequestBody,
    private reader: BodyReader,
    private readonly limits: BodyReadLimits,
    now: number,
    /** The route takes the body whole (the request time-out holds), rather than streaming it. */
    readonly whole = false,
  ) {
    this.lastAt = now
  }

  /** Reads `bytes` (the socket's next bytes) into the body. */
  feed(bytes: Uint8Array, now: number): IntakeStep {
    this.lastAt = now
    let input = bytes
    const carry = this.carry
    if (carry !== undefined) {
      this.carry = undefined
      input = new Uint8Array(carry.length + bytes.length)
      input.set(carry, 0)
      input.set(bytes, carry.length)
    }
    for (;;) {
      if (this.reader._tag === 'Done') {
        this.body.end()
        return { _tag: 'Done', rest: input }
      }
      const step = readBodyPiece(this.reader, input, this.limits)
      if (step._tag === 'Left') {
        this.body.fail(step.left)
        return { _tag: 'Failed', error: step.left }
      }
      const r = step.right
      if (r._tag === 'NeedMore') {
        // Only a framing line (a chunk size, a trailer) waits here: data never does.
        if (input.length > 0) this.carry = input.slice()
        return MORE
      }
      if (r.data.length > 0) this.body.push(r.data)
      input = input.subarray(r.consumed)
      this.reader = r.next
    }
  }

  /** The client went away or stopped sending before the end. */
  cut(error: HttpError): void {
    this.body.fail(error)
  }
}
