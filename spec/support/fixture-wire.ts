/**
 * The line protocol between an integration spec (Node) and the fixture host that serves its
 * apps (spec/support/fixture-host.ts), in the same process or in a Bun or Deno child: one
 * JSON value per line. Values a JSON line cannot hold as such travel tagged: bytes as
 * base64, errors with name, message and stack, functions by name, bigints as text, cycles
 * cut. Runtime-neutral (no node:*, no Buffer): the child side runs in Bun and Deno too.
 */

/** A spec's request to the host; `id` pairs it with its answer. */
export type FixtureRequest =
  | { readonly id: number; readonly op: 'start'; readonly module: string; readonly app: string; readonly params: unknown; readonly options: unknown }
  | { readonly id: number; readonly op: 'call'; readonly server: number; readonly calls: readonly (readonly [string, ...unknown[]])[] }
  | { readonly id: number; readonly op: 'read'; readonly server: number; readonly path: string }
  | { readonly id: number; readonly op: 'probe'; readonly server: number; readonly name: string; readonly args: readonly unknown[] }
  | { readonly id: number; readonly op: 'sync' }

/** What the host says: an answer, a log entry of one of its servers, or that it is ready. */
export type FixtureMessage =
  | { readonly id: number; readonly ok: unknown }
  | { readonly id: number; readonly error: string }
  | { readonly log: number; readonly level: string; readonly message: string; readonly context: Readonly<Record<string, unknown>> }
  | { readonly ready: string }

/** What a started server is known by on the spec's side. */
export interface Started {
  readonly server: number
  readonly port: number
}

// base64 without Buffer or btoa's string limits: the tables are small and the inputs short.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

const toBase64 = (bytes: Uint8Array): string => {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0)
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + (b === undefined ? '=' : ALPHABET[(n >> 6) & 63]!) + (c === undefined ? '=' : ALPHABET[n & 63]!)
  }
  return out
}

const fromBase64 = (text: string): Uint8Array => {
  const clean = text.replace(/=+$/, '')
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4))
  let bits = 0
  let value = 0
  let at = 0
  for (const char of clean) {
    value = (value << 6) | ALPHABET.indexOf(char)
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[at++] = (value >> bits) & 0xff
    }
  }
  return out
}

// A plain JSON tree of `value`, with the tags above.
const toWire = (value: unknown, seen: Set<object>): unknown => {
  if (typeof value === 'bigint') return { $bigint: value.toString() }
  if (typeof value === 'function') return { $function: value.name }
  if (typeof value !== 'object' || value === null) return value
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) }
  if (value instanceof Error) return { $error: { name: value.name, message: value.message, stack: value.stack ?? '' } }
  if (seen.has(value)) return '[Circular]'
  seen.add(value)
  try {
    if (Array.isArray(value)) return value.map((item) => toWire(item, seen))
    if (value instanceof Set) return [...value].map((item) => toWire(item, seen))
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toWire(v, seen)]))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v, seen)]))
  } finally {
    seen.delete(value)
  }
}

const fromWire = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(fromWire)
  const record = value as Record<string, unknown>
  if (typeof record.$bytes === 'string') return fromBase64(record.$bytes)
  if (typeof record.$bigint === 'string') return BigInt(record.$bigint)
  if (typeof record.$error === 'object' && record.$error !== null) {
    const { name, message, stack } = record.$error as { name: string; message: string; stack: string }
    const error = new Error(message)
    error.name = name
    error.stack = stack
    return error
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fromWire(v)]))
}

/** One line (without its newline) holding `value`. */
export const encodeLine = (value: FixtureRequest | FixtureMessage): string => JSON.stringify(toWire(value, new Set()))

/** The value of a line, or undefined when the line is not one of ours (a stray print). */
export const decodeLine = <A extends FixtureRequest | FixtureMessage>(line: string): A | undefined => {
  if (!line.startsWith('{')) return undefined
  try {
    return fromWire(JSON.parse(line)) as A
  } catch {
    return undefined
  }
}

/** Splits a stream of text into lines: feed it chunks, it calls `line` for each whole one. */
export const lineSplitter = (line: (text: string) => void): ((chunk: string) => void) => {
  // A line's pieces wait in a list until its newline comes: a line of megabytes (a batch of
  // big broadcasts) is joined once, not copied and searched again with every chunk.
  let pieces: string[] = []
  return (chunk) => {
    let from = 0
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', from)) {
      pieces.push(chunk.slice(from, end))
      const text = pieces.length === 1 ? (pieces[0] as string) : pieces.join('')
      pieces = []
      from = end + 1
      if (text !== '') line(text)
    }
    if (from < chunk.length) pieces.push(chunk.slice(from))
  }
}
