/**
 * The sources bench/typecheck-cost.ts type-checks: the same generated app for twinport and for
 * Hono (groups of routes mounted under `/g<n>`; route `i` a GET `/items<i>/{id}` whose `id` a Zod
 * schema coerces to an integer, or a POST `/items<i>` whose JSON body a Zod schema checks,
 * answering 201), a client calling every route once and reading a field of each result, and a
 * twinport app of as many `socketOn` events with `connect`. Text only: imports nothing.
 */

/** How many groups, and routes in each. */
export interface AppShape {
  readonly groups: number
  readonly perGroup: number
}

interface RouteSpec {
  readonly group: number
  readonly n: number
  readonly get: boolean
}

const routeSpecs = ({ groups, perGroup }: AppShape): readonly RouteSpec[] =>
  Array.from({ length: groups * perGroup }, (_, n) => ({ group: Math.floor(n / perGroup), n, get: n % 2 === 0 }))

const byGroup = (shape: AppShape): readonly (readonly RouteSpec[])[] =>
  Array.from({ length: shape.groups }, (_, g) => routeSpecs(shape).filter((r) => r.group === g))

/** The twinport server: `routes(mount('/g0', routes(httpRoute(…), …)), …)`, exported as `app`. */
export const twinportServer = (shape: AppShape): string => {
  const groups = byGroup(shape).map(
    (routes, g) =>
      `const g${g} = routes(\n${routes
        .map((r) =>
          r.get
            ? `  httpRoute('GET', '/items${r.n}/{id}', { params: z.object({ id: z.coerce.number().int() }) }, (req) => ({ id: req.input.params.id, name: 'item${r.n}' })),`
            : `  httpRoute('POST', '/items${r.n}', { body: z.object({ name: z.string(), count${r.n}: z.number() }) }, (req) => json({ id: ${r.n}, name: req.input.body.name, count: req.input.body.count${r.n} }, 201)),`,
        )
        .join('\n')}\n)`,
  )
  return `import { httpRoute, json, mount, routes } from 'twinport'
import { z } from 'zod'

${groups.join('\n')}
export const app = routes(${byGroup(shape).map((_, g) => `mount('/g${g}', g${g})`).join(', ')})
`
}

/** The Hono server: chained routes per group (what `hc` needs), `.route('/g0', g0)` for each. */
export const honoServer = (shape: AppShape): string => {
  const groups = byGroup(shape).map(
    (routes, g) =>
      `const g${g} = new Hono()\n${routes
        .map((r) =>
          r.get
            ? `  .get('/items${r.n}/:id', zValidator('param', z.object({ id: z.coerce.number().int() })), (c) => c.json({ id: c.req.valid('param').id, name: 'item${r.n}' }))`
            : `  .post('/items${r.n}', zValidator('json', z.object({ name: z.string(), count${r.n}: z.number() })), (c) => {\n    const body = c.req.valid('json')\n    return c.json({ id: ${r.n}, name: body.name, count: body.count${r.n} }, 201)\n  })`,
        )
        .join('\n')}`,
  )
  return `import { zValidator } from '@hono/zod-validator'
import { Hono } from 'hono'
import { z } from 'zod'

${groups.join('\n')}
export const app = new Hono()${byGroup(shape).map((_, g) => `.route('/g${g}', g${g})`).join('')}
`
}

/** Every route called once through `createApi<typeof app>`, a field of each result read. */
export const twinportClient = (shape: AppShape): string => `import { createApi } from 'twinport/client'
import type { app } from './server.js'

const api = createApi<typeof app>('http://127.0.0.1:6001')

export const callAll = async (): Promise<readonly string[]> => [
${routeSpecs(shape)
  .map((r) =>
    r.get
      ? `  (await api.get('/g${r.group}/items${r.n}/{id}', { params: { id: '${r.n}' } })).name,`
      : `  (await api.post('/g${r.group}/items${r.n}', { body: { name: 'n', count${r.n}: ${r.n} } })).name,`,
  )
  .join('\n')}
]
`

/**
 * Every route called once through `hc<typeof app>`, a field of each result read. A non-2xx
 * answer throws, as `createApi` rejects (the validator's 400 is in the response's type: `ok`
 * narrows it away).
 */
export const honoClient = (shape: AppShape): string => `import { hc } from 'hono/client'
import type { app } from './server.js'

const client = hc<typeof app>('http://127.0.0.1:6001')

export const callAll = async (): Promise<readonly string[]> => {
  const names: string[] = []
${routeSpecs(shape)
  .map((r) => {
    const call = r.get
      ? `client.g${r.group}.items${r.n}[':id'].$get({ param: { id: '${r.n}' } })`
      : `client.g${r.group}.items${r.n}.$post({ json: { name: 'n', count${r.n}: ${r.n} } })`
    return `  const r${r.n} = await ${call}\n  if (!r${r.n}.ok) throw new Error(String(r${r.n}.status))\n  names.push((await r${r.n}.json()).name)`
  })
  .join('\n')}
  return names
}
`

/** A twinport app of `socketOn` events (`e<n>`, a Zod payload, an ack), grouped as the HTTP one. */
export const twinportSocketServer = (shape: AppShape): string => {
  const groups = byGroup(shape).map(
    (routes, g) =>
      `const g${g} = routes(\n${routes
        .map((r) => `  socketOn('e${r.n}', z.object({ room: z.string(), count${r.n}: z.number() }), (data) => ({ room: data.room, count: data.count${r.n} })),`)
        .join('\n')}\n)`,
  )
  return `import { routes, socketOn } from 'twinport'
import { z } from 'zod'

${groups.join('\n')}
export const app = routes(${byGroup(shape).map((_, g) => `g${g}`).join(', ')})
`
}

/** Every event sent once through `connect<typeof app>`, a field of each ack read. */
export const twinportSocketClient = (shape: AppShape): string => `import { connect } from 'twinport/client'
import type { app } from './server.js'

const client = connect<typeof app>('ws://127.0.0.1:6001/')

export const askAll = async (): Promise<readonly string[]> => [
${routeSpecs(shape)
  .map((r) => `  (await client.request('e${r.n}', { room: 'r', count${r.n}: ${r.n} })).room,`)
  .join('\n')}
]
`
