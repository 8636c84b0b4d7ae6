/**
 * `createChatRooms`: the chat's own state, beside the server's room registry: each
 * client's name (unique, ignoring case), who is in which room (by name, for the member
 * list), and the last few messages of each room for newcomers. A room exists while someone is in it. The server's
 * registry decides who receives a broadcast; this state answers `GET /api/rooms` and fills
 * the notices. Plain data, no node:* imports, no I/O.
 */
import type { ChatMessage } from './chat-message.js'

/** Most rooms one client may be in at once. */
export const MAX_ROOMS_PER_CLIENT = 10
/** Messages a room remembers for people who join later. */
export const HISTORY_LENGTH = 20

/** Why a join was refused, or that it happened. */
export type JoinOutcome =
  | { readonly _tag: 'Joined'; readonly members: readonly string[]; readonly history: readonly ChatMessage[] }
  | { readonly _tag: 'AlreadyIn'; readonly members: readonly string[]; readonly history: readonly ChatMessage[] }
  | { readonly _tag: 'NameRequired' }
  | { readonly _tag: 'TooManyRooms'; readonly limit: number }

/** A room and how many are in it. */
export interface RoomSummary {
  readonly room: string
  readonly members: number
}

/** The chat state. Ids are the server's client ids. */
export interface ChatRooms {
  /**
   * Sets a client's name; answers the rooms the client is in (to tell them about it).
   * The caller checks `holderOf` first: names are unique.
   */
  setName(clientId: number, name: string): readonly string[]
  nameOf(clientId: number): string | undefined
  /** The client whose name is `name`, ignoring case ("Ada" is "ada"). */
  holderOf(name: string): number | undefined
  /**
   * Gives `from`'s name and rooms, in place in each member list, to `to` (a client with
   * no name yet: the same person on a new connection). Answers the rooms.
   */
  transfer(from: number, to: number): readonly string[]
  join(clientId: number, room: string): JoinOutcome
  /** False when the client was not in the room. */
  leave(clientId: number, room: string): boolean
  /** Drops the client everywhere; answers the rooms it was in. */
  forget(clientId: number): readonly string[]
  isIn(clientId: number, room: string): boolean
  roomsOf(clientId: number): readonly string[]
  /** The names in a room, in joining order; empty for a room that does not exist. */
  members(room: string): readonly string[]
  exists(room: string): boolean
  /** Remembers a message in its room's history (nothing when the room does not exist). */
  record(message: ChatMessage): void
  /** Every room with its member count, by name. */
  list(): readonly RoomSummary[]
}

interface Room {
  readonly members: Set<number>
  readonly history: ChatMessage[]
}

/**
 * An empty chat state.
 *
 * @example
 * const rooms = createChatRooms()
 * rooms.setName(1, 'ana')
 * rooms.join(1, 'lobby')._tag // 'Joined'
 */
export const createChatRooms = (): ChatRooms => {
  const names = new Map<number, string>()
  const holders = new Map<string, number>() // lower-cased name -> client
  const rooms = new Map<string, Room>()
  const clientRooms = new Map<number, Set<string>>()

  const roomsOf = (clientId: number): readonly string[] => [...(clientRooms.get(clientId) ?? [])]
  const namesIn = (entry: Room | undefined): readonly string[] =>
    [...(entry?.members ?? [])].map((id) => names.get(id)).filter((n): n is string => n !== undefined)
  const view = (entry: Room): { members: readonly string[]; history: readonly ChatMessage[] } => ({
    members: namesIn(entry),
    history: [...entry.history],
  })

  const leave = (clientId: number, room: string): boolean => {
    const mine = clientRooms.get(clientId)
    if (mine === undefined || !mine.delete(room)) return false
    if (mine.size === 0) clientRooms.delete(clientId)
    const entry = rooms.get(room)
    entry?.members.delete(clientId)
    if (entry?.members.size === 0) rooms.delete(room)
    return true
  }

  return {
    setName(clientId, name) {
      const before = names.get(clientId)
      if (before !== undefined) holders.delete(before.toLowerCase())
      names.set(clientId, name)
      holders.set(name.toLowerCase(), clientId)
      return roomsOf(clientId)
    },
    nameOf: (clientId) => names.get(clientId),
    holderOf: (name) => holders.get(name.toLowerCase()),
    transfer(from, to) {
      const name = names.get(from)
      const mine = clientRooms.get(from)
      if (name === undefined || names.has(to)) return []
      names.delete(from)
      names.set(to, name)
      holders.set(name.toLowerCase(), to)
      if (mine === undefined) return []
      clientRooms.delete(from)
      clientRooms.set(to, mine)
      for (const room of mine) {
        const members = rooms.get(room)?.members
        if (members === undefined) continue
        const order = [...members].map((id) => (id === from ? to : id))
        members.clear()
        for (const id of order) members.add(id)
      }
      return [...mine]
    },
    join(clientId, room) {
      if (!names.has(clientId)) return { _tag: 'NameRequired' }
      const mine = clientRooms.get(clientId) ?? new Set<string>()
      const existing = rooms.get(room)
      if (existing !== undefined && mine.has(room)) return { _tag: 'AlreadyIn', ...view(existing) }
      if (mine.size >= MAX_ROOMS_PER_CLIENT) return { _tag: 'TooManyRooms', limit: MAX_ROOMS_PER_CLIENT }
      const entry = existing ?? { members: new Set<number>(), history: [] }
      rooms.set(room, entry)
      entry.members.add(clientId)
      mine.add(room)
      clientRooms.set(clientId, mine)
      return { _tag: 'Joined', ...view(entry) }
    },
    leave,
    forget(clientId) {
      const left = roomsOf(clientId)
      for (const room of left) leave(clientId, room)
      const name = names.get(clientId)
      if (name !== undefined && holders.get(name.toLowerCase()) === clientId) holders.delete(name.toLowerCase())
      names.delete(clientId)
      return left
    },
    isIn: (clientId, room) => clientRooms.get(clientId)?.has(room) ?? false,
    roomsOf,
    members: (room) => namesIn(rooms.get(room)),
    exists: (room) => rooms.has(room),
    record(message) {
      const history = rooms.get(message.room)?.history
      if (history === undefined) return
      history.push(message)
      if (history.length > HISTORY_LENGTH) history.splice(0, history.length - HISTORY_LENGTH)
    },
    list: () =>
      [...rooms.entries()]
        .map(([room, entry]) => ({ room, members: entry.members.size }))
        .sort((a, b) => (a.room < b.room ? -1 : 1)), // room names are unique keys
  }
}
