/**
 * `redisRecoveryStore`: the recovery store (`RecoveryStore`, lib/engine/recovery/recovery-store.ts)
 * in Redis, shared by every node, so a client whose node died reconnects to any node and
 * gets what it missed. A session is one JSON string (`SET … PXAT expiresAt`) and a stream of
 * its numbered frames (`XADD … 0-<seq>`, trimmed to `maxFrames`, expiring with the session),
 * both under the session's hash tag; `saveProgress` writes new frames and the state after
 * them in one script, refused to a node that no longer holds the session, and
 * `loadSessionSince` reads both back in one script. Target logs are
 * the Redis adapter's streams (same `prefix`), read with `readTargetSince` / `readRoomSince`.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeClusterMessage } from '../core/cluster/decode-cluster-message.js'
import { sha1 } from '../core/ws/sha1.js'
import type { Sequence } from '../core/cluster/cluster-message.js'
import type { ClusterTarget } from '../engine/cluster/cluster-adapter.js'
import type { MissedFrame, ReadRoomSince, ReadSince, RecoveryStore, SessionRecord } from '../engine/recovery/recovery-store.js'
import { checkTargetTail } from './check-target-tail.js'
import { type NodeRedisClient, nodeRedisPort } from './node-redis-port.js'
import { scopeKeys, sessionKeys } from './redis-keys.js'
import type { RedisArg, RedisPort } from './redis-port.js'
import { DELETE_SESSION_SCRIPT, LOAD_SESSION_SCRIPT, READ_TARGET_SCRIPT, SAVE_PROGRESS_SCRIPT } from './session-scripts.js'

export interface RedisRecoveryStoreOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379`); ignored when `client` or `port` is given. */
  readonly url?: string
  /** A node-redis client of the application's (left open on close). */
  readonly client?: NodeRedisClient
  /** Another client behind the adapter's port. */
  readonly port?: RedisPort
  /** Key prefix; the same as the Redis adapter's for `readRoomSince` (default `twinport`). */
  readonly prefix?: string
  /** Frames kept per session, the newest (default 1000). */
  readonly maxFrames?: number
}

/** The Redis recovery store: the interface, plus connecting and closing. */
export interface RedisRecoveryStore extends RecoveryStore {
  connect(): Promise<void>
  close(): Promise<void>
}

const SequenceCodec = t.type({ epoch: t.number, n: t.number })
const SessionCodec = t.intersection([
  t.type({
    sid: t.string,
    namespace: t.string,
    rooms: t.readonlyArray(t.string),
    data: t.record(t.string, t.unknown),
    lastSeq: t.number,
    expiresAt: t.number,
  }),
  t.partial({
    cursors: t.record(t.string, SequenceCodec),
    lastOwn: t.record(t.string, t.number),
    otherRooms: t.readonlyArray(t.type({ namespace: t.string, room: t.string })),
    node: t.string,
  }),
])

type Row = [Uint8Array, Uint8Array[]]
const text = new TextDecoder()
// node-redis gives Buffers: handed on as plain views of the same bytes.
const view = (b: Uint8Array | undefined): Uint8Array => (b === undefined ? new Uint8Array(0) : new Uint8Array(b.buffer, b.byteOffset, b.length))
// A stream id `<ms>-<n>` as a sequence.
const idOf = (id: Uint8Array): Sequence => {
  const [epoch, n] = text.decode(id).split('-').map(Number)
  return { epoch: epoch ?? 0, n: n ?? 0 }
}
// A stored record, checked; undefined when it is not one.
const recordOf = (raw: string): SessionRecord | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return undefined
  }
  const decoded = SessionCodec.decode(parsed)
  return E.isRight(decoded) ? (decoded.right as SessionRecord) : undefined
}
// What the save script answered: 1 written, 0 refused (another node holds the session).
// Anything else is no answer of that script (a reply read out of place): a failure, written
// again later, never a refusal, which would make this node let a connected client go.
const refusedOrWritten = (reply: unknown): boolean => {
  if (reply === 1) return true
  if (reply === 0) return false
  throw new Error(`redisRecoveryStore: unexpected answer to a session write: ${String(reply)}`)
}
// A target counter's `e` and `n` (HMGET, nil when unset), checked: a cursor that is not two
// whole numbers would be written into every later record of the session, which no node could
// then read back (the session would be unknown everywhere else).
const placeOf = (reply: unknown): [number | undefined, number | undefined] => {
  const fields = Array.isArray(reply) ? (reply as unknown[]).map((x) => (x === null ? undefined : Number(x))) : []
  if (fields.length !== 2 || fields.some((x) => x !== undefined && !Number.isSafeInteger(x))) {
    throw new Error(`redisRecoveryStore: unexpected answer for a target's place: ${String(reply)}`)
  }
  return [fields[0], fields[1]]
}
// A counter field (bytes, or nil when unset) as a number.
const numberOf = (field: unknown): number | undefined => (field instanceof Uint8Array ? Number(text.decode(field)) : undefined)

/**
 * A recovery store in Redis.
 *
 * @example
 * const store = redisRecoveryStore({ url: 'redis://127.0.0.1:6379' })
 * await store.connect()
 * await store.saveSession({ sid: 's1', namespace: '/', rooms: ['lobby'], data: {}, lastSeq: 0, expiresAt: Date.now() + 120_000 })
 */
export const redisRecoveryStore = (options: RedisRecoveryStoreOptions = {}): RedisRecoveryStore => {
  const prefix = options.prefix ?? 'twinport'
  const maxFrames = options.maxFrames ?? 1000
  if (!Number.isSafeInteger(maxFrames) || maxFrames <= 0) throw new Error(`redisRecoveryStore: maxFrames must be a positive integer, got ${String(maxFrames)}`)
  const limit = String(maxFrames)
  const port =
    options.port ??
    nodeRedisPort({ ...(options.url === undefined ? {} : { url: options.url }), ...(options.client === undefined ? {} : { client: options.client }), subscriptions: false })
  const run = (args: readonly RedisArg[], key: string, bytes = false, timer = true): Promise<unknown> => port.command(args, { key, bytes, ...(timer ? {} : { timer }) })

  // A script by its SHA-1 (EVALSHA), sent whole only when Redis does not have it (NOSCRIPT).
  // `argv` is the whole command from its fourth word on (the keys' count, keys, arguments),
  // built by the caller in one array: the script's name goes in front of it in place.
  const script = (body: string) => {
    const sha = Array.from(sha1(new TextEncoder().encode(body)), (b) => b.toString(16).padStart(2, '0')).join('')
    return (argv: RedisArg[], key: string, bytes = false, timer = true): Promise<unknown> => {
      argv[0] = 'EVALSHA'
      argv[1] = sha
      return run(argv, key, bytes, timer).catch((error: unknown) => {
        if (!String(error instanceof Error ? error.message : error).startsWith('NOSCRIPT')) return Promise.reject(error)
        argv[0] = 'EVAL'
        argv[1] = body
        return run(argv, key, bytes, timer)
      })
    }
  }
  const saveProgressScript = script(SAVE_PROGRESS_SCRIPT)
  const deleteScript = script(DELETE_SESSION_SCRIPT)
  const readTargetScript = script(READ_TARGET_SCRIPT)
  const loadScript = script(LOAD_SESSION_SCRIPT)

  // A session's record (when `withRecord`) and its frames after `afterSeq`, at one instant
  // (LOAD_SESSION_SCRIPT): `undefined` when there is no session.
  const loadSince = async (sid: string, afterSeq: number, withRecord: boolean): Promise<{ record: SessionRecord | undefined; read: ReadSince } | undefined> => {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new Error(`redisRecoveryStore: afterSeq must be a non-negative integer, got ${String(afterSeq)}`)
    const keys = sessionKeys(prefix, sid)
    const [state, rows, lastId] = (await loadScript(['', '', '2', keys.state, keys.frames, String(afterSeq), withRecord ? '1' : '0'], keys.state, true)) as [
      Uint8Array | null,
      Row[],
      Uint8Array | null,
    ]
    if (state === null) return undefined
    const record = withRecord ? recordOf(text.decode(state)) : undefined
    const frames: MissedFrame[] = rows.map(([id, fields]) => ({ seq: idOf(id).n, frame: view(fields[1]) }))
    const first = frames[0]
    if (first !== undefined) return { record, read: first.seq === afterSeq + 1 ? { _tag: 'Frames', frames } : { _tag: 'Resync', reason: 'gap' } }
    // Nothing after it: fine, unless frames after it existed and are gone.
    const last = lastId === null ? undefined : idOf(lastId)
    return { record, read: last !== undefined && last.n > afterSeq ? { _tag: 'Resync', reason: 'gap' } : { _tag: 'Frames', frames: [] } }
  }

  return {
    connect: () => port.connect(),
    close: () => port.close(),

    saveSession: async (session) => {
      const keys = sessionKeys(prefix, session.sid)
      const at = String(Math.max(1, Math.floor(session.expiresAt)))
      await Promise.all([run(['SET', keys.state, JSON.stringify(session), 'PXAT', at], keys.state), run(['PEXPIREAT', keys.frames, at], keys.frames)])
    },

    loadSession: async (sid) => {
      const keys = sessionKeys(prefix, sid)
      const raw = await run(['GET', keys.state], keys.state)
      return typeof raw === 'string' ? recordOf(raw) : undefined
    },

    loadSessionSince: async (sid, afterSeq) => (await loadSince(sid, afterSeq, true)) ?? { record: undefined, read: { _tag: 'Resync', reason: 'unknown_session' } },

    append: async (sid, seq, frame, expiresAt) => {
      if (!Number.isSafeInteger(seq) || seq <= 0) throw new Error(`redisRecoveryStore: seq must be a positive integer, got ${String(seq)}`)
      const keys = sessionKeys(prefix, sid)
      try {
        await run(['XADD', keys.frames, 'MAXLEN', String(maxFrames), `0-${seq}`, 'f', frame], keys.frames)
      } catch (error) {
        // The same number again (a retry): it is there already.
        if (!String(error instanceof Error ? error.message : error).includes('equal or smaller')) throw error
      }
      await run(['PEXPIREAT', keys.frames, String(Math.max(1, Math.floor(expiresAt)))], keys.frames)
    },

    readSince: async (sid, afterSeq): Promise<ReadSince> => (await loadSince(sid, afterSeq, false))?.read ?? { _tag: 'Resync', reason: 'unknown_session' },

    deleteSession: async (sid, node) => {
      const keys = sessionKeys(prefix, sid)
      await deleteScript(['', '', '2', keys.state, keys.frames, node ?? ''], keys.state)
    },

    // The hot path of the journal (one call per changed session per flush): the command is
    // built in one array, and sent without a timer of the client's (the journal bounds its
    // writes itself).
    saveProgress: async (session, frames, claim = false) => {
      const keys = sessionKeys(prefix, session.sid)
      const at = String(Math.max(1, Math.floor(session.expiresAt)))
      const argv: RedisArg[] = ['', '', '2', keys.state, keys.frames, JSON.stringify(session), session.node ?? '', claim ? '1' : '0', at, limit, String(session.lastSeq)]
      for (const f of frames) argv.push(String(f.seq), f.frame)
      return refusedOrWritten(await saveProgressScript(argv, keys.state, false, false))
    },

    readTargetSince: (target, after) => readTarget(target, after),
    readRoomSince: (namespace, room, after) => readTarget({ namespace, room }, after),

    // The counter's place (the stream's last entry has the same, unless something edited it).
    targetPosition: async (target) => {
      const { counter } = scopeKeys(prefix, target)
      const [e, n] = placeOf(await run(['HMGET', counter, 'e', 'n'], counter))
      return e === undefined || n === undefined ? { epoch: 0, n: 0 } : { epoch: e, n }
    },
  }

  // A target's broadcasts after `after` (`{0,0}`: from the start of its log), with their
  // origins, checked against where each epoch ended (check-target-tail.ts).
  async function readTarget(target: ClusterTarget, after: Sequence): Promise<ReadRoomSince> {
    const { stream, counter } = scopeKeys(prefix, target)
    const [rows, fields, here] = (await readTargetScript(['', '', '2', stream, counter, String(after.epoch), String(after.n)], stream, true)) as [Row[], unknown[], number]
    const rowsRead = rows.map(([id, values]) => {
      const decoded = decodeClusterMessage(values[1] ?? new Uint8Array(0))
      if (E.isLeft(decoded) || decoded.right._tag !== 'Broadcast') return { place: idOf(id), frame: undefined }
      const m = decoded.right
      return { place: idOf(id), frame: { seq: m.seq, frame: view(m.frame), origin: m.origin, envelope: m.envelope === true } }
    })
    const [e, n, pe, pn] = fields.map(numberOf)
    const known = e !== undefined && n !== undefined
    const before = pe !== undefined && pn !== undefined ? { pe, pn } : {}
    return checkTargetTail({ after, rows: rowsRead, counter: known ? { e, n, ...before } : undefined, atCursor: here === 1 })
  }
}
