import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { buildRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes, Endpoint } from '../../../lib/core/route/compiled-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { createRouteMemo, matchRoute as matchRouteWith, matchStatic as matchStaticWith } from '../../../lib/core/route/match-route.js'

// One server's memo for every lookup here, as a server matches.
const memo = createRouteMemo()
const matchStatic = (compiled: CompiledRoutes, method: string, path: string) => matchStaticWith(compiled, method, path, memo)
const matchRoute = (routes: CompiledRoutes, method: string, path: string) => matchRouteWith(routes, method, path, memo)

// matchStatic answers a repeated lookup (same table, method, path) from a one-entry memo.
// These properties run long sequences of lookups over several generated tables, with
// repeats, the same text as a different string object, and tables interleaved, and compare
// each answer with the lookup made afresh from the compiled data and with matchRoute.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'get'] as const
const SEGMENTS = ['a', 'b', 'hello', 'users', '{id}', '{x}', '%41'] as const

const routePath = fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }).map((s) => `/${s.join('/')}`)
// Routes with repeated param names are invalid and dropped by buildRoutes (listed as errors).
const table = fc.array(fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), routePath), { minLength: 1, maxLength: 8 })

// The target as text, then as a string object of its own (as a parser without a memo makes).
const copyOf = (text: string): string => text.split('').join('')

const afresh = (compiled: CompiledRoutes, method: string, path: string): Endpoint | undefined => {
  const leaf = compiled.statics.get(path)
  if (leaf === undefined) return undefined
  return leaf.methods.get(method) ?? (method === 'HEAD' ? leaf.methods.get('GET') : undefined)
}

const lookup = fc.record({
  table: fc.nat(2),
  method: fc.constantFrom(...METHODS),
  path: fc.oneof(routePath, fc.constantFrom('/hello/', '//', '', 'hello', '/a/A', '/users/42')),
  copy: fc.boolean(),
  repeat: fc.nat(3),
  // The method and path of the step before, in this step's table.
  again: fc.boolean(),
})

test('matchStatic :: a memo hit gives what the lookup afresh and matchRoute give (generated tables and targets)', () => {
  fc.assert(
    fc.property(fc.tuple(table, table, table), fc.array(lookup, { minLength: 1, maxLength: 40 }), (tables, lookups) => {
      const compiled = tables.map((t) => buildRoutes(t.map(([m, p], i) => httpRoute(m, p, () => i))).compiled)
      let method: string = 'GET'
      let text = '/'
      for (const step of lookups) {
        const routes = compiled[step.table] as CompiledRoutes
        if (!step.again) {
          method = step.method
          text = step.path
        }
        for (let r = 0; r <= step.repeat; r++) {
          const path = step.copy && r % 2 === 1 ? copyOf(text) : text
          const endpoint = matchStatic(routes, method, path)
          assert.is(endpoint, afresh(routes, method, path))
          if (endpoint === undefined) continue
          const found = matchRoute(routes, method, path)
          assert.is(found._tag, 'RouteFound')
          if (found._tag === 'RouteFound') {
            assert.is(found.route, endpoint.route)
            assert.equal(found.params, {})
          }
        }
      }
    }),
    { numRuns: 300 },
  )
})

test('matchStatic :: the same method and path in another table is looked up in that table', () => {
  const one = buildRoutes([httpRoute('GET', '/hello', () => 1)]).compiled
  const two = buildRoutes([httpRoute('GET', '/hello', () => 2)]).compiled
  const none = buildRoutes([httpRoute('POST', '/hello', () => 3)]).compiled
  const path = '/hello'
  assert.is(matchStatic(one, 'GET', path)?.route, one.table[0])
  assert.is(matchStatic(two, 'GET', path)?.route, two.table[0])
  assert.is(matchStatic(none, 'GET', path), undefined)
  assert.is(matchStatic(none, 'POST', path)?.route, none.table[0])
  assert.is(matchStatic(one, 'GET', path)?.route, one.table[0])
  assert.is(matchStatic(one, 'HEAD', path)?.route, one.table[0])
  assert.is(matchStatic(one, 'POST', path), undefined)
  assert.is(matchStatic(one, 'GET', '/hello/'), undefined)
})

test.run()
