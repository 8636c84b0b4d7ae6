/**
 * Streamed bodies without a server (DESIGN §2: a route table is tested as data): a request
 * body given as bytes over time, the exchange a dispatch hands to the handler, and a streamed
 * answer read back whole. What `dispatchHttp` needs to run a route declared
 * `{ body: 'stream' }` in process, and what a test needs to read what it answered. The
 * embedding glues (`attach`, `toFetch`) make their bodies with `bodyStreamOf` too.
 *
 * Pure and portable: no node:* imports.
 */
import { joinBytes } from '../join-bytes.js'
import type { BodyStream, ExchangeOwner } from './body-stream.js'
import { pullOf } from './pull-source.js'
import { isStreamBody } from './stream-body.js'
import type { Response } from './types.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

type Pieces = Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>

// The pieces as bytes; the source's iterator is made by the caller, so a source that refuses
// to be read throws where the reading starts. Stopping early stops the source.
async function* bytesOf(iterator: Iterator<Uint8Array | string> | AsyncIterator<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  let done = false
  try {
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) {
      yield typeof step.value === 'string' ? encoder.encode(step.value) : step.value
    }
    done = true
  } finally {
    if (!done) await iterator.return?.()
  }
}

/**
 * A `BodyStream` over pieces given in advance or produced over time (strings as UTF-8).
 *
 * @example
 * const body = bodyStreamOf(['hello ', 'world'])
 * await body.text() // 'hello world'
 */
export const bodyStreamOf = (pieces: Pieces, length?: number): BodyStream => {
  let taken = false
  const take = (): AsyncGenerator<Uint8Array> => {
    if (taken) throw new TypeError('the request body is being read already (read it once, one way)')
    taken = true
    return bytesOf(Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]())
  }
  const body: BodyStream = {
    length,
    [Symbol.asyncIterator]: take,
    stream: () => {
      const source = take()
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
      const parts: Uint8Array[] = []
      let size = 0
      for await (const part of take()) {
        parts.push(part)
        size += part.length
      }
      return joinBytes(parts, size)
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
  const pull = pullOf(body.source)
  const parts: Uint8Array[] = []
  let size = 0
  for (let step = await pull.next(); step.done !== true; step = await pull.next()) {
    const piece = typeof step.value === 'string' ? encoder.encode(step.value) : (step.value as Uint8Array)
    parts.push(piece)
    size += piece.length
  }
  return joinBytes(parts, size)
}
