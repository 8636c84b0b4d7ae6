/**
 * The message that carries a broadcast from the Worker (an HTTP handler's `ctx.broadcast`) to
 * a Durable Object hub: `POST https://twinport.hub/broadcast`, the target in one header, the
 * message's bytes as the body. Only code holding the hub binding can reach a hub, and the
 * Worker forwards a client's request to a hub only as a `GET` WebSocket upgrade, so no client
 * can make a hub see this `POST` (docs/decisions.md "Workers: HTTP handlers broadcast to hubs").
 * Both sides live here: `hubBroadcastRequest` (the Worker) and `readHubBroadcast` (the hub),
 * and `broadcastOfFrame` reads the frame the engine hands its cluster adapter.
 *
 * Portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { OPCODE } from '../core/ws/frame.js'
import { FIN_BIT, OPCODE_BITS, payloadOffset, readPayloadLength } from '../core/ws/frame-header.js'

/** The URL of a hub broadcast (no client request ever has it: clients' requests keep their own URL). */
export const HUB_BROADCAST_URL = 'https://twinport.hub/broadcast'

/** The header holding the broadcast's target: JSON `{ "room"?, "namespace"? }`. */
export const HUB_TARGET_HEADER = 'x-twinport-target'

/** Where in a hub a broadcast goes: every client, a namespace, or a room of a namespace. */
export interface HubTarget {
  readonly namespace?: string
  readonly room?: string
}

/** One broadcast for a hub: its target and the message (text, or bytes for a binary raw message). */
export interface HubBroadcast {
  readonly target: HubTarget
  readonly message: string | Uint8Array
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

const targetOf = (target: HubTarget): HubTarget => ({
  ...(target.namespace === undefined ? {} : { namespace: target.namespace }),
  ...(target.room === undefined ? {} : { room: target.room }),
})

/**
 * The message a server frame holds, for a hub to send as it is: the text of a text frame, the
 * bytes of a binary frame; a `Left` naming why for anything else (a compressed or fragmented
 * frame, a control frame, a truncated one). RFC 6455 §5.2: FIN, RSV1-3 clear, opcode 0x1 or 0x2.
 *
 * @example
 * broadcastOfFrame(Uint8Array.of(0x81, 0x02, 0x68, 0x69)) // right('hi')
 * broadcastOfFrame(Uint8Array.of(0xc1, 0x00)) // left('not a whole, uncompressed data frame')
 */
export const broadcastOfFrame = (frame: Uint8Array): E.Either<string, string | Uint8Array> => {
  if (frame.length < 2) return E.left('a truncated frame')
  const first = frame[0]!
  const opcode = first & OPCODE_BITS
  if ((first & ~OPCODE_BITS) !== FIN_BIT || (opcode !== OPCODE.TEXT && opcode !== OPCODE.BINARY)) return E.left('not a whole, uncompressed data frame')
  const at = payloadOffset(frame)
  if (frame.length < at || frame.length - at !== readPayloadLength(frame, 0)) return E.left('a truncated frame')
  const payload = frame.subarray(at)
  if (opcode === OPCODE.BINARY) return E.right(payload)
  try {
    return E.right(utf8.decode(payload))
  } catch {
    return E.left('a text frame that is not UTF-8')
  }
}

/**
 * The request that asks a hub to deliver `broadcast` (for `stub.fetch`).
 *
 * @example
 * await stub.fetch(hubBroadcastRequest({ target: { room: 'lobby' }, message: '{"event":"news","data":1}' }))
 */
export const hubBroadcastRequest = ({ target, message }: HubBroadcast): Request =>
  new Request(HUB_BROADCAST_URL, {
    method: 'POST',
    headers: {
      [HUB_TARGET_HEADER]: JSON.stringify(targetOf(target)),
      'content-type': typeof message === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
    },
    body: message as string | Uint8Array<ArrayBuffer>,
  })

/** Whether `request`, as a hub received it, is a broadcast from its Worker. */
export const isHubBroadcast = (request: Request): boolean => request.method === 'POST' && request.url === HUB_BROADCAST_URL

const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string'

/**
 * The broadcast `request` carries (`isHubBroadcast` said it is one); a `Left` naming what is wrong.
 *
 * @example
 * const read = await readHubBroadcast(request)
 * if (E.isRight(read)) for (const member of receiversOf(members, read.right.target)) member.socket.send(read.right.message)
 */
export const readHubBroadcast = async (request: Request): Promise<E.Either<string, HubBroadcast>> => {
  let target: unknown
  try {
    target = JSON.parse(request.headers.get(HUB_TARGET_HEADER) ?? 'null')
  } catch {
    return E.left(`${HUB_TARGET_HEADER} is not JSON`)
  }
  const t = target as Partial<Record<keyof HubTarget, unknown>> | null
  if (typeof t !== 'object' || t === null || !optionalString(t.room) || !optionalString(t.namespace)) return E.left(`${HUB_TARGET_HEADER} is not a target`)
  const binary = request.headers.get('content-type') === 'application/octet-stream'
  const message = binary ? new Uint8Array(await request.arrayBuffer()) : await request.text()
  return E.right({ target: targetOf(t as HubTarget), message })
}
