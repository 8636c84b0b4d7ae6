/**
 * The requests one node asks the others (cross-node queries, remote join/leave/disconnect,
 * server-to-server events, posts of event-stream clients), as JSON data checked with io-ts on arrival: a node never trusts
 * what comes over the wire. Must not import `node:*`, Buffer or process.
 */
import * as t from 'io-ts'

const optional = <C extends t.Mixed>(codec: C) => t.union([codec, t.undefined])

const target = { namespace: optional(t.string), room: optional(t.string) }
const clientId = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n > 0, 'a client id')

/** Every request a node may receive, by its `q`. */
export const ClusterRequest = t.union([
  /** The ids of the local clients of a target (all clients when it names none). */
  t.intersection([t.type({ q: t.literal('clients') }), t.partial(target)]),
  /** How many local clients a target has. */
  t.intersection([t.type({ q: t.literal('count') }), t.partial(target)]),
  /** Close a local client (1000, or with the kick's `code` and `reason`, checked on arrival). */
  t.intersection([t.type({ q: t.literal('disconnect'), clientId }), t.partial({ code: t.number, reason: t.string })]),
  /** Put a local client in a room. */
  t.intersection([t.type({ q: t.literal('join'), clientId, room: t.string }), t.partial({ namespace: optional(t.string) })]),
  /** Take a local client out of a room. */
  t.intersection([t.type({ q: t.literal('leave'), clientId, room: t.string }), t.partial({ namespace: optional(t.string) })]),
  /** A server-to-server event for the handler registered with `cluster.on(event, …)`. */
  t.intersection([t.type({ q: t.literal('event'), event: t.string }), t.partial({ data: t.unknown })]),
  /** What an event-stream client posted to another node, for the node whose stream holds session `sid` (`eventPost`). */
  t.type({ q: t.literal('post'), sid: t.string, text: t.string }),
])
export type ClusterRequest = t.TypeOf<typeof ClusterRequest>

/** The answer to `clients`. */
export const ClientsAnswer = t.readonlyArray(t.string)
/** The answer to `count`. */
export const CountAnswer = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n >= 0, 'a count')
/** The answer to `disconnect`, `join`, `leave` and `post`: whether the node had the client (the session). */
export const FoundAnswer = t.boolean
/** The answer to `event`: the handler's value, or why there is none. */
export const EventAnswer = t.union([t.type({ error: t.string }), t.type({ data: t.unknown })])
export type EventAnswer = t.TypeOf<typeof EventAnswer>
