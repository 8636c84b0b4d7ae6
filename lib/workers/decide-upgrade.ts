/**
 * `decideUpgrade`: the Worker's side of a WebSocket upgrade, before any hub is woken: the
 * core validates the handshake (RFC 6455 §4.2.1: method, version, key, allowed origins,
 * subprotocol), then the HTTP middleware sees it like any request, as on every other runtime
 * (authentication, logging), and may refuse it, add headers to the 101, or give the client its
 * first data (`ctx.handshake`). A refusal to a client that asked for it (`tp_c=1`) is a close
 * code after a 101 instead of a status. Nothing here holds state: it runs in the stateless
 * Worker, so a refused or unauthenticated client never reaches a Durable Object.
 *
 * Portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { errorResponse } from '../core/http/response.js'
import { internalError } from '../core/route/settle-answer.js'
import { withHeader } from '../core/http/response-updates.js'
import type { Header, HttpRequest, Response as Answer } from '../core/http/types.js'
import type { HttpStack } from '../core/route/compose-http.js'
import type { Handshake } from '../core/route/handshake.js'
import type { HttpContext } from '../core/route/http-context.js'
import { inertHttpContext } from '../core/route/inert-http-context.js'
import { type AppClose, refusalClose, wantsRefusalClose } from '../core/ws/app-close.js'
import { type UpgradeOptions, validateUpgrade } from '../core/ws/validate-upgrade.js'
import type { Handoff } from './hub-class.js'

/** What the Worker does with an upgrade: answer it with a status, close it with a code, or hand it to a hub. */
export type UpgradeVerdict =
  | { readonly _tag: 'Refused'; readonly answer: Answer }
  | { readonly _tag: 'Closed'; readonly close: AppClose }
  | { readonly _tag: 'Handed'; readonly handoff: Handoff }

/** What deciding needs: the handshake options, the composed HTTP middleware, where a thrown error goes. */
export interface UpgradeRules {
  readonly options: UpgradeOptions
  readonly stack: HttpStack | undefined
  readonly now: () => number
  readonly onHttpError: (error: unknown, request: HttpRequest) => void
}

// What the middleware is given to accept an upgrade with (a status 101 without body).
const UPGRADE_ACCEPTED = errorResponse(101, 'Switching Protocols')

const reasonOf = (res: Answer): string => {
  const body = res.body as { readonly error?: unknown } | null | undefined
  return typeof body === 'object' && body !== null && typeof body.error === 'string' ? body.error : ''
}

const handshakeOf = (data: Record<string, unknown>): Handshake => ({
  setClientData: (key, value) => void (data[key] = value),
  getClientData: (key) => (key === undefined ? { ...data } : data[key]),
})

/**
 * The verdict on `request`, an upgrade request (`Upgrade: websocket`).
 *
 * @example
 * const verdict = await decideUpgrade(rules, httpRequestOfWeb(request, targetOf(request.url), new Uint8Array(0)))
 * if (verdict._tag === 'Handed') await stub.fetch(withHandoff(request, verdict.handoff))
 */
export const decideUpgrade = async (rules: UpgradeRules, request: HttpRequest): Promise<UpgradeVerdict> => {
  const checked = validateUpgrade(request, rules.options)
  if (E.isLeft(checked)) {
    const { status, reason, headers } = checked.left
    return { _tag: 'Refused', answer: headers.reduce((res, [name, value]) => withHeader(res, name, value), errorResponse(status, reason)) }
  }
  const chosen: Header[] = checked.right.protocol === undefined ? [] : [['Sec-WebSocket-Protocol', checked.right.protocol]]
  if (rules.stack === undefined) return { _tag: 'Handed', handoff: { headers: chosen } }
  const data: Record<string, unknown> = {}
  const ctx: HttpContext = { ...inertHttpContext, now: rules.now, handshake: handshakeOf(data) }
  let res: Answer
  try {
    res = await rules.stack(request, ctx, async () => UPGRADE_ACCEPTED)
  } catch (error) {
    rules.onHttpError(error, request)
    return { _tag: 'Refused', answer: internalError() }
  }
  if (res.status !== 101) {
    const close = wantsRefusalClose(request.rawQuery) ? refusalClose(res.status, reasonOf(res)) : undefined
    return close === undefined ? { _tag: 'Refused', answer: res } : { _tag: 'Closed', close }
  }
  const headers = [...chosen, ...res.headers]
  return { _tag: 'Handed', handoff: Object.keys(data).length === 0 ? { headers } : { headers, data } }
}
