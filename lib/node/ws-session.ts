/**
 * A WebSocket connection after the handshake: feeds the socket's bytes to the pure frame
 * decoder and message assembler, performs what they return (dispatch, pong, close), and
 * owns the close handshake (RFC 6455 §7). Holds no protocol knowledge of its own.
 */
import type { Socket } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import type { CompiledRoutes } from '../core/route/compiled-routes.js'
import { dispatchEvent } from '../core/route/dispatch-event.js'
import { dispatchRaw } from '../core/route/dispatch-raw.js'
import type { SocketContext } from '../core/route/socket-context.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import type { WsMiddleware } from '../core/middleware/ws-middleware.js'
import { type AssemblyState, assembleMessage, type Incoming, initialAssembly } from '../core/ws/assemble-message.js'
import { CLOSE_CODE } from '../core/ws/close-code.js'
import { decodeFrame } from '../core/ws/decode-frame.js'
import { encodeFrameBytes } from '../core/ws/encode-frame.js'
import { decodeEnvelope, encodeAck, encodeErrorEvent } from '../core/ws/envelope.js'
import type { EventId } from '../core/ws/event.js'
import type { FrameLimits } from '../core/ws/frame.js'
import { closeFrame, pingFrame, pongFrame } from '../core/ws/out-frame.js'
import { createByteQueue } from './byte-queue.js'
import type { Limits } from './limits.js'
import { encodeText } from './outgoing.js'

export interface WsSessionDeps {
  readonly limits: Limits
  readonly compiled: CompiledRoutes
  readonly wsMiddleware: readonly WsMiddleware[]
  readonly onError: WsErrorReporter
  /** Writes bytes to this client, respecting its send-buffer limit. */
  readonly write: (bytes: Uint8Array) => void
  /** Corks the socket until the current batch of work is flushed. */
  readonly hold: () => void
  /** Logs a protocol failure (debug level: it is the client's fault, not the server's). */
  readonly debug: (message: string, context: Readonly<Record<string, unknown>>) => void
}

export interface WsSession {
  /** Feeds bytes read from the socket. */
  receive(chunk: Uint8Array): void
  /** Starts the close handshake with `code` (RFC 6455 §7.1.2); data is no longer dispatched. */
  close(code: number, reason?: string): void
  /** Sends a ping when the client answered the last one, or ends it when it did not. */
  heartbeat(): void
}

export const startWsSession = (socket: Socket, ctx: SocketContext, deps: WsSessionDeps): WsSession => {
  const { limits, compiled } = deps
  const frameLimits: FrameLimits = { maxPayload: limits.maxFramePayload, requireMask: true }
  const messageLimits = { maxMessage: limits.maxMessage }
  const queue = createByteQueue()
  let assembly: AssemblyState = initialAssembly
  let closing = false
  let alive = true
  let closeTimer: NodeJS.Timeout | undefined

  const endSoon = (): void => {
    socket.end()
    closeTimer ??= setTimeout(() => socket.destroy(), limits.closeTimeoutMs)
    closeTimer.unref()
  }
  socket.once('close', () => {
    if (closeTimer !== undefined) clearTimeout(closeTimer)
  })

  const close = (code: number, reason = ''): void => {
    if (closing || socket.destroyed) return
    closing = true
    deps.write(encodeFrameBytes(closeFrame(code, reason)))
    // The client answers with its own close frame; then the server closes TCP first (§7.1.1).
    closeTimer = setTimeout(() => socket.destroy(), limits.closeTimeoutMs)
    closeTimer.unref()
  }

  // A protocol violation: say why, then close the TCP connection without waiting (§7.1.7).
  const fail = (code: number, reason: string, tag: string): void => {
    deps.debug('websocket connection failed', { clientId: ctx.clientId, closeCode: code, reason, tag })
    if (!closing) deps.write(encodeFrameBytes(closeFrame(code, reason)))
    closing = true
    queue.clear()
    endSoon()
  }

  const sendText = (text: string): void => deps.write(encodeText(text))

  // A return value JSON cannot hold (a cycle, a BigInt) is the handler's failure, not a crash.
  const sendAck = (id: EventId, value: unknown, event: string): void => {
    let text: string
    try {
      text = encodeAck(id, value)
    } catch (error) {
      deps.onError(error, { phase: 'event', clientId: ctx.clientId, event })
      text = encodeErrorEvent({ code: 'handler_error', message: `the answer of "${event}" is not JSON`, id })
    }
    sendText(text)
  }

  const onData = (message: Incoming & { readonly _tag: 'Text' | 'Binary' }): void => {
    if (compiled.raw !== undefined || message._tag === 'Binary') {
      void dispatchRaw(compiled, message, ctx, deps.onError).then((outcome) => {
        if (outcome._tag === 'Reply') ctx.sendRaw(outcome.message)
        else if (outcome._tag === 'NoRawRoute') close(outcome.closeCode, 'binary messages are not supported')
      })
      return
    }
    const envelope = decodeEnvelope(message.text)
    if (E.isLeft(envelope)) return sendText(encodeErrorEvent(envelope.left))
    void dispatchEvent(compiled, envelope.right, ctx, { middleware: deps.wsMiddleware, onError: deps.onError }).then((outcome) => {
      if (outcome._tag === 'Ack') sendAck(outcome.id, outcome.value, envelope.right.event)
      else if (outcome._tag === 'Failed') sendText(encodeErrorEvent(outcome.error))
    })
  }

  const onIncoming = (incoming: Incoming): void => {
    switch (incoming._tag) {
      case 'Text':
      case 'Binary':
        if (!closing) onData(incoming)
        return
      case 'Ping':
        if (!closing) deps.write(encodeFrameBytes(pongFrame(incoming.payload)))
        return
      case 'Pong':
        return
      case 'Close':
        // Echo the code when we did not start the close (§5.5.1), then close TCP.
        if (!closing) deps.write(encodeFrameBytes(closeFrame(incoming.code ?? CLOSE_CODE.NORMAL, '')))
        closing = true
        queue.clear()
        endSoon()
        return
    }
  }

  const drain = (): void => {
    let bytes = queue.bytes()
    while (bytes.length > 0 && !socket.destroyed) {
      const step = decodeFrame(bytes, frameLimits)
      if (E.isLeft(step)) return fail(step.left.closeCode, step.left.reason, step.left._tag)
      if (step.right._tag === 'NeedMore') {
        queue.keep(bytes)
        queue.waitFor(step.right.atLeast)
        return
      }
      bytes = step.right.rest
      const assembled = assembleMessage(assembly, step.right.value, messageLimits)
      if (E.isLeft(assembled)) return fail(assembled.left.closeCode, assembled.left.reason, assembled.left._tag)
      assembly = assembled.right.state
      if (assembled.right.output !== undefined) onIncoming(assembled.right.output)
      if (socket.writableEnded) return queue.clear()
    }
    queue.keep(bytes)
  }

  return {
    receive(chunk) {
      alive = true
      if (socket.writableEnded) return
      if (!queue.push(chunk)) return
      deps.hold()
      drain()
    },
    close,
    heartbeat() {
      if (!alive) {
        deps.debug('websocket client missed a heartbeat', { clientId: ctx.clientId })
        socket.destroy()
        return
      }
      alive = false
      if (!closing) deps.write(encodeFrameBytes(pingFrame()))
    },
  }
}
