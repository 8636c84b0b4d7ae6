/**
 * Why bytes are not a cluster message, as a tagged union: what a node logs before it drops
 * a foreign or corrupt message from the channel. Each variant has the facts and a short
 * `reason`. Pure and portable.
 */

/** Not ours: too short for the header, or the magic bytes are not `74 77`. */
export interface NotClusterMessage {
  readonly _tag: 'NotClusterMessage'
  readonly reason: string
}

/** A version this node does not speak (a newer node in a rolling upgrade, say). */
export interface UnsupportedVersion {
  readonly _tag: 'UnsupportedVersion'
  readonly version: number
  readonly reason: string
}

/** A message kind this version does not define. */
export interface UnknownKind {
  readonly _tag: 'UnknownKind'
  readonly kind: number
  readonly reason: string
}

/** A checksum does not match: the body, or the sequence trailer. */
export interface ChecksumMismatch {
  readonly _tag: 'ChecksumMismatch'
  readonly part: 'body' | 'sequence'
  readonly reason: string
}

/** A field runs past the end of the body. */
export interface Truncated {
  readonly _tag: 'Truncated'
  readonly field: string
  readonly reason: string
}

/** Bytes left in the body after its last field. */
export interface TrailingBytes {
  readonly _tag: 'TrailingBytes'
  readonly extra: number
  readonly reason: string
}

/** A field out of its range: bad UTF-8, an empty or too long name, unknown flags, a number too large. */
export interface InvalidField {
  readonly _tag: 'InvalidField'
  readonly field: string
  readonly reason: string
}

/** The frame is not one complete unmasked server frame (FIN, no RSV bit, text or binary, exact length). */
export interface InvalidFrame {
  readonly _tag: 'InvalidFrame'
  readonly reason: string
}

export type ClusterMessageError =
  | NotClusterMessage
  | UnsupportedVersion
  | UnknownKind
  | ChecksumMismatch
  | Truncated
  | TrailingBytes
  | InvalidField
  | InvalidFrame

export const notClusterMessage = (reason: string): NotClusterMessage => ({ _tag: 'NotClusterMessage', reason })
export const unsupportedVersion = (version: number): UnsupportedVersion => ({ _tag: 'UnsupportedVersion', version, reason: `cluster message version ${version} is not supported` })
export const unknownKind = (kind: number): UnknownKind => ({ _tag: 'UnknownKind', kind, reason: `unknown cluster message kind ${kind}` })
export const checksumMismatch = (part: 'body' | 'sequence'): ChecksumMismatch => ({ _tag: 'ChecksumMismatch', part, reason: `the ${part} checksum does not match` })
export const truncated = (field: string): Truncated => ({ _tag: 'Truncated', field, reason: `${field} runs past the end of the message` })
export const trailingBytes = (extra: number): TrailingBytes => ({ _tag: 'TrailingBytes', extra, reason: `${extra} bytes after the last field` })
export const invalidField = (field: string, reason: string): InvalidField => ({ _tag: 'InvalidField', field, reason: `${field}: ${reason}` })
export const invalidFrame = (reason: string): InvalidFrame => ({ _tag: 'InvalidFrame', reason: `frame: ${reason}` })
