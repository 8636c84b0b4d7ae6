/**
 * A load process of the soak (`bench/soak.ts`): thousands of clients against the ports in
 * LOAD (JSON `LoadConfig`), driven over IPC. Kinds of client:
 * - feed clients: sessions (`tp_v=1`) in the room `feed`; each checks the `seq` of every
 *   numbered message (a gap is a lost message, a number seen twice after the replay's
 *   overlap is a duplicate) and the `n` of each node's `t` ticks; now and then one drops
 *   abruptly (no close frame) and resumes with `tp_sid`/`tp_last` after 0.2-2 s, on the same
 *   node or, while the cluster is calm, on another; a replayed message (a `seq` already
 *   seen) must be the same text as the first time (`replay_mismatch` otherwise);
 * - churn clients: join/leave rooms (each in 1 to MAX_ROOMS rooms: it leaves one of its own,
 *   so the rooms' member counts stay level however long the run), say to rooms
 *   (broadcasts), echo, every request with an
 *   id whose ack must come within ACK_TIMEOUT_MS; some drop abruptly and come back; a few
 *   send malformed JSON (an `invalid_json` error event must answer);
 * - slow readers: feed members that stop reading for seconds at a time;
 * - HTTP: keep-alive connections alternating `GET /hello` and `POST /echo`, and pipelined
 *   ones sending 10 requests per write; every request must be answered; raw connections
 *   with a malformed head at a low rate must get a 400.
 * Sends `LoadSample`s every SAMPLE_MS and, on `{op:'finish'}`, a `LoadFinal` after letting
 * every client come back and every request be answered. Node only.
 */
import { connect, type Socket } from 'node:net'
import { openWs, scanResponses, type WsConn } from './soak-wire.js'

/** What a load process is told to run. */
export interface LoadConfig {
  readonly ports: readonly number[]
  readonly feed: number
  readonly churn: number
  readonly slow: number
  readonly http: number
  readonly pipelined: number
  readonly rooms: number
  /** ms between a churn client's requests (average). */
  readonly churnEveryMs: number
}

/** Counters since the last sample. */
export interface LoadSample {
  readonly op: 'sample'
  readonly counts: Readonly<Record<string, number>>
  readonly errors: Readonly<Record<string, number>>
}

export interface LoadFinal {
  readonly op: 'final'
  readonly totals: Readonly<Record<string, number>>
  readonly errors: Readonly<Record<string, number>>
  readonly unansweredAcks: number
  readonly unansweredHttp: number
  readonly feedDetached: number
}

const config = JSON.parse(process.env.LOAD ?? '{}') as LoadConfig
const ACK_TIMEOUT_MS = Number(process.env.ACK_TIMEOUT_MS ?? 15_000)
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 5000)
let phase: 'calm' | 'fault' = 'calm'
let finishing = false

const counts: Record<string, number> = {}
const errors: Record<string, number> = {}
const totals: Record<string, number> = {}
const allErrors: Record<string, number> = {}
const count = (kind: string, by = 1): void => {
  counts[kind] = (counts[kind] ?? 0) + by
  totals[kind] = (totals[kind] ?? 0) + by
}
const fail = (kind: string, by = 1): void => {
  errors[kind] = (errors[kind] ?? 0) + by
  allErrors[kind] = (allErrors[kind] ?? 0) + by
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!
const later = (ms: number, run: () => void): void => void setTimeout(run, ms * (0.5 + Math.random()))
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Envelope {
  readonly event?: string
  readonly id?: number
  readonly seq?: number
  readonly data?: { readonly sid?: string; readonly recovered?: boolean; readonly resync?: string; readonly o?: string; readonly n?: number; readonly error?: string }
}

// ---- feed clients: sessions, sequence checks, drops and resumes ----------------------------

interface Feed {
  conn: WsConn | undefined
  port: number
  sid: string | undefined
  lastSeq: number
  resuming: boolean
  /** A dial is under way (no second one may start: it would take the session over). */
  dialing: boolean
  /** The last resume went to another node than the one before. */
  moved: boolean
  /** When it last dropped (ms), for the time a refused resume took. */
  droppedAt: number
  readonly lastTick: Map<string, number>
  /** The text of the last numbered messages by `seq`: a replayed one must be the same bytes. */
  readonly seen: Map<number, string>
  slow: boolean
}
const feeds: Feed[] = []

const onFeedText = (f: Feed, text: string): void => {
  const m = JSON.parse(text) as Envelope
  if (m.event === 'tp:session') {
    if (f.resuming) {
      if (m.data?.recovered === true) count('recovered')
      else {
        // Which resumes are refused: to the same node or another, in calm or under faults, and
        // how long after the drop the answer came.
        const reason = m.data?.resync ?? 'refused'
        fail(`recovery_${reason}`)
        count(`refused_${reason}_${f.moved ? 'moved' : 'same'}_${phase}`)
        count(`refused_${reason}_ms_after_drop`, Date.now() - f.droppedAt)
      }
    }
    if (m.data?.recovered !== true) {
      f.seen.clear()
      f.lastSeq = 0
      f.lastTick.clear()
    }
    f.sid = m.data?.sid
    f.resuming = false
    return
  }
  if (m.event === 'tp:heartbeat') return
  count('ws_in')
  if (typeof m.seq === 'number') {
    if (m.seq <= f.lastSeq) {
      const before = f.seen.get(m.seq)
      if (before !== undefined && before !== text) fail('replay_mismatch')
      return void count('replay_overlap')
    }
    if (m.seq > f.lastSeq + 1) fail('seq_gap', m.seq - f.lastSeq - 1)
    f.lastSeq = m.seq
    f.seen.set(m.seq, text)
    f.seen.delete(m.seq - 200)
  }
  if (m.event === 't' && typeof m.data?.o === 'string' && typeof m.data.n === 'number') {
    const last = f.lastTick.get(m.data.o)
    if (last !== undefined) {
      if (m.data.n <= last) {
        fail('tick_duplicate')
        count(`tick_duplicate_${phase}_from_${m.data.o}${f.moved ? '_after_move' : ''}`)
      }
      else if (m.data.n > last + 1) {
        const calm = m.data.o === 'single' || phase === 'calm'
        count(calm ? 'tick_gap_calm' : 'tick_gap_fault', m.data.n - last - 1)
        count(`${calm ? 'tick_gap_calm' : 'tick_gap_fault'}_from_${m.data.o}${f.moved ? '_after_move' : ''}`, m.data.n - last - 1)
      }
    }
    if (last === undefined || m.data.n > last) f.lastTick.set(m.data.o, m.data.n)
  }
}

const dialFeed = async (f: Feed): Promise<void> => {
  if (f.dialing || f.conn !== undefined) return
  f.dialing = true
  const resume = f.sid === undefined ? '' : `&tp_sid=${encodeURIComponent(f.sid)}&tp_last=${f.lastSeq}`
  f.resuming = f.sid !== undefined
  try {
    f.conn = await openWs(f.port, `/?feed=1&tp_v=1${resume}`, (text) => onFeedText(f, text), () => {
      f.conn = undefined
      if (!finishing) later(1000, () => void dialFeed(f))
    })
    count(f.resuming ? 'resume_dialed' : 'feed_open')
  } catch {
    fail('connect_failed')
    if (!finishing) later(2000, () => void dialFeed(f))
  } finally {
    f.dialing = false
  }
}

// One feed client drops abruptly every so often; it comes back on its own (dialFeed's onClose).
const dropOneFeed = (): void => {
  const f = pick(feeds)
  if (f?.conn === undefined || f.resuming) return
  if (phase === 'calm' && config.ports.length > 1) {
    const port = pick(config.ports)
    f.moved = port !== f.port
    f.port = port
  } else f.moved = false
  count('abrupt_drop')
  f.droppedAt = Date.now()
  f.conn.socket.destroy()
}

// Slow readers: stop reading for a few seconds, then read again.
const pauseSlow = (): void => {
  for (const f of feeds) {
    if (!f.slow || f.conn === undefined) continue
    const socket = f.conn.socket
    socket.pause()
    later(4000, () => socket.resume())
  }
}

// ---- churn clients: rooms, broadcasts, acks, malformed input --------------------------------

interface Churn {
  conn: WsConn | undefined
  readonly port: number
  nextId: number
  readonly pending: Map<number, number>
  malformedAt: number
  /** The rooms it is in (asked for: the join or leave may still be on its way). */
  rooms: string[]
}
// A churn client's rooms at most: joining and leaving at random would make a long-lived client
// a member of every room in the end, growth the servers would be blamed for.
const MAX_ROOMS = 4
const churns: Churn[] = []

const onChurnText = (c: Churn, text: string): void => {
  count('ws_in')
  const m = JSON.parse(text) as Envelope
  if (m.event === 'ack' && typeof m.id === 'number') {
    if (c.pending.delete(m.id)) count('acks')
    else fail('ack_unexpected')
  } else if (m.event === 'error') {
    if (m.data?.error === 'invalid_json' && c.malformedAt > 0) {
      c.malformedAt = 0
      count('malformed_answered')
    } else fail(`error_event_${m.data?.error ?? '?'}`)
  }
}

const dialChurn = async (c: Churn): Promise<void> => {
  try {
    const first = `r${Math.floor(Math.random() * config.rooms)}`
    c.rooms = [first]
    c.conn = await openWs(c.port, `/?room=${first}`, (text) => onChurnText(c, text), () => {
      c.conn = undefined
      c.pending.clear()
      if (c.malformedAt > 0) c.malformedAt = 0
      if (!finishing) later(800, () => void dialChurn(c))
    })
    count('churn_open')
  } catch {
    fail('connect_failed')
    if (!finishing) later(2000, () => void dialChurn(c))
  }
}

const request = (c: Churn, event: string, data: unknown): void => {
  if (c.conn === undefined) return
  const id = ++c.nextId
  c.pending.set(id, Date.now())
  c.conn.send(JSON.stringify({ event, data, id }))
  count('requests')
}

const churnStep = (c: Churn): void => {
  if (c.conn !== undefined && !finishing) {
    const room = `r${Math.floor(Math.random() * config.rooms)}`
    const roll = Math.random()
    const join = (roll < 0.25 && c.rooms.length < MAX_ROOMS && !c.rooms.includes(room)) || (roll < 0.5 && c.rooms.length === 0)
    if (join) {
      c.rooms.push(room)
      request(c, 'join', { room })
    } else if (roll < 0.5) {
      const mine = pick(c.rooms)
      c.rooms = c.rooms.filter((r) => r !== mine)
      request(c, 'leave', { room: mine })
    }
    else if (roll < 0.75) request(c, 'say', { room, n: c.nextId })
    else if (roll < 0.995) request(c, 'echo', { n: c.nextId })
    else if (roll < 0.997 && c.malformedAt === 0) {
      c.malformedAt = Date.now()
      c.conn.send('{"event":')
      count('malformed_sent')
    } else {
      count('abrupt_drop')
      c.conn.socket.destroy()
    }
  }
  if (!finishing) later(config.churnEveryMs, () => churnStep(c))
}

// ---- HTTP: keep-alive, pipelined, malformed -------------------------------------------------

interface HttpConn {
  socket: Socket | undefined
  readonly port: number
  readonly depth: number
  inFlight: number
  sentAt: number
  pending: Buffer | null
}
const https: HttpConn[] = []
const GET = 'GET /hello HTTP/1.1\r\nHost: soak\r\n\r\n'
const POST = `POST /echo HTTP/1.1\r\nHost: soak\r\nContent-Type: text/plain\r\nContent-Length: 64\r\n\r\n${'x'.repeat(64)}`

const sendHttp = (h: HttpConn): void => {
  if (h.socket === undefined || finishing) return
  const batch = h.depth === 1 ? (Math.random() < 0.5 ? GET : POST) : GET.repeat(h.depth)
  h.inFlight = h.depth
  h.sentAt = Date.now()
  h.socket.write(batch)
  count('http_sent', h.depth)
}

const dialHttp = (h: HttpConn): void => {
  const socket = connect({ host: '127.0.0.1', port: h.port, noDelay: true })
  h.socket = socket
  h.pending = null
  socket.on('connect', () => sendHttp(h))
  socket.on('data', (chunk: Buffer) => {
    const buf = h.pending === null ? chunk : Buffer.concat([h.pending, chunk])
    const { statuses, consumed } = scanResponses(buf)
    h.pending = consumed < buf.length ? Buffer.from(buf.subarray(consumed)) : null
    for (const status of statuses) {
      if (status === 200) count('http_ok')
      else fail(`http_${status}`)
      h.inFlight--
    }
    if (h.inFlight === 0) later(h.depth === 1 ? 100 : 400, () => sendHttp(h))
  })
  socket.on('error', () => undefined)
  socket.on('close', () => {
    if (h.socket !== socket) return
    h.socket = undefined
    if (h.inFlight > 0 && !finishing) fail('http_conn_lost', h.inFlight)
    h.inFlight = 0
    if (!finishing) later(500, () => dialHttp(h))
  })
}

// A malformed head (whitespace before a colon): the server must answer 400 and close.
const malformedHttp = (): void => {
  const socket = connect({ host: '127.0.0.1', port: pick(config.ports) })
  let answer = ''
  const timer = setTimeout(() => (fail('malformed_unanswered'), socket.destroy()), ACK_TIMEOUT_MS)
  socket.on('connect', () => (socket.write('GET /hello HTTP/1.1\r\nHost : soak\r\n\r\n'), count('malformed_sent')))
  socket.on('data', (chunk: Buffer) => void (answer += chunk.toString('latin1')))
  socket.on('error', () => undefined)
  socket.on('close', () => {
    clearTimeout(timer)
    if (answer.startsWith('HTTP/1.1 400')) count('malformed_answered')
    else fail('malformed_unanswered')
  })
}

// ---- timers, samples, finish ------------------------------------------------------------------

const checkTimeouts = (): void => {
  const now = Date.now()
  for (const c of churns) {
    for (const [id, at] of c.pending) {
      if (now - at > ACK_TIMEOUT_MS) {
        c.pending.delete(id)
        fail('ack_timeout')
      }
    }
    if (c.malformedAt > 0 && now - c.malformedAt > ACK_TIMEOUT_MS) {
      c.malformedAt = 0
      fail('malformed_unanswered')
    }
  }
  for (const h of https) {
    if (h.inFlight > 0 && now - h.sentAt > ACK_TIMEOUT_MS) {
      fail('http_timeout', h.inFlight)
      h.socket?.destroy()
    }
  }
}

const flush = (): LoadSample => {
  const sample: LoadSample = { op: 'sample', counts: { ...counts }, errors: { ...errors } }
  for (const key of Object.keys(counts)) delete counts[key]
  for (const key of Object.keys(errors)) delete errors[key]
  return sample
}

const finish = async (): Promise<void> => {
  finishing = true
  // Every detached feed client comes back now; every request in flight gets its answer.
  for (const f of feeds) if (f.conn === undefined) void dialFeed(f)
  const until = Date.now() + ACK_TIMEOUT_MS
  const busy = (): boolean => feeds.some((f) => f.conn === undefined || f.resuming) || churns.some((c) => c.pending.size > 0) || https.some((h) => h.inFlight > 0)
  while (busy() && Date.now() < until) await sleep(200)
  await sleep(1000)
  const final: LoadFinal = {
    op: 'final',
    totals,
    errors: allErrors,
    unansweredAcks: churns.reduce((sum, c) => sum + c.pending.size, 0),
    unansweredHttp: https.reduce((sum, h) => sum + h.inFlight, 0),
    feedDetached: feeds.filter((f) => f.conn === undefined || f.resuming).length,
  }
  process.send?.(flush())
  process.send?.(final, () => process.exit(0))
}

process.on('message', (command: { readonly op: string; readonly phase?: 'calm' | 'fault' }) => {
  if (command.op === 'phase' && command.phase !== undefined) phase = command.phase
  if (command.op === 'finish') void finish()
})

const start = async (): Promise<void> => {
  const ports = config.ports
  for (let i = 0; i < config.feed + config.slow; i++) feeds.push({ conn: undefined, port: ports[i % ports.length]!, sid: undefined, lastSeq: 0, resuming: false, dialing: false, moved: false, droppedAt: 0, lastTick: new Map(), seen: new Map(), slow: i >= config.feed })
  for (let i = 0; i < config.churn; i++) churns.push({ conn: undefined, port: ports[i % ports.length]!, nextId: 0, pending: new Map(), malformedAt: 0, rooms: [] })
  for (let i = 0; i < config.http + config.pipelined; i++) https.push({ socket: undefined, port: ports[i % ports.length]!, depth: i < config.http ? 1 : 10, inFlight: 0, sentAt: 0, pending: null })
  // Opened 100 at a time, so the servers' accept queues never overflow.
  const all: (() => Promise<void>)[] = [...feeds.map((f) => () => dialFeed(f)), ...churns.map((c) => () => dialChurn(c))]
  for (let i = 0; i < all.length; i += 100) await Promise.all(all.slice(i, i + 100).map((open) => open()))
  for (const h of https) dialHttp(h)
  for (const c of churns) later(config.churnEveryMs, () => churnStep(c))
  const every = (ms: number, run: () => void): void => void setInterval(() => finishing || run(), ms)
  every(Math.max(50, Math.round(20_000 / Math.max(1, config.feed))), dropOneFeed)
  every(10_000, pauseSlow)
  every(3000, malformedHttp)
  setInterval(checkTimeouts, 1000)
  setInterval(() => finishing || process.send?.(flush()), SAMPLE_MS)
  process.send?.({ op: 'ready' })
}
void start()
