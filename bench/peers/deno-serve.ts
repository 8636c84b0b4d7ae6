/**
 * Peer server on Deno: `Deno.serve` (Deno's native HTTP server) with
 * `Deno.upgradeWebSocket`, written to the DESIGN §4 echo contract: `GET /hello` →
 * `{"hello":"world"}`, `POST /echo` → the body and its content type, every WebSocket
 * message echoed verbatim, and clients on `/bcast` sharing one room that a plain loop
 * over the room broadcasts to, the sender included. Run by Deno (`deno run -A
 * bench/peers/deno-serve.ts`); HOST/PORT from the environment.
 *
 * It uses only Deno's documented API (https://docs.deno.com/api/deno/~/Deno.serve,
 * https://docs.deno.com/api/deno/~/Deno.upgradeWebSocket), typed here so the project
 * needs no Deno type package.
 */

interface DenoServe {
  serve(
    options: { readonly hostname: string; readonly port: number; readonly onListen: (addr: { readonly port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown
  upgradeWebSocket(request: Request, options?: { readonly idleTimeout?: number }): { readonly socket: WebSocket; readonly response: Response }
  readonly env: { get(name: string): string | undefined }
}

const deno = (globalThis as { Deno?: DenoServe }).Deno
if (deno === undefined) throw new Error('bench/peers/deno-serve.ts runs in Deno')

const HELLO = new TextEncoder().encode('{"hello":"world"}')
const JSON_TYPE = { 'content-type': 'application/json' }
const room = new Set<WebSocket>()

// The path of an absolute request URL, without building a URL object.
const pathOf = (url: string): string => {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const query = url.indexOf('?', start)
  return start < 0 ? '/' : url.slice(start, query < 0 ? undefined : query)
}

const upgrade = (req: Request, path: string): Response => {
  // idleTimeout 0: no pings from the server inside a measured window.
  const { socket, response } = deno.upgradeWebSocket(req, { idleTimeout: 0 })
  socket.binaryType = 'arraybuffer'
  if (path === '/bcast') {
    socket.onopen = () => room.add(socket)
    socket.onclose = () => room.delete(socket)
    socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
      for (const peer of room) if (peer.readyState === WebSocket.OPEN) peer.send(event.data)
    }
  } else socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => socket.send(event.data)
  return response
}

deno.serve(
  {
    hostname: deno.env.get('HOST') ?? '0.0.0.0',
    port: Number(deno.env.get('PORT') ?? 6001),
    onListen: ({ port }) => console.log(`Deno.serve listening on ${port}`),
  },
  // Synchronous where it can be: only a body to read needs a promise.
  (req) => {
    const path = pathOf(req.url)
    if (req.method === 'GET' && path === '/hello') return new Response(HELLO, { headers: JSON_TYPE })
    if (req.headers.get('upgrade')?.toLowerCase() === 'websocket') return upgrade(req, path)
    if (req.method === 'POST' && path === '/echo') {
      const type = req.headers.get('content-type') ?? 'application/octet-stream'
      return req.arrayBuffer().then((body) => new Response(body, { headers: { 'content-type': type } }))
    }
    return new Response('{"error":"not found"}', { status: 404, headers: JSON_TYPE })
  },
)
