/**
 * Where a session's cursors are kept in its record (`SessionRecord.cursors`): one key per
 * target the client receives (everyone, its namespace, each room), and back.
 * Must not import `node:*`, Buffer or process.
 */
import type { ClusterTarget } from '../cluster/cluster-adapter.js'

/**
 * The key of a target in `SessionRecord.cursors`: '' for everyone, the namespace, or the
 * namespace and the room joined by a NUL.
 *
 * @example
 * cursorKey({}) // ''
 * cursorKey({ namespace: '/', room: 'lobby' }) // '/\u0000lobby'
 */
export const cursorKey = (target: ClusterTarget): string =>
  target.room !== undefined ? `${target.namespace ?? '/'}\u0000${target.room}` : (target.namespace ?? '')

/** The target of a `cursorKey`. */
export const cursorTarget = (key: string): ClusterTarget => {
  if (key === '') return {}
  const at = key.indexOf('\u0000')
  return at < 0 ? { namespace: key } : { namespace: key.slice(0, at), room: key.slice(at + 1) }
}
