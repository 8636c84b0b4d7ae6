/**
 * `attachmentSize`: how many bytes a value takes at most once serialised by
 * `serializeAttachment`, which Cloudflare bounds at 2,048 bytes (`ATTACHMENT_LIMIT`) while
 * workerd run locally does not: a hub checks every attachment it writes against this bound, so
 * a client whose data grows too large fails the same way in a test as in production
 * (`AttachmentTooLarge`). The runtime serialises with V8's structured clone; the bound follows
 * its format (a version header, a tag and a length per value, one byte per character of a
 * Latin-1 string and two otherwise, at most 9 bytes per number) and rounds every length up to the
 * largest it can be, so it may refuse a little early, never late (spec: against `node:v8`).
 *
 * Portable: no node:* imports, no Buffer.
 */

/** The largest attachment Cloudflare keeps with a WebSocket, in serialised bytes. */
export const ATTACHMENT_LIMIT = 2048

// The serialiser's header: a tag and the format version.
const HEADER = 3
// A number other than a small integer: a tag and a double.
const DOUBLE = 9

// A length or count: a base-128 varint.
const varint = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5)

// A tag and a length.
const tagged = (n: number): number => 1 + varint(n)

// A number: a small integer may be written shorter, but only when V8 holds it as one, which
// JavaScript cannot see (an integral result of arithmetic may be a double): always a double.
const numberSize = (_n: number): number => DOUBLE

// Latin-1 text is a byte per character; other text two, and one byte that may align it.
const stringSize = (s: string): number => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return 1 + tagged(2 * s.length) + 2 * s.length
  return tagged(s.length) + s.length
}

const sizeOf = (value: unknown, seen: Set<object>): number => {
  switch (typeof value) {
    case 'string':
      return stringSize(value)
    case 'number':
      return numberSize(value)
    case 'bigint':
      return 6 + 8 * Math.ceil((value.toString(16).length + 1) / 16)
    case 'boolean':
    case 'undefined':
      return 1
    case 'object':
      break
    default:
      // A function or symbol cannot be cloned at all: the runtime throws, whatever its size.
      return 1
  }
  if (value === null) return 1
  // A repeated object is written as a reference to the first.
  if (seen.has(value)) return 6
  seen.add(value)
  if (value instanceof Date) return DOUBLE
  // A view: its buffer (tag, length, bytes), then its own tag, kind, offset, length and flags.
  if (ArrayBuffer.isView(value)) return tagged(value.buffer.byteLength) + value.buffer.byteLength + 4 + varint(value.byteOffset) + varint(value.byteLength) + 4
  if (value instanceof ArrayBuffer) return tagged(value.byteLength) + value.byteLength
  if (value instanceof Map || value instanceof Set) {
    let size = 2 + varint(2 * value.size)
    for (const [k, v] of value.entries()) size += value instanceof Map ? sizeOf(k, seen) + sizeOf(v, seen) : sizeOf(k, seen)
    return size
  }
  const entries = Object.entries(value)
  if (!Array.isArray(value)) return entries.reduce((size, [k, v]) => size + stringSize(k) + sizeOf(v, seen), 2 + varint(entries.length))
  // A dense array: its length at both ends and the count of its properties; a holey one may be
  // written sparse instead (each element with its index), or dense with a byte per hole.
  const holes = value.length - entries.filter(([k]) => /^\d+$/.test(k)).length
  let size = 2 + 2 * varint(value.length) + varint(entries.length) + holes
  for (const [k, v] of entries) size += (/^\d+$/.test(k) ? (holes > 0 ? numberSize(Number(k)) : 0) : stringSize(k)) + sizeOf(v, seen)
  return size
}

/**
 * An upper bound on the bytes `value` takes serialised as an attachment.
 *
 * @example
 * attachmentSize({ id: 1, rooms: [] }) <= ATTACHMENT_LIMIT // true
 * attachmentSize('x'.repeat(3000)) > ATTACHMENT_LIMIT // true
 */
export const attachmentSize = (value: unknown): number => HEADER + sizeOf(value, new Set())

/**
 * A change to a client that would make its attachment larger than Cloudflare keeps: thrown by
 * `setClientData` and `joinRoom` on Workers (nothing is changed), so the handler fails with
 * `handler_error` and the error hook logs this message, unless the handler catches it.
 */
export class AttachmentTooLarge extends Error {
  readonly _tag = 'AttachmentTooLarge'

  constructor(
    readonly clientId: number,
    readonly change: string,
    readonly size: number,
    readonly limit: number = ATTACHMENT_LIMIT,
  ) {
    super(
      `twinport/workers: ${change} for client ${clientId} would make its attachment about ${size} bytes, past the ${limit} Cloudflare keeps with a WebSocket ` +
        '(client data, rooms and the upgrade target live there): keep client data small, e.g. an id, and the rest in storage',
    )
    this.name = 'AttachmentTooLarge'
  }
}
