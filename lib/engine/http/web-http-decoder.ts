/**
 * `webHttpDecoder`: the `HttpDecoder` on the web `DecompressionStream` (gzip and deflate, the
 * formats every runtime with the API has), for a platform that brings no decoder of its own
 * (`toFetch`'s, where `node:zlib` may not exist). The body is pulled through the stream: a
 * piece of the source is written only when the stream asks for more (its `pull`), and the
 * reader's `return()` cancels it.
 *
 * Portable: no node:* imports, no Buffer; uses the global `DecompressionStream` when there is one.
 */
import type { HttpDecoder, RequestCoding } from '../../core/http/decompress/http-decoder.js'

type Decompression = new (format: 'gzip' | 'deflate') => TransformStream<Uint8Array, Uint8Array>

async function* inflated(Stream: Decompression, coding: 'gzip' | 'deflate', source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const pieces = source[Symbol.asyncIterator]()
  let failure: { readonly error: unknown } | undefined
  const input = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        try {
          const step = await pieces.next()
          if (step.done === true) controller.close()
          else controller.enqueue(step.value)
        } catch (error) {
          failure ??= { error }
          controller.error(error)
        }
      },
      cancel: async () => void (await pieces.return?.()),
    },
    { highWaterMark: 0 },
  )
  const reader = input.pipeThrough(new Stream(coding)).getReader()
  let done = false
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>
      try {
        step = await reader.read()
      } catch (error) {
        throw failure === undefined ? error : failure.error
      }
      if (step.done) break
      yield step.value
    }
    done = true
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
  }
}

/**
 * The decoder, or `undefined` where the runtime has no `DecompressionStream`.
 *
 * @example
 * const decoder = platform.decompression?.() ?? webHttpDecoder()
 */
export const webHttpDecoder = (): HttpDecoder | undefined => {
  const Stream = (globalThis as { DecompressionStream?: Decompression }).DecompressionStream
  if (Stream === undefined) return undefined
  const codings: readonly RequestCoding[] = ['gzip', 'deflate']
  return {
    codings,
    decode: (coding, source) => ({ [Symbol.asyncIterator]: () => inflated(Stream, coding === 'deflate' ? 'deflate' : 'gzip', source) }),
  }
}
