/**
 * Server-to-client frames for Node, in one allocation from Node's pooled Buffer, filled by
 * its native UTF-8 writer: every event, ack and broadcast passes through here. Gives the
 * same bytes as the engine's portable writer and the core's `encodeFrameBytes`. Part of the shared runtime layer (lib/runtime/):
 * Node's and Bun's adapters use it (Bun has Node's Buffer); imports the engine's types and
 * `node:*`, never an adapter.
 */
import { Buffer } from 'node:buffer'
import { FIN_BINARY, FIN_TEXT, frameHeaderSize, writeFrameHeader } from '../core/ws/frame-header.js'
import type { FrameWriter } from '../engine/platform.js'

/** Node's frame writer (the header by lib/core/ws/frame-header.ts, RFC 6455 §5.2). */
export const nodeFrames: FrameWriter = {
  text(text) {
    const length = Buffer.byteLength(text, 'utf8')
    const frame = Buffer.allocUnsafe(frameHeaderSize(length, false) + length)
    frame.write(text, writeFrameHeader(frame, 0, FIN_TEXT, length), 'utf8')
    return frame
  },
  binary(data) {
    const length = data.length
    const frame = Buffer.allocUnsafe(frameHeaderSize(length, false) + length)
    frame.set(data, writeFrameHeader(frame, 0, FIN_BINARY, length))
    return frame
  },
}
