/**
 * `Attachment`: everything a hub keeps of one WebSocket client, held by the socket itself
 * (`serializeAttachment`), so it survives the Durable Object's hibernation and nothing of an
 * idle client stays in memory: its id, its rooms, its client data, and the part of its upgrade
 * request its handlers see as `ctx.request`. Cloudflare bounds an attachment's size (2,048
 * bytes serialized, as documented; workerd run locally does not enforce it): the request keeps its target and a few headers only,
 * and a client whose data outgrows the bound makes `setClientData` throw.
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { Header, HttpRequest } from '../core/http/types.js'

/** A room a client is in: its namespace and its name. */
export type RoomOf = readonly [namespace: string, room: string]

/** One client of a hub, as its socket keeps it. */
export interface Attachment {
  readonly id: number
  readonly rooms: readonly RoomOf[]
  /** The client data (`setClientData`, and what the upgrade's middleware stored); absent while empty. */
  readonly data?: Readonly<Record<string, unknown>>
  /** The upgrade's request-target (path and query) and the headers kept of it. */
  readonly target: string
  readonly headers: readonly Header[]
  /** The hub closed this client (`disconnectClient`): its disconnect handlers already ran. */
  readonly gone?: true
}

/** The upgrade headers a client keeps for `ctx.request` (the rest would not fit the attachment). */
export const KEPT_HEADERS: readonly string[] = ['host', 'origin', 'user-agent', 'sec-websocket-protocol']

const NO_HEADERS: readonly Header[] = []
const NO_BODY = new Uint8Array(0)

/**
 * Whether `value` is an attachment this module wrote (a socket accepted by something else has none).
 *
 * @example
 * isAttachment({ id: 1, rooms: [], target: '/chat', headers: [] }) // true
 * isAttachment(null) // false
 */
export const isAttachment = (value: unknown): value is Attachment => {
  const a = value as Partial<Attachment> | null
  return typeof a === 'object' && a !== null && typeof a.id === 'number' && Array.isArray(a.rooms) && typeof a.target === 'string' && Array.isArray(a.headers)
}

/**
 * The attachment of a client just accepted: no rooms yet, the data the upgrade's middleware
 * stored, the headers of `KEPT_HEADERS`.
 *
 * @example
 * newAttachment(7, { target: '/chat?x=1', headers: [['host', 'a.test'], ['cookie', 'c=1']] }, undefined)
 * // { id: 7, rooms: [], target: '/chat?x=1', headers: [['host', 'a.test']] }
 */
export const newAttachment = (id: number, request: Pick<HttpRequest, 'target' | 'headers'>, data: Readonly<Record<string, unknown>> | undefined): Attachment => {
  const headers = request.headers.filter(([name]) => KEPT_HEADERS.includes(name.toLowerCase()))
  const base = { id, rooms: [], target: request.target, headers }
  return data === undefined || Object.keys(data).length === 0 ? base : { ...base, data }
}

/**
 * The `HttpRequest` a client's handlers see (`ctx.request`): a GET of the upgrade's target with
 * the kept headers.
 *
 * @example
 * requestOf({ id: 1, rooms: [], target: '/chat?room=a', headers: [['host', 'a.test']] }).rawQuery // 'room=a'
 */
export const requestOf = (attachment: Attachment): HttpRequest => {
  const { target } = attachment
  const q = target.indexOf('?')
  return {
    method: 'GET',
    target,
    path: q === -1 ? target : target.slice(0, q),
    rawQuery: q === -1 ? '' : target.slice(q + 1),
    protocol: 'HTTP/1.1',
    headers: attachment.headers,
    trailers: NO_HEADERS,
    body: NO_BODY,
    keepAlive: true,
    expectContinue: false,
  }
}
