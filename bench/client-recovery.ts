/**
 * Benchmark (not a test): session recovery of `twinport/client`. 1,000 clients (`ws` as
 * their WebSocket) join one room of a twinport server (`bench/peers/twinport-recovery.ts`,
 * pinned to CPU 0; the clients in this process on CPU 1) that broadcasts a numbered `tick`
 * to the room every 100 ms. After a second of ticks the server cuts every connection at once
 * (SIGUSR2: its relay destroys both halves of each, so no close frame goes either way; the
 * sessions stay, as after a network failure), and at that moment every client sends one
 * request, `note`, which waits in its offline queue or goes out on a link already dead.
 * Reported per round: the time from the cut until every client has its session back (the
 * `tp:session` message of the reconnect; the client's first attempt comes 0.5–1 s after a
 * drop, by design), how many sessions were recovered, ticks lost or duplicated over every
 * client (each must see 1…last exactly once), and the notes answered and run by the server
 * (each exactly once). 3 rounds, a fresh server each, about 30 s in all. Target (issue 10):
 * 0 lost within the window. Run: `npx tsx bench/client-recovery.ts`.
 */
import WebSocket from 'ws'
import { type Client, connect } from '../lib/client/index.js'
import { peerScript, pinSelf, runsCompiled } from './load/own-cpu.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'

const CLIENTS = 1000
const BATCH = 100
const ROUNDS = 3
const TICK_MS = 100
const TICKS_BEFORE_MS = 1000
const TICKS_AFTER_MS = 1000
// Every wait is bounded; past it the round reports what it saw.
const WAIT_MS = 30_000

/** One round's figures. */
export interface RecoveryRow {
  readonly round: number
  readonly clients: number
  readonly 'all back ms': number
  readonly 'median back ms': number
  readonly recovered: number
  readonly 'fresh sessions': number
  /** the most reconnection attempts one client needed (1: the first one succeeded). */
  readonly 'most attempts': number
  readonly 'ticks expected': number
  readonly 'ticks lost': number
  readonly 'ticks duplicated': number
  readonly 'notes answered': number
  readonly 'notes run': number
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

const within = <A>(ms: number, p: Promise<A>): Promise<A | undefined> =>
  Promise.race([p, sleep(ms).then(() => undefined)])

interface Member {
  readonly client: Client
  readonly ticks: number[]
}

const join = (port: number): Promise<Member> =>
  new Promise((resolve, reject) => {
    const client = connect(`ws://127.0.0.1:${port}/`, { WebSocket, timeout: 0 })
    const ticks: number[] = []
    client.on('tick', (data) => void ticks.push((data as { n: number }).n))
    client.once('open', () => {
      client.request('join').then(() => resolve({ client, ticks }), reject)
    })
  })

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : (s[Math.floor(s.length / 2)] as number)
}

const round = async (n: number, server: RunningServer): Promise<RecoveryRow> => {
  const members: Member[] = []
  for (let i = 0; i < CLIENTS; i += BATCH) members.push(...(await Promise.all(Array.from({ length: BATCH }, () => join(server.port)))))
  const lead = members[0] as Member
  await lead.client.request('start', { ms: TICK_MS })
  await sleep(TICKS_BEFORE_MS)

  const back = members.map(
    ({ client }) =>
      new Promise<{ at: number; recovered: boolean }>((resolve) => {
        client.once('session', ({ recovered }) => resolve({ at: performance.now(), recovered }))
      }),
  )
  let attempts = 0
  for (const { client } of members) client.on('reconnecting', ({ attempt }) => void (attempts = Math.max(attempts, attempt)))
  const t0 = performance.now()
  process.kill(server.pid, 'SIGUSR2')
  const notes = members.map(({ client }, i) => client.request('note', i).then((answer) => answer === i))
  const sessions = (await within(WAIT_MS, Promise.all(back))) ?? []
  const answered = (await within(WAIT_MS, Promise.all(notes))) ?? []

  await sleep(TICKS_AFTER_MS)
  const last = Number(await lead.client.request('stop'))
  // Every client has seen the last tick, or the wait ran out.
  const deadline = performance.now() + WAIT_MS
  while (performance.now() < deadline && !members.every((m) => m.ticks.includes(last))) await sleep(50)
  const stats = (await lead.client.request('stats')) as { notes: number }

  let lost = 0
  let duplicated = 0
  for (const m of members) {
    const seen = new Set(m.ticks.filter((t) => t >= 1 && t <= last))
    lost += last - seen.size
    duplicated += m.ticks.length - new Set(m.ticks).size
  }
  for (const m of members) m.client.close()
  const times = sessions.map((s) => s.at - t0)
  return {
    round: n,
    clients: members.length,
    'all back ms': sessions.length === CLIENTS ? Math.round(Math.max(...times)) : Number.NaN,
    'median back ms': Math.round(median(times)),
    recovered: sessions.filter((s) => s.recovered).length,
    'fresh sessions': sessions.filter((s) => !s.recovered).length,
    'most attempts': attempts,
    'ticks expected': last * members.length,
    'ticks lost': lost,
    'ticks duplicated': duplicated,
    'notes answered': answered.filter(Boolean).length,
    'notes run': stats.notes,
  }
}

/** Runs the rounds, a fresh server each; one row per round. */
export const run = async (): Promise<readonly RecoveryRow[]> => {
  pinSelf(1)
  const script = peerScript('twinport-recovery', runsCompiled(import.meta.url))
  const rows: RecoveryRow[] = []
  for (let n = 1; n <= ROUNDS; n++) {
    const server = await startServer(script)
    if (typeof server === 'string') throw new Error(`recovery server: ${server}`)
    try {
      rows.push(await round(n, server))
    } finally {
      await server.stop()
    }
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.on('exit', () => {
    for (const c of LIVE) c.kill('SIGKILL')
  })
  console.table(await run())
  process.exit(0)
}
