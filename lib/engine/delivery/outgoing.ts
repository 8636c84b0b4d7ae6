/**
 * Server-to-client frames in one allocation each, portable: the frame is sized from the
 * text's UTF-8 length and the text encoded straight into it (`TextEncoder.encodeInto`).
 * An adapter may bring a faster writer (Node's native UTF-8 writer, `lib/runtime/node-frames.ts`).
 * Must not import `node:*`, Buffer or process.
 */
import type { RawMessage } from '../../core/route/raw-message.js'
import { encodeEvent } from '../../core/ws/envelope.js'
import { FIN_BINARY, FIN_TEXT, frameHeaderSize, writeFrameHeader } from '../../core/ws/frame-header.js'
import type { FrameWriter } from '../platform.js'

const encoder = new TextEncoder()

// RFC 3629: code units below 0x80 take one byte, below 0x800 two, surrogate pairs four
// (two units), everything else three. A lone surrogate becomes U+FFFD (three bytes), as
// encodeInto writes it.
const utf8Length = (text: string): number => {
  let length = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) continue
    if (unit < 0x800) length += 1
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 2
      i += 1
    } else length += 2
  }
  return length
}

/** The portable frame writer (the header by lib/core/ws/frame-header.ts, RFC 6455 §5.2). */
export const portableFrames: FrameWriter = {
  text(text) {
    const length = utf8Length(text)
    const frame = new Uint8Array(frameHeaderSize(length, false) + length)
    encoder.encodeInto(text, frame.subarray(writeFrameHeader(frame, 0, FIN_TEXT, length)))
    return frame
  },
  binary(data) {
    const length = data.length
    const frame = new Uint8Array(frameHeaderSize(length, false) + length)
    frame.set(data, writeFrameHeader(frame, 0, FIN_BINARY, length))
    return frame
  },
}

// The text message being dispatched now and the payload it arrived in (one unfragmented,
// uncompressed text frame): valid UTF-8 decodes and encodes back to the same bytes, so a reply
// or broadcast of that very message (an echo) is framed from them instead of encoding the text
// again. Set and cleared around one synchronous dispatch (`textArrived`, `textDispatched`):
// an answer that comes later, or a message changed by its handler, is encoded as usual. The
// connection sets it for texts from the general decoder (frames past 125 bytes, where a copy
// beats encoding); a small frame's text is encoded, which costs about what the copy does.
let arrivedMessage: RawMessage | undefined
let arrivedText = ''
let arrivedBytes: Uint8Array | undefined
let arrivedFrom = 0
let arrivedTo = 0

/**
 * A single-frame text message is about to be dispatched; its UTF-8, unmasked, is
 * `bytes[from, to)` (the whole of `bytes` by default).
 */
export const textArrived = (message: RawMessage & { readonly _tag: 'Text' }, bytes: Uint8Array, from = 0, to = bytes.length): void => {
  arrivedMessage = message
  arrivedText = message.text
  arrivedBytes = bytes
  arrivedFrom = from
  arrivedTo = to
}

/** The dispatch of the message given to `textArrived` has returned. */
export const textDispatched = (): void => {
  arrivedMessage = undefined
  arrivedText = ''
  arrivedBytes = undefined
}

/** A message without envelope as its frame. */
export const encodeRawFrame = (frames: FrameWriter, message: RawMessage): Uint8Array => {
  if (message._tag === 'Binary') return frames.binary(message.data)
  if (arrivedBytes === undefined || message !== arrivedMessage || message.text !== arrivedText) return frames.text(message.text)
  const payload = arrivedBytes.subarray(arrivedFrom, arrivedTo)
  // The same bytes in a frame of their own (a copy: the payload may be a view of a read buffer).
  const frame = frames.binary(payload)
  frame[0] = FIN_TEXT
  return frame
}

/** An event `{"event":…,"data":…}` as its text frame (throws on data JSON cannot hold). */
export const encodeEventFrame = (frames: FrameWriter, event: string, data: unknown): Uint8Array => frames.text(encodeEvent({ event, data }))
