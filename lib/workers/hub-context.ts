/**
 * `HubContext`: the `SocketContext` a hub's handlers receive (the seed's SocketController
 * operations), for one client of a Durable Object hub: sends and broadcasts reach the clients
 * of the same hub, rooms and client data live in the clients' attachments. Server requests
 * (`requestClient`, `requestRoom`) are not offered on Workers: they answer `not_supported`.
 * The operations are bound (arrow properties), so handlers may destructure them.
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { HttpRequest } from '../core/http/types.js'
import type { ClientAnswer } from '../core/route/client-answer.js'
import type { RawMessage } from '../core/route/raw-message.js'
import type { BroadcastTarget, SocketContext } from '../core/route/socket-context.js'
import { encodeEvent } from '../core/ws/envelope.js'
import { checkedClose } from '../engine/checked-close.js'
import { requestOf } from './attachment.js'
import { AttachmentTooLarge } from './attachment-size.js'
import { DEFAULT_NAMESPACE, type HubMembers, type Member } from './hub-members.js'

/** What a hub does for its clients' contexts. */
export interface HubOps {
  readonly members: HubMembers
  /** Sends a text or binary message to a member (nothing when its socket is closed). */
  sendTo(member: Member, message: string | Uint8Array): void
  /** Closes a member from the server's side: its disconnect handlers run now. */
  closeMember(member: Member, code: number, reason: string): void
}

const wireOf = (message: RawMessage): string | Uint8Array => (message._tag === 'Text' ? message.text : message.data)

const notSupported = <A>(clientId: number): ClientAnswer<A> => ({ _tag: 'Unanswered', clientId, error: 'not_supported' })

/**
 * The context of `member` in `hub`.
 *
 * @example
 * const ctx = new HubContext(hub, member)
 * await dispatchEvent(compiled, message, ctx, { middleware, onError })
 */
export class HubContext implements SocketContext {
  private kept: HttpRequest | undefined

  constructor(
    private readonly hub: HubOps,
    private readonly member: Member,
  ) {}

  get clientId(): number {
    return this.member.attachment.id
  }

  get request(): HttpRequest {
    return (this.kept ??= requestOf(this.member.attachment))
  }

  toJSON(): { readonly clientId: number; readonly request: HttpRequest } {
    return { clientId: this.clientId, request: this.request }
  }

  readonly emit = (event: string, data?: unknown): void => this.hub.sendTo(this.member, encodeEvent({ event, data }))

  readonly send = (clientId: number, event: string, data?: unknown): void => {
    const to = this.hub.members.byId(clientId)
    if (to !== undefined) this.hub.sendTo(to, encodeEvent({ event, data }))
  }

  readonly broadcast = (event: string, data?: unknown, target?: BroadcastTarget): void => {
    const text = encodeEvent({ event, data })
    for (const to of this.hub.members.receivers(target)) this.hub.sendTo(to, text)
  }

  readonly sendRaw = (message: RawMessage, clientId?: number): void => {
    const to = clientId === undefined ? this.member : this.hub.members.byId(clientId)
    if (to !== undefined) this.hub.sendTo(to, wireOf(message))
  }

  readonly broadcastRaw = (message: RawMessage, target?: BroadcastTarget): void => {
    const wire = wireOf(message)
    for (const to of this.hub.members.receivers(target)) this.hub.sendTo(to, wire)
  }

  readonly joinRoom = (room: string, namespace?: string): void => this.hub.members.join(this.member, room, namespace)

  readonly leaveRoom = (room: string, namespace?: string): void => this.hub.members.leave(this.member, room, namespace)

  readonly disconnectClient: SocketContext['disconnectClient'] = (clientId, options) => {
    const close = checkedClose(options)
    const to = clientId === undefined ? this.member : this.hub.members.byId(clientId)
    if (to !== undefined) this.hub.closeMember(to, close?.code ?? 1000, close?.reason ?? '')
  }

  readonly requestClient: SocketContext['requestClient'] = <A>(clientId: number) => Promise.resolve(notSupported<A>(clientId))

  readonly requestRoom: SocketContext['requestRoom'] = <A>(room: string, _event: string, _data?: unknown, options?: { readonly namespace?: string }) =>
    Promise.resolve(this.hub.members.inRoom(room, options?.namespace ?? DEFAULT_NAMESPACE).map((m) => notSupported<A>(m.attachment.id)))

  /** Throws `AttachmentTooLarge` (nothing stored) when the client's attachment would pass Cloudflare's 2,048 bytes. */
  readonly setClientData = (key: string, value: unknown): void => {
    const { attachment } = this.member
    const tooLarge = this.hub.members.update(this.member, { ...attachment, data: { ...attachment.data, [key]: value } })
    if (tooLarge !== undefined) throw new AttachmentTooLarge(attachment.id, `setClientData('${key}')`, tooLarge)
  }

  readonly getClientData = (key?: string): unknown => {
    const data = this.member.attachment.data ?? {}
    return key === undefined ? { ...data } : data[key]
  }
}
