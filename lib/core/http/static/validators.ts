/**
 * `Validators`: what a static-file response knows of its representation for conditional
 * requests (RFC 9110 §8.8). Types only. Pure and portable: no node:* imports.
 */

/** The current representation's validators: its ETag field value and modification time. */
export interface Validators {
  /** The ETag as sent, quotes included (`"400-18bcfe56800"`, `W/"x"`); none when absent. */
  readonly etag?: string
  /** The modification time in milliseconds since the epoch (compared at one-second precision). */
  readonly lastModified?: number
}
