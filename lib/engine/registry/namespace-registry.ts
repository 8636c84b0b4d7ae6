/**
 * Namespaces and rooms (seed §2.4, NamespaceManager): which clients are in which
 * namespace, and which rooms of a namespace. A room always lives in a namespace; a room
 * named without one is in the default namespace `/`. Empty rooms disappear.
 *
 * This is shell state (DESIGN §1: the shell owns the client registry), kept mutable on
 * purpose: ten thousand joins must not copy ten thousand sets. A client's rooms are its one
 * room's key (most clients are in one room at most) or a set of keys once it is in two, and a
 * key is the room's own string, not one made per join: a member of one room costs a map entry
 * here and one in the room's member set, not a `Set` and a string of its own (about 180 bytes
 * at 10,000 members). Must not import `node:*`, Buffer or process.
 */

export const DEFAULT_NAMESPACE = '/'

type RoomKey = string

// A room's key joins namespace and room with a separator that cannot start a namespace.
const roomKey = (namespace: string, room: string): RoomKey => `${namespace}\u0000${room}`

export interface RoomInfo {
  readonly namespace: string
  readonly room: string
  readonly members: number
}

export interface NamespaceRegistry {
  /** Puts the client in a namespace (a client is in one namespace at a time). */
  joinNamespace(clientId: number, namespace?: string): void
  /** Takes the client out of its namespace and every room. */
  leaveNamespace(clientId: number): void
  joinRoom(clientId: number, room: string, namespace?: string): void
  leaveRoom(clientId: number, room: string, namespace?: string): void
  leaveAllRooms(clientId: number): void
  clientsInRoom(room: string, namespace?: string): readonly number[]
  clientsInNamespace(namespace?: string): readonly number[]
  roomsOfClient(clientId: number): readonly { readonly namespace: string; readonly room: string }[]
  namespaceOf(clientId: number): string | undefined
  /** Every non-empty room with its member count. */
  listRooms(namespace?: string): readonly RoomInfo[]
  /** Live member set of a room, for broadcast without copying (do not mutate). */
  roomMembers(room: string, namespace?: string): ReadonlySet<number> | undefined
  namespaceMembers(namespace?: string): ReadonlySet<number> | undefined
}

/**
 * Told when a room or namespace gets its first member and loses its last (the cluster
 * adapter listens to a room's traffic only while this node has members in it).
 */
export interface RegistryListener {
  roomOpened(namespace: string, room: string): void
  roomClosed(namespace: string, room: string): void
  namespaceOpened(namespace: string): void
  namespaceClosed(namespace: string): void
}

// A client's rooms: the key of its one room, or the keys of several (insertion order kept).
type ClientRooms = RoomKey | Set<RoomKey>

// A client's room keys in the order it joined them.
const keysOf = (mine: ClientRooms | undefined): readonly RoomKey[] => (mine === undefined ? [] : typeof mine === 'string' ? [mine] : [...mine])

export const createNamespaceRegistry = (listener?: RegistryListener): NamespaceRegistry => {
  const namespaces = new Map<string, Set<number>>()
  // `key` is the room's key, shared by every member's entry in `clientRooms`.
  const rooms = new Map<RoomKey, { namespace: string; room: string; key: RoomKey; members: Set<number> }>()
  // The namespace of each client outside the default one; a client in the default namespace
  // (most of them) is found in its member set, without an entry of its own here.
  const elsewhere = new Map<number, string>()
  const namespaceOf = (clientId: number): string | undefined =>
    elsewhere.get(clientId) ?? (namespaces.get(DEFAULT_NAMESPACE)?.has(clientId) === true ? DEFAULT_NAMESPACE : undefined)
  const clientRooms = new Map<number, ClientRooms>()

  const addTo = <K>(map: Map<K, Set<number>>, key: K, id: number): void => {
    const set = map.get(key)
    if (set === undefined) map.set(key, new Set([id]))
    else set.add(id)
  }

  const leaveRoomKey = (clientId: number, key: RoomKey): void => {
    const entry = rooms.get(key)
    if (entry !== undefined) {
      entry.members.delete(clientId)
      if (entry.members.size === 0) {
        rooms.delete(key)
        listener?.roomClosed(entry.namespace, entry.room)
      }
    }
    const mine = clientRooms.get(clientId)
    if (mine === undefined) return
    if (typeof mine === 'string') {
      if (mine === key) clientRooms.delete(clientId)
      return
    }
    mine.delete(key)
    // Back to one room: its key alone, as a client that joined only it holds.
    if (mine.size === 1) clientRooms.set(clientId, mine.values().next().value as RoomKey)
  }

  const registry: NamespaceRegistry = {
    joinNamespace(clientId, namespace = DEFAULT_NAMESPACE) {
      const current = namespaceOf(clientId)
      if (current === namespace) return
      if (current !== undefined) registry.leaveNamespace(clientId)
      if (namespace !== DEFAULT_NAMESPACE) elsewhere.set(clientId, namespace)
      addTo(namespaces, namespace, clientId)
      if (namespaces.get(namespace)?.size === 1) listener?.namespaceOpened(namespace)
    },
    leaveNamespace(clientId) {
      registry.leaveAllRooms(clientId)
      const current = namespaceOf(clientId)
      if (current === undefined) return
      elsewhere.delete(clientId)
      const members = namespaces.get(current)
      members?.delete(clientId)
      if (members?.size === 0) {
        namespaces.delete(current)
        listener?.namespaceClosed(current)
      }
    },
    joinRoom(clientId, room, namespace = DEFAULT_NAMESPACE) {
      let key = roomKey(namespace, room)
      const entry = rooms.get(key)
      if (entry === undefined) {
        rooms.set(key, { namespace, room, key, members: new Set([clientId]) })
        listener?.roomOpened(namespace, room)
      } else {
        key = entry.key
        entry.members.add(clientId)
      }
      const mine = clientRooms.get(clientId)
      if (mine === undefined) clientRooms.set(clientId, key)
      else if (typeof mine !== 'string') mine.add(key)
      else if (mine !== key) clientRooms.set(clientId, new Set([mine, key]))
    },
    leaveRoom(clientId, room, namespace = DEFAULT_NAMESPACE) {
      leaveRoomKey(clientId, roomKey(namespace, room))
    },
    leaveAllRooms(clientId) {
      for (const key of keysOf(clientRooms.get(clientId))) leaveRoomKey(clientId, key)
    },
    clientsInRoom(room, namespace = DEFAULT_NAMESPACE) {
      return [...(rooms.get(roomKey(namespace, room))?.members ?? [])]
    },
    clientsInNamespace(namespace = DEFAULT_NAMESPACE) {
      return [...(namespaces.get(namespace) ?? [])]
    },
    roomsOfClient(clientId) {
      return keysOf(clientRooms.get(clientId)).flatMap((key) => {
        const entry = rooms.get(key)
        return entry === undefined ? [] : [{ namespace: entry.namespace, room: entry.room }]
      })
    },
    namespaceOf,
    listRooms(namespace) {
      const all = [...rooms.values()]
      const picked = namespace === undefined ? all : all.filter((r) => r.namespace === namespace)
      return picked.map((r) => ({ namespace: r.namespace, room: r.room, members: r.members.size }))
    },
    roomMembers(room, namespace = DEFAULT_NAMESPACE) {
      return rooms.get(roomKey(namespace, room))?.members
    },
    namespaceMembers(namespace = DEFAULT_NAMESPACE) {
      return namespaces.get(namespace)
    },
  }
  return registry
}
