/**
 * The answer shapes both Response benches build (bench/embed/response-build.ts in one process,
 * bench/embed/deno-shapes-server.ts served): the same JSON body with `Content-Type` alone or with
 * the CORS grant, given as a record, as pairs, as a fresh or a shared `Headers`, set on the
 * answer's `headers` after it is built, as bytes, through `Response.json`. A shared `Headers` is
 * never changed after it is made: the host copies its list into each Response. Bench code for
 * Deno, Bun or Node; imports nothing.
 */
export const BODY = '{"hello":"world"}'
export const BYTES = new TextEncoder().encode(BODY)
export const JSON_TYPE = 'application/json'
const SHARED = new Headers({ 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' })
const SHARED_ONE = new Headers({ 'Content-Type': JSON_TYPE })

/** Each shape by name: a function building one answer. */
export const answerShapes: Readonly<Record<string, () => Response>> = {
  const: () => new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } }),
  'const-shared': () => new Response(BODY, { headers: SHARED_ONE }),
  'cors-record': () => new Response(BODY, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } }),
  'cors-pairs': () => new Response(BODY, { headers: [['Content-Type', JSON_TYPE], ['Access-Control-Allow-Origin', '*']] }),
  'cors-headers': () => new Response(BODY, { headers: new Headers({ 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' }) }),
  'cors-shared': () => new Response(BODY, { headers: SHARED }),
  'cors-set': () => {
    const response = new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })
    response.headers.set('Access-Control-Allow-Origin', '*')
    return response
  },
  'cors-append': () => {
    const response = new Response(BODY, { headers: { 'Content-Type': JSON_TYPE } })
    response.headers.append('Access-Control-Allow-Origin', '*')
    return response
  },
  'cors-set2': () => {
    const response = new Response(BODY)
    const headers = response.headers
    headers.set('Content-Type', JSON_TYPE)
    headers.set('Access-Control-Allow-Origin', '*')
    return response
  },
  'cors-bytes': () => new Response(BYTES, { headers: { 'Content-Type': JSON_TYPE, 'Access-Control-Allow-Origin': '*' } }),
  'cors-json': () => Response.json({ hello: 'world' }, { headers: { 'Access-Control-Allow-Origin': '*' } }),
}
