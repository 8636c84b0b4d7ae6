/**
 * One contender of `bench/deno-shapes.ts`: a bare `Deno.serve` handler answering `GET /hello`
 * with `{"hello":"world"}`, in one of a few shapes (argv), to see in isolation what reading the
 * request's headers and what the shape of the answer's headers cost `Deno.serve`: no request
 * header read (`const`), `request.headers` touched, one `get`, every header copied; the answer
 * with one `Content-Type` (`const`), with the CORS grant as a second header in a record (as
 * twinport's default), lower case, as pairs, as a `Headers` object, with `Vary` too, as bytes.
 * Session 13 adds the shapes that keep a two-header answer off Deno's native response
 * (`cors-set`: the one-`Content-Type` answer, the grant set on its `headers` afterwards), a
 * `Headers` object shared by every answer (`cors-shared`), a prebuilt answer cloned
 * (`cors-clone`), and runs under Bun too (`Bun.serve`, argv after the script).
 * The shapes that need no request come from answer-shapes.ts, shared with response-build.ts.
 * Listens on 127.0.0.1 and a free port and prints `PORT <n>`. Bench code, Deno or Bun.
 */
import { answerShapes, BODY, BYTES, JSON_TYPE } from './answer-shapes.js'

const GRANT: readonly (readonly [string, string])[] = Object.freeze([Object.freeze(['Access-Control-Allow-Origin', '*'] as const)])

type Shape = (request: Request) => Response
// A prebuilt answer cloned per request (only for a body that never changes: a yardstick).
const PREBUILT = new Response(BODY, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } })

const shapes: Record<string, Shape> = {
  ...answerShapes,
  'req-touch': (request) => (request.headers, new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })),
  'req-get': (request) => (request.headers.get('upgrade'), new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })),
  'req-copy': (request) => {
    const copy: [string, string][] = []
    request.headers.forEach((value, name) => copy.push([name, value]))
    return new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })
  },
  // Both at once, as toFetch did until session 12 (a get for the upgrade check, then the CORS grant).
  'req-get-cors': (request) => (request.headers.get('upgrade'), new Response(BODY, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } })),
  // As toFetch builds its answer: the body a fresh JSON text per request, the record filled key by key.
  'const-fresh': () => new Response(JSON.stringify({ hello: 'world' }), { headers: { 'Content-Type': JSON_TYPE } }),
  'cors-fresh': () => new Response(JSON.stringify({ hello: 'world' }), { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } }),
  'cors-built': () => {
    const headers: Record<string, string> = { 'Content-Type': JSON_TYPE }
    for (const [name, value] of GRANT) headers[name] = value
    return new Response(BODY, { headers })
  },
  // A handler that declares its request (as every fetch handler that routes does): Deno.serve
  // makes the Request object only for a handler with a parameter.
  'const-arg': (_request) => new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } }),
  'cors-arg': (_request) => new Response(BODY, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } }),
  'cors-lower': () => new Response(BODY, { headers: { 'content-type': JSON_TYPE, 'access-control-allow-origin': '*' } }),
  'cors-vary': () => new Response(BODY, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*', Vary: 'Origin' } }),
  'one-other': () => new Response(BYTES, { headers: { 'Access-Control-Allow-Origin': '*' } }),
  'cors-clone': () => PREBUILT.clone(),
  // The one-Content-Type answer (Deno's static fast path) as bytes or `Response.json`, the grant
  // added on its headers after (`cors-set` and `cors-set2` in answer-shapes.ts as text).
  'cors-bytes-set': () => {
    const response = new Response(BYTES, { headers: { 'Content-Type': JSON_TYPE } })
    response.headers.set('Access-Control-Allow-Origin', '*')
    return response
  },
  'cors-json-set': () => {
    const response = Response.json({ hello: 'world' })
    response.headers.set('Access-Control-Allow-Origin', '*')
    return response
  },
  // Session 14: the grant only to a request that carries `Origin` (the load sends none), which a
  // shared cache then needs told with `Vary: Origin` on every answer (`origin-vary`); without it
  // (`origin-only`, wrong behind a cache) the lower bound of that policy.
  'origin-vary': (request) => {
    const origin = request.headers.get('origin')
    const response = new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })
    response.headers.append('Vary', 'Origin')
    if (origin !== null) response.headers.append('Access-Control-Allow-Origin', '*')
    return response
  },
  'origin-only': (request) => {
    const origin = request.headers.get('origin')
    const response = new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })
    if (origin !== null) response.headers.append('Access-Control-Allow-Origin', '*')
    return response
  },
}

interface DenoLike {
  readonly args: readonly string[]
  serve(options: { port: number; hostname: string; onListen(addr: { port: number }): void }, handler: Shape): unknown
}
interface BunLike {
  serve(options: { port: number; hostname: string; fetch: Shape }): { port: number }
}
const { Deno, Bun } = globalThis as unknown as { Deno?: DenoLike; Bun?: BunLike }
const which = Deno?.args[0] ?? (globalThis as unknown as { process: { argv: string[] } }).process.argv[2] ?? ''
const shape = shapes[which]
if (shape === undefined) throw new Error(`usage: deno-shapes-server.ts ${Object.keys(shapes).join('|')}`)
if (Bun !== undefined) console.log(`PORT ${Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: shape }).port}`)
else Deno?.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`PORT ${port}`) }, shape)
