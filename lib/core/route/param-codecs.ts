/**
 * Ready-made coercing codecs for path params, query values and headers, which arrive as
 * text: `intParam` (a safe integer), `numberParam`, `booleanParam`, `uuidParam`. Each
 * decodes the text and encodes back to it, and carries its JSON Schema for the generated
 * documents. Pure and portable: no node:* imports.
 */
import * as t from 'io-ts'
import { describeCodec } from './json-schema.js'

// Canonical decimal integers only: no sign on zero, no leading zeros, no exponent, no spaces.
const INTEGER = /^(?:0|-?[1-9][0-9]*)$/
// A JSON number's grammar (RFC 8259 §6), so `0x10`, `1e`, ` 1` and `Infinity` are refused.
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/
// RFC 9562 §4: 8-4-4-4-12 hex digits, either case.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

const fromText = <A>(name: string, is: (u: unknown) => u is A, parse: (text: string) => A | undefined, show: (a: A) => string): t.Type<A, string, unknown> =>
  new t.Type<A, string, unknown>(
    name,
    is,
    (input, context) => {
      const value = typeof input === 'string' ? parse(input) : undefined
      return value === undefined ? t.failure(input, context) : t.success(value)
    },
    show,
  )

const isNumber = (u: unknown): u is number => typeof u === 'number'

/**
 * A safe integer written in decimal (`'42'`, `'-7'`; not `'042'`, `'1e3'`, `'4.0'`).
 *
 * @example
 * httpRoute('GET', '/users/{id}', { params: t.type({ id: intParam }) }, (req) => req.input.params.id + 1)
 */
export const intParam = describeCodec(
  fromText(
    'integer',
    (u): u is number => Number.isSafeInteger(u),
    (text) => (INTEGER.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined),
    String,
  ),
  { type: 'integer' },
)

/** A finite number in JSON's notation (`'1.5'`, `'-2e3'`). */
export const numberParam = describeCodec(
  fromText('number', isNumber, (text) => (NUMBER.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined), String),
  { type: 'number' },
)

/** `'true'` or `'false'`, exactly. */
export const booleanParam = describeCodec(
  fromText(
    'boolean',
    (u): u is boolean => typeof u === 'boolean',
    (text) => (text === 'true' ? true : text === 'false' ? false : undefined),
    String,
  ),
  { type: 'boolean' },
)

/** A UUID (RFC 9562), as sent: `'0b9e4c1e-6a7f-4f0e-9f43-2f1d6c3b8a11'`. */
export const uuidParam = describeCodec(
  fromText(
    'uuid',
    (u): u is string => typeof u === 'string' && UUID.test(u),
    (text) => (UUID.test(text) ? text : undefined),
    (s) => s,
  ),
  { type: 'string', format: 'uuid' },
)
