/**
 * An HTTP/1.1 connection: feeds the socket's bytes to the pure request parser, answers
 * pipelined requests in order (RFC 9112 §9.3.2), sends `100 Continue` when asked, honours
 * `Connection: close`, hands a valid WebSocket upgrade to the server, and enforces the
 * head, request and keep-alive time-outs (checked by the server's periodic sweep).
 */
import type { Socket } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { httpErrorResponse } from '../core/http/http-error-response.js'
import type { HttpLimits } from '../core/http/http-limits.js'
import { type HttpNeedMore, parseHttpRequest } from '../core/http/parse-http-request.js'
import { errorResponse } from '../core/http/response.js'
import { serializeResponse } from '../core/http/serialize-response.js'
import type { Header, HttpRequest, Response } from '../core/http/types.js'
import { isWebSocketUpgrade } from '../core/ws/validate-upgrade.js'
import { createByteQueue } from './byte-queue.js'
import { httpDate } from './http-date.js'
import type { Limits } from './limits.js'

export interface HttpSessionDeps {
  readonly limits: Limits
  /** Answers one request (middleware, routes, CORS): synchronously when it can; never rejects. */
  readonly respond: (request: HttpRequest) => Response | Promise<Response>
  /**
   * Decides a WebSocket upgrade request: a Response refuses it (sent, then the connection
   * closes); `undefined` accepts it.
   */
  readonly decideUpgrade: (request: HttpRequest) => Response | undefined | Promise<Response | undefined>
  /** Hands the socket to the WebSocket side, with `rest` as its first bytes. */
  readonly takeOver: (request: HttpRequest, rest: Uint8Array) => void
  /** Corks the socket until the current batch of work is flushed (asynchronous answers only). */
  readonly hold: () => void
  /** Whether the server is shutting down: no more keep-alive. */
  readonly draining: () => boolean
  readonly debug: (message: string, context: Readonly<Record<string, unknown>>) => void
}

export interface HttpSession {
  receive(chunk: Uint8Array): void
  /** Enforces the time-outs at time `now` (milliseconds). */
  sweep(now: number): void
  /** Closes the connection once the responses owed are sent (graceful shutdown, or the peer ended its side). */
  finish(): void
}

// One response owed, in request order; `bytes` is set when it is ready. An upgrade
// request waits for its decision: a refusal to send, or the hand-over.
interface Slot {
  bytes: Uint8Array | undefined
  readonly close: boolean
  readonly upgrade: HttpRequest | undefined
  decision?: { readonly refusal: Response | undefined }
}

// A settled promise to queue a microtask on (cheaper than queueMicrotask, which sets up an
// async resource per call).
const RESOLVED = Promise.resolve()

// Responses written together are joined into one buffer up to this size.
const JOIN_LIMIT = 64 * 1024

// Whether any header is named `Upgrade` (any case): only then can the request be a WebSocket
// handshake, so the full check is skipped for every other request.
const mayUpgrade = (headers: readonly Header[]): boolean => {
  for (let i = 0; i < headers.length; i++) {
    const name = (headers[i] as Header)[0]
    if (name.length === 7 && name.toLowerCase() === 'upgrade') return true
  }
  return false
}

const CONTINUE = new TextEncoder().encode('HTTP/1.1 100 Continue\r\n\r\n')

export const startHttpSession = (socket: Socket, deps: HttpSessionDeps): HttpSession => {
  const { limits } = deps
  const httpLimits: HttpLimits = {
    maxRequestLine: limits.maxRequestLine,
    maxHeaderBytes: limits.maxHeaderBytes,
    maxHeaders: limits.maxHeaders,
    maxBody: limits.maxBody,
  }
  const queue = createByteQueue()
  const slots: Slot[] = []
  let resume: HttpNeedMore | undefined
  let stopped = false // no more requests are read: close, error, upgrade, or shutdown
  let continued = false // 100 Continue sent for the request in progress
  let firstRequest = true
  let finishing = false // end the connection once every owed response is written
  let requestStartedAt = 0
  let idleSince = Date.now()

  // Responses ready together leave in one write: views adjacent in one buffer (consecutive
  // responses from the serializer's pool) are joined without copying, others are copied once.
  let out: Uint8Array | undefined
  let outParts: Uint8Array[] | undefined
  const gather = (bytes: Uint8Array): void => {
    if (out === undefined) out = bytes
    else if (out.buffer === bytes.buffer && out.byteOffset + out.length === bytes.byteOffset) {
      out = new Uint8Array(out.buffer, out.byteOffset, out.length + bytes.length)
    } else {
      ;(outParts ??= []).push(out)
      out = bytes
    }
  }
  const send = (): void => {
    if (out === undefined) return
    const parts = outParts
    const last = out
    out = undefined
    outParts = undefined
    if (parts === undefined) socket.write(last)
    else {
      parts.push(last)
      let total = 0
      for (const p of parts) total += p.length
      if (total > JOIN_LIMIT) for (const p of parts) socket.write(p)
      else {
        const joined = new Uint8Array(total)
        let at = 0
        for (const p of parts) {
          joined.set(p, at)
          at += p.length
        }
        socket.write(joined)
      }
    }
  }

  const flush = (): void => {
    while (slots.length > 0) {
      const head = slots[0] as Slot
      if (head.upgrade !== undefined) {
        if (head.decision === undefined) return send()
        send()
        slots.shift()
        const rest = queue.bytes()
        queue.clear()
        if (head.decision.refusal === undefined) return deps.takeOver(head.upgrade, rest)
        socket.end(serializeResponse(head.decision.refusal, { keepAlive: false, date: httpDate() }))
        return
      }
      if (head.bytes === undefined) return send()
      slots.shift()
      gather(head.bytes)
      if (head.close) {
        send()
        socket.end()
        return
      }
    }
    send()
    idleSince = Date.now()
    if (finishing && !socket.writableEnded) socket.end()
  }

  let flushQueued = false
  const queuedFlush = (): void => {
    flushQueued = false
    flush()
  }

  const answerNow = (res: Response, close: boolean): void => {
    stopped = true
    slots.push({ bytes: serializeResponse(res, { keepAlive: !close, date: httpDate() }), close, upgrade: undefined })
    flush()
  }

  // An answer given synchronously is serialized at once and written when the chunk is parsed;
  // an asynchronous one corks the socket, so answers settling in the same turn leave together.
  const dispatch = (request: HttpRequest, date: string): void => {
    const keepAlive = request.keepAlive && !deps.draining()
    if (!keepAlive) stopped = true
    const answer = deps.respond(request)
    if (!(answer instanceof Promise)) {
      const bytes = serializeResponse(answer, { keepAlive, head: request.method === 'HEAD', date, protocol: request.protocol })
      slots.push({ bytes, close: !keepAlive, upgrade: undefined })
      return
    }
    const slot: Slot = { bytes: undefined, close: !keepAlive, upgrade: undefined }
    slots.push(slot)
    deps.hold()
    void answer.then((res) => {
      slot.bytes = serializeResponse(res, { keepAlive, head: request.method === 'HEAD', date: httpDate(), protocol: request.protocol })
      // Flushed once after every answer settled in this turn, so pipelined answers leave together.
      if (slots[0] === slot && !flushQueued) {
        flushQueued = true
        void RESOLVED.then(queuedFlush)
      }
    })
  }

  const parse = (): void => {
    let bytes = queue.bytes()
    const date = httpDate()
    while (bytes.length > 0 && !stopped) {
      const step = parseHttpRequest(bytes, httpLimits, resume)
      if (E.isLeft(step)) {
        queue.clear()
        resume = undefined
        // Not HTTP at all (a TLS hello on the plain port, say): nothing useful to answer.
        if (firstRequest && step.left._tag === 'InvalidMethod' && step.left.offset === 0) {
          deps.debug('connection closed: not HTTP', { firstByte: bytes[0] })
          stopped = true
          socket.destroy()
          return
        }
        deps.debug('bad request', { tag: step.left._tag, status: step.left.status })
        return answerNow(httpErrorResponse(step.left), true)
      }
      const result = step.right
      if (result._tag === 'NeedMore') {
        if (resume === undefined) requestStartedAt = Date.now()
        resume = result
        if (!continued && result.resume._tag !== 'Head' && result.resume.head.expectContinue && slots.length === 0) {
          continued = true
          socket.write(CONTINUE)
        }
        queue.keep(bytes)
        queue.waitFor(result.atLeast)
        return
      }
      resume = undefined
      continued = false
      firstRequest = false
      bytes = result.rest
      const request = result.value
      if (mayUpgrade(request.headers) && isWebSocketUpgrade(request)) {
        stopped = true
        queue.keep(bytes)
        const slot: Slot = { bytes: undefined, close: false, upgrade: request }
        slots.push(slot)
        const decide = (refusal: Response | undefined): void => {
          slot.decision = { refusal }
          if (slots[0] === slot) flush()
        }
        const decided = deps.decideUpgrade(request)
        if (decided instanceof Promise) void decided.then(decide)
        else decide(decided)
        return
      }
      dispatch(request, date)
    }
    queue.keep(stopped ? new Uint8Array(0) : bytes)
  }

  return {
    receive(chunk) {
      if (stopped) {
        // Bytes after an upgrade request belong to the WebSocket: keep them for it.
        if (slots.some((s) => s.upgrade !== undefined)) queue.push(chunk)
        return
      }
      if (queue.length === 0) requestStartedAt = Date.now()
      if (!queue.push(chunk)) return
      parse()
      // What was answered synchronously leaves now, in one write.
      if (slots.length > 0 && (slots[0] as Slot).bytes !== undefined) flush()
    },
    sweep(now) {
      if (socket.destroyed || socket.writableEnded) return
      if (!stopped && queue.length > 0) {
        const headMissing = resume === undefined || resume.resume._tag === 'Head'
        const allowed = headMissing ? limits.headerTimeoutMs : limits.requestTimeoutMs
        if (now - requestStartedAt > allowed) {
          deps.debug('request time-out', { headMissing })
          queue.clear()
          answerNow(errorResponse(408, 'Request Timeout'), true)
        }
        return
      }
      if (slots.length === 0 && queue.length === 0 && now - idleSince > limits.keepAliveTimeoutMs) socket.end()
    },
    finish() {
      stopped = true
      finishing = true
      if (slots.length === 0) socket.end()
    },
  }
}
