/**
 * Peer server on Bun: `Bun.serve`, Bun's native HTTP and WebSocket server, written to the
 * DESIGN §4 echo contract the idiomatic way: `GET /hello` and `POST /echo` as `routes`
 * (matched natively, each answered by a JavaScript handler, like every other contender),
 * every other request offered to `server.upgrade`, every WebSocket message echoed
 * verbatim, and clients on `/bcast` subscribed to one topic that `server.publish` sends
 * to, the sender included. No compression, no idle pings. Run by Bun
 * (`bun bench/peers/bun-serve.ts`); HOST/PORT from the environment.
 *
 * It uses only Bun's documented API (https://bun.sh/docs/api/http,
 * https://bun.sh/docs/api/websockets), typed here so the project needs no Bun type package.
 */

interface PeerSocket {
  readonly data: { readonly bcast: boolean }
  send(message: string | Uint8Array): number
  subscribe(topic: string): void
}

interface PeerServer {
  readonly port: number
  upgrade(request: Request, options: { readonly data: { readonly bcast: boolean } }): boolean
  publish(topic: string, message: string | Uint8Array): number
}

interface BunServe {
  serve(options: {
    readonly hostname: string
    readonly port: number
    readonly routes: Readonly<Record<string, Readonly<Record<string, (request: Request) => Response | Promise<Response>>>>>
    readonly fetch: (request: Request, server: PeerServer) => Response | undefined
    readonly websocket: {
      readonly perMessageDeflate: boolean
      readonly maxPayloadLength: number
      readonly sendPings: boolean
      readonly idleTimeout: number
      readonly open: (ws: PeerSocket) => void
      readonly message: (ws: PeerSocket, message: string | Uint8Array) => void
    }
  }): PeerServer
}

const bun = (globalThis as { Bun?: BunServe }).Bun
if (bun === undefined) throw new Error('bench/peers/bun-serve.ts runs in Bun')

const TOPIC = 'bcast'
const HELLO = new TextEncoder().encode('{"hello":"world"}')
const JSON_TYPE = { 'content-type': 'application/json' }

let server: PeerServer | undefined
server = bun.serve({
  hostname: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: {
    '/hello': { GET: () => new Response(HELLO, { headers: JSON_TYPE }) },
    '/echo': {
      POST: async (req) => new Response(await req.arrayBuffer(), {
        headers: { 'content-type': req.headers.get('content-type') ?? 'application/octet-stream' },
      }),
    },
  },
  fetch(req, srv) {
    const bcast = req.url.endsWith('/bcast')
    if (srv.upgrade(req, { data: { bcast } })) return undefined
    return new Response('{"error":"not found"}', { status: 404, headers: JSON_TYPE })
  },
  websocket: {
    perMessageDeflate: false,
    maxPayloadLength: 16 * 1024 * 1024,
    sendPings: false,
    idleTimeout: 0,
    open(ws) {
      if (ws.data.bcast) ws.subscribe(TOPIC)
    },
    message(ws, message) {
      if (ws.data.bcast) server?.publish(TOPIC, message)
      else ws.send(message)
    },
  },
})
console.log(`Bun.serve listening on ${server.port}`)
