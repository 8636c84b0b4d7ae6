/**
 * `HubMembers`: the clients of one hub (a Durable Object) while it is awake: by id, and the
 * members of each room. The sockets and their attachments are the truth (they outlive
 * hibernation); this index is rebuilt from them (`getWebSockets`) on the first event after a
 * wake, and every change of a client's rooms or data is written to its attachment first.
 *
 * Portable: no node:* imports, no Buffer.
 */
import { type Attachment, isAttachment, type RoomOf } from './attachment.js'
import { ATTACHMENT_LIMIT, AttachmentTooLarge, attachmentSize } from './attachment-size.js'
import type { DurableObjectStateLike, WorkerWebSocket } from './workers-api.js'

/** One client of the hub: its socket, its attachment, and the turn its messages wait for (in order). */
export interface Member {
  readonly socket: WorkerWebSocket
  attachment: Attachment
  turn: Promise<void>
}

// A room's key joins namespace and room with a character no namespace starts with.
const keyOf = (namespace: string, room: string): string => `${namespace}\u0000${room}`

// What `gone: true` adds to an attachment, at most.
const GONE_ROOM = 16

/**
 * The size of an attachment larger than a socket may keep (`ATTACHMENT_LIMIT`, less the room
 * kept for the mark of a client the hub closes, so that one always fits); `undefined` when it fits.
 *
 * @example
 * oversize({ id: 1, rooms: [], target: '/chat', headers: [] }) // undefined
 */
export const oversize = (attachment: Attachment): number | undefined => {
  const size = attachmentSize(attachment) + (attachment.gone === true ? 0 : GONE_ROOM)
  return size > ATTACHMENT_LIMIT ? size : undefined
}

/** The default namespace: rooms named without one are in it. */
export const DEFAULT_NAMESPACE = '/'

export class HubMembers {
  private members: Map<number, Member> | undefined
  private readonly rooms = new Map<string, Set<number>>()

  constructor(private readonly state: DurableObjectStateLike) {}

  // The index, built once per wake from the sockets the runtime still holds.
  private index(): Map<number, Member> {
    if (this.members !== undefined) return this.members
    const members = new Map<number, Member>()
    this.members = members
    for (const socket of this.state.getWebSockets()) {
      const attachment: unknown = socket.deserializeAttachment()
      if (!isAttachment(attachment) || attachment.gone === true) continue
      members.set(attachment.id, { socket, attachment, turn: Promise.resolve() })
      for (const [namespace, room] of attachment.rooms) this.roomSet(namespace, room).add(attachment.id)
    }
    return members
  }

  private roomSet(namespace: string, room: string): Set<number> {
    const key = keyOf(namespace, room)
    let set = this.rooms.get(key)
    if (set === undefined) this.rooms.set(key, (set = new Set()))
    return set
  }

  /** A client just accepted (its attachment already written). */
  add(socket: WorkerWebSocket, attachment: Attachment): Member {
    const member: Member = { socket, attachment, turn: Promise.resolve() }
    this.index().set(attachment.id, member)
    return member
  }

  /** The member a socket is, or `undefined` for a socket that is not (or no longer) a client. */
  of(socket: WorkerWebSocket): Member | undefined {
    const attachment: unknown = socket.deserializeAttachment()
    return isAttachment(attachment) ? this.index().get(attachment.id) : undefined
  }

  /** The member of id `clientId`. */
  byId(clientId: number): Member | undefined {
    return this.index().get(clientId)
  }

  /** Every member, in the order they came. */
  all(): IterableIterator<Member> {
    return this.index().values()
  }

  /** The ids of every member. */
  ids(): number[] {
    return [...this.index().keys()]
  }

  /** The members of a room, in the order they joined. */
  inRoom(room: string, namespace: string = DEFAULT_NAMESPACE): Member[] {
    const index = this.index()
    const ids = this.rooms.get(keyOf(namespace, room))
    return ids === undefined ? [] : [...ids].flatMap((id) => index.get(id) ?? [])
  }

  /**
   * The receivers of a broadcast in this hub: every client is in the default namespace, so a
   * target naming another namespace without a room reaches nobody; `except` is left out.
   */
  receivers(target: { readonly namespace?: string; readonly room?: string; readonly except?: number } | undefined): Member[] {
    const except = target?.except
    const namespace = target?.namespace
    let found: Member[]
    if (target?.room !== undefined) found = this.inRoom(target.room, namespace ?? DEFAULT_NAMESPACE)
    else if (namespace !== undefined && namespace !== DEFAULT_NAMESPACE) found = []
    else found = [...this.all()]
    return except === undefined ? found : found.filter((m) => m.attachment.id !== except)
  }

  /** The highest client id among the sockets the runtime still holds, closing ones too (a new id must not reuse them). */
  highestId(): number {
    let highest = 0
    for (const socket of this.state.getWebSockets()) {
      const attachment: unknown = socket.deserializeAttachment()
      if (isAttachment(attachment)) highest = Math.max(highest, attachment.id)
    }
    return highest
  }

  /**
   * Changes a member's attachment: the socket keeps it first. One larger than Cloudflare keeps
   * (`ATTACHMENT_LIMIT`, checked here since workerd run locally does not) changes nothing and
   * answers its size; `undefined` when written.
   */
  update(member: Member, attachment: Attachment): number | undefined {
    const size = oversize(attachment)
    if (size !== undefined) return size
    member.socket.serializeAttachment(attachment)
    member.attachment = attachment
    return undefined
  }

  /** Puts a member in a room (nothing when it is there already); throws `AttachmentTooLarge`, not joined, past the limit. */
  join(member: Member, room: string, namespace: string = DEFAULT_NAMESPACE): void {
    if (member.attachment.rooms.some(([n, r]) => n === namespace && r === room)) return
    const rooms: readonly RoomOf[] = [...member.attachment.rooms, [namespace, room]]
    const tooLarge = this.update(member, { ...member.attachment, rooms })
    if (tooLarge !== undefined) throw new AttachmentTooLarge(member.attachment.id, `joinRoom('${room}')`, tooLarge)
    this.roomSet(namespace, room).add(member.attachment.id)
  }

  /** Takes a member out of a room. */
  leave(member: Member, room: string, namespace: string = DEFAULT_NAMESPACE): void {
    const rooms = member.attachment.rooms.filter(([n, r]) => !(n === namespace && r === room))
    if (rooms.length === member.attachment.rooms.length) return
    this.update(member, { ...member.attachment, rooms })
    this.forget(member.attachment.id, namespace, room)
  }

  private forget(clientId: number, namespace: string, room: string): void {
    const key = keyOf(namespace, room)
    const set = this.rooms.get(key)
    set?.delete(clientId)
    if (set?.size === 0) this.rooms.delete(key)
  }

  /** A member is gone: out of every room and of the index. */
  remove(member: Member): void {
    const { id, rooms } = member.attachment
    for (const [namespace, room] of rooms) this.forget(id, namespace, room)
    this.index().delete(id)
  }
}
