/**
 * Streamed bodies without a server (DESIGN §2: a route table is tested as data): a request
 * body given as bytes over time, the exchange a dispatch hands to the handler, and a streamed
 * answer read back whole. What `dispatchHttp` needs to run a route declared
 * `{ body: 'stream' }` in process, and what a test needs to read what it answered.
 *
 * Pure and portable: no node:* imports.
 */
import type { BodyStream, ExchangeOwner } from './body-stream.js'
import { isStreamBody } from './stream-body.js'
import type { Response } from './types.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const join = (parts: readonly Uint8Array[]): Uint8Array => {
  let size = 0
  for (const part of parts) size += part.length
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * A `BodyStream` over pieces given in advance or produced over time (strings as UTF-8).
 *
 * @example
 * const body = bodyStreamOf(['hello ', 'world'])
 * await body.text() // 'hello world'
 */
export const bodyStreamOf = (pieces: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>, length?: number): BodyStream => {
  let taken = false
  const take = (): void => {
    if (taken) throw new TypeError('the request body is being read already (read it once, one way)')
    taken = true
  }
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for await (const piece of pieces) yield typeof piece === 'string' ? encoder.encode(piece) : piece
  }
  const body: BodyStream = {
    length,
    [Symbol.asyncIterator]: () => {
      take()
      return bytes()
    },
    stream: () => {
      take()
      const source = bytes()
      return new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const step = await source.next()
          if (step.done === true) controller.close()
          else controller.enqueue(step.value)
        },
        cancel: async () => void (await source.return(undefined)),
      })
    },
    bytes: async () => {
      take()
      const parts: Uint8Array[] = []
      for await (const part of bytes()) parts.push(part)
      return join(parts)
    },
    text: async () => decoder.decode(await body.bytes()),
  }
  return body
}

/**
 * The exchange a dispatch hands to a handler in process: its streamed body (for a route
 * declared `{ body: 'stream' }`) and its signal (abort it to play a client that went away).
 * Pass it as `dispatchHttp(compiled, request, options, exchangeOf({ body }))`.
 *
 * @example
 * const controller = new AbortController()
 * const owner = exchangeOf({ body: bodyStreamOf(['a=1']), signal: controller.signal })
 */
export const exchangeOf = (parts: { readonly body?: BodyStream; readonly signal?: AbortSignal }): ExchangeOwner => {
  const signal = parts.signal ?? new AbortController().signal
  return { signalOf: () => signal, bodyOf: () => parts.body }
}

/**
 * The whole body of an answer as bytes: a streamed body read to its end (strings as UTF-8),
 * text as UTF-8, bytes as they are, data as its JSON text.
 *
 * @example
 * await readResponseBody(stream((async function* () { yield 'a'; yield 'b' })())) // bytes of 'ab'
 */
export const readResponseBody = async (res: Response): Promise<Uint8Array> => {
  const body = res.body
  if (body === undefined || body === null) return new Uint8Array(0)
  if (typeof body === 'string') return encoder.encode(body)
  if (body instanceof Uint8Array) return body
  if (!isStreamBody(body)) return encoder.encode(JSON.stringify(body))
  const parts: Uint8Array[] = []
  const source = body.source
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader()
    for (let step = await reader.read(); step.done !== true; step = await reader.read()) parts.push(step.value)
  } else for await (const piece of source as AsyncIterable<Uint8Array | string>) parts.push(typeof piece === 'string' ? encoder.encode(piece) : piece)
  return join(parts)
}
