/**
 * The ceiling on Deno: a `Deno.listen` server doing the least work a socket allows (the
 * work itself is in `raw-wire.ts`): a read loop per connection, a canned
 * `{"hello":"world"}` response per request head, pipelined answers in one write; for
 * WebSocket a 101, each read's complete masked frames echoed unmasked in one write, and
 * on `/bcast` a plain loop over the room. Deno's writes are promises: each connection
 * writes in order, one write in flight, what comes meanwhile joined into the next. Run by Deno;
 * HOST/PORT from the environment.
 */
import { BATCHES, countHeads, echoFrames, switchingProtocols, upgradeHead, type FrameState, type HeadState } from './raw-wire.js'

interface RawConn {
  read(into: Uint8Array): Promise<number | null>
  write(bytes: Uint8Array): Promise<number>
  close(): void
  setNoDelay?(enabled?: boolean): void
}

interface DenoListen {
  listen(options: { readonly hostname: string; readonly port: number }): AsyncIterable<RawConn> & { readonly addr: { readonly port: number } }
  readonly env: { get(name: string): string | undefined }
}

const deno = (globalThis as { Deno?: DenoListen }).Deno
if (deno === undefined) throw new Error('bench/peers/raw-deno.ts runs in Deno')

interface Peer extends HeadState, FrameState {
  readonly conn: RawConn
  /** bytes waiting while a write is in flight. */
  queue: Uint8Array[]
  writing: boolean
  open: boolean
}

const room = new Set<Peer>()

const joined = (parts: readonly Uint8Array[]): Uint8Array => {
  if (parts.length === 1) return parts[0]!
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    bytes.set(p, at)
    at += p.length
  }
  return bytes
}

// One write in flight per connection, continued from its promise (no async function per write).
const write = (peer: Peer, bytes: Uint8Array): void => {
  peer.writing = true
  peer.conn.write(bytes).then((n) => {
    if (n < bytes.length) return write(peer, bytes.subarray(n))
    if (peer.queue.length === 0 || !peer.open) return void (peer.writing = false)
    const parts = peer.queue
    peer.queue = []
    write(peer, joined(parts))
  }, () => {
    peer.open = false
  })
}

const send = (peer: Peer, bytes: Uint8Array): void => {
  if (peer.writing) peer.queue.push(bytes)
  else write(peer, bytes)
}

const serve = async (conn: RawConn): Promise<void> => {
  const peer: Peer = { conn, queue: [], writing: false, open: true, matched: 0, pending: undefined }
  conn.setNoDelay?.(true)
  // Every pending read holds its buffer: small while the connection is quiet, grown when a read fills it.
  let scratch = new Uint8Array(2048)
  let mode: 'first' | 'http' | 'echo' | 'bcast' = 'first'
  try {
    for (;;) {
      const n = await conn.read(scratch)
      if (n === null) break
      const chunk = scratch.subarray(0, n)
      if (n === scratch.length && n < 65536) scratch = new Uint8Array(n * 4)
      if (mode === 'first') {
        const head = upgradeHead(chunk)
        if (head === undefined) mode = 'http'
        else {
          send(peer, switchingProtocols(head))
          mode = head.startsWith('GET /bcast ') ? 'bcast' : 'echo'
          if (mode === 'bcast') room.add(peer)
          continue
        }
      }
      if (mode === 'http') {
        let heads = countHeads(peer, chunk)
        for (; heads > 32; heads -= 32) send(peer, BATCHES[32]!)
        if (heads > 0) send(peer, BATCHES[heads]!)
        continue
      }
      const out = echoFrames(peer, chunk)
      if (out.length === 0) continue
      if (mode === 'echo') send(peer, out)
      else for (const member of room) send(member, out)
    }
  } catch {
    // Reset by the peer: the connection is over.
  }
  peer.open = false
  room.delete(peer)
  try {
    conn.close()
  } catch {
    // Already closed.
  }
}

const listener = deno.listen({ hostname: deno.env.get('HOST') ?? '0.0.0.0', port: Number(deno.env.get('PORT') ?? 6001) })
console.log(`raw Deno.listen listening on ${listener.addr.port}`)
for await (const conn of listener) void serve(conn)
