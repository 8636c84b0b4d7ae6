/**
 * fast-check arbitraries for multipart bodies, shared by the property specs: boundaries from
 * RFC 2046 bchars, parts with names, filenames (plain or `filename*`), content types and data
 * rich in CR, LF, dashes and pieces of the boundary, and `buildBody`, which writes parts as a
 * client would (optionally with preamble, transport padding and epilogue).
 *
 * Test-only; portable (no node:*).
 */
import fc from 'fast-check'

/** A part to write. */
export interface PartSpec {
  readonly name: string
  readonly filename: string | undefined
  /** Write the filename as `filename*=UTF-8''...` instead of a quoted `filename`. */
  readonly extended: boolean
  readonly contentType: string | undefined
  readonly data: Uint8Array
}

/** A body to write. */
export interface BodySpec {
  readonly boundary: string
  readonly parts: readonly PartSpec[]
  readonly preamble: string
  readonly padding: readonly string[]
  readonly epilogue: string
}

const enc = (text: string): Uint8Array => new TextEncoder().encode(text)

const BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? "

/** An RFC 2046 boundary: 1..70 bchars, not ending in a space. */
export const boundaryArb: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...BCHARS.split('')), minLength: 1, maxLength: 70 })
  .filter((b) => !b.endsWith(' '))

// Names and filenames: any text but `%` (browsers' escapes are %-sequences), CR and LF; quotes and backslashes are escaped.
const textArb = (minLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.oneof(fc.constantFrom('a', 'Z', '"', '\\', ';', '=', ' ', "'", '.', 'é', '€', '😀'), fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c))), minLength, maxLength: 12 }).filter((s) => !/[%\r\n]/.test(s))

/** Data that often looks like a delimiter without being one. */
export const dataArb = (boundary: string): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc
      .array(fc.constantFrom('\r', '\n', '\r\n', '-', '--', `--${boundary.slice(0, -1)}`, boundary, 'x', ' '), { maxLength: 30 })
      .map((pieces) => enc(pieces.join(''))),
  )

const partArb = (boundary: string): fc.Arbitrary<PartSpec> =>
  fc.record({
    name: textArb(0),
    filename: fc.option(textArb(1), { nil: undefined }),
    extended: fc.boolean(),
    contentType: fc.option(fc.constantFrom('text/plain', 'application/octet-stream', 'image/png', 'text/csv; charset=utf-8'), { nil: undefined }),
    data: dataArb(boundary),
  })

const lwspArb = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 })

/** A whole body whose data never holds its delimiter. */
export const bodyArb: fc.Arbitrary<BodySpec> = boundaryArb
  .chain((boundary) =>
    fc.record({
      boundary: fc.constant(boundary),
      parts: fc.array(partArb(boundary), { maxLength: 5 }),
      preamble: fc.oneof(fc.constant(''), fc.string({ maxLength: 20 }).map((s) => `${s}\r\n`)),
      padding: fc.array(lwspArb, { minLength: 6, maxLength: 6 }),
      epilogue: fc.oneof(fc.constant(''), fc.string({ maxLength: 20 }).map((s) => `\r\n${s}`)),
    }),
  )
  .filter((spec) => {
    // The delimiter may appear nowhere but where the builder puts it (RFC 2046 §5.1.1).
    const delimiter = `\r\n--${spec.boundary}`
    const latin = (b: Uint8Array): string => String.fromCharCode(...b)
    return !`\r\n${spec.preamble}`.slice(0, -2).includes(delimiter) && spec.parts.every((p) => !latin(p.data).includes(delimiter))
  })

// RFC 8187 attr-char has no ' ( ) * (encodeURIComponent leaves them).
const extValue = (text: string): string => `UTF-8''${encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`

const quote = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/** The bytes of a body, written as a client would. */
export const buildBody = (spec: BodySpec): Uint8Array => {
  const pieces: Uint8Array[] = [enc(spec.preamble)]
  spec.parts.forEach((part, i) => {
    const filename =
      part.filename === undefined ? '' : part.extended ? `; filename*=${extValue(part.filename)}` : `; filename=${quote(part.filename)}`
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`
    pieces.push(enc(`--${spec.boundary}${spec.padding[i % spec.padding.length] ?? ''}\r\nContent-Disposition: form-data; name=${quote(part.name)}${filename}\r\n${type}\r\n`))
    pieces.push(part.data, enc('\r\n'))
  })
  pieces.push(enc(`--${spec.boundary}--${spec.padding[5] ?? ''}${spec.epilogue}`))
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** Cut points for a body of `length` bytes. */
export const cutsArb = (length: number): fc.Arbitrary<number[]> =>
  fc.uniqueArray(fc.integer({ min: 0, max: length }), { maxLength: 12 }).map((points) => points.sort((a, b) => a - b))
