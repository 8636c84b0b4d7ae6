/**
 * `bodyPlans`: per route, whether the body streams and within which limit; the limits
 * requests are parsed with (the largest body any route allows); nothing at all for a server
 * without body options. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { bodyPlans } from '../../../lib/engine/http/body-plans.js'

const compile = (table: RouteTable): CompiledRoutes => E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))
const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, maxBody: 1000 }

test('bodyPlans :: no route with body options: parse with the server limits, no plan at all', () => {
  const plans = bodyPlans(compile([httpRoute('POST', '/a', () => 1)]), limits)
  assert.is(plans.parseLimits, limits)
  assert.is(plans.planOf('POST', '/a'), undefined)
  assert.is(plans.planOf('GET', '/nope'), undefined)
})

test('bodyPlans :: a streamed route with its own limit; others fall back to the server limit', () => {
  const plans = bodyPlans(
    compile([
      httpRoute('PUT', '/files/{name}', { body: 'stream', maxBody: 5000 }, async () => 1),
      httpRoute('POST', '/small', { maxBody: 10 }, () => 1),
      httpRoute('POST', '/plain', () => 1),
      httpRoute('POST', '/stream-default', { body: 'stream' }, async () => 1),
    ]),
    limits,
  )
  assert.is(plans.parseLimits.maxBody, 5000, 'parsed within the largest limit')
  assert.is(plans.parseLimits.maxHeaderBytes, limits.maxHeaderBytes)
  const files = plans.planOf('PUT', '/files/x')
  assert.equal([files?.stream, files?.maxBody, files?.limits.maxBody], [true, 5000, 5000])
  const small = plans.planOf('POST', '/small')
  assert.equal([small?.stream, small?.maxBody, small?.limits.maxBody], [false, 10, 10])
  const plain = plans.planOf('POST', '/plain')
  assert.equal([plain?.stream, plain?.maxBody, plain?.limits], [false, 1000, limits])
  const byDefault = plans.planOf('POST', '/stream-default')
  assert.equal([byDefault?.stream, byDefault?.maxBody], [true, 1000])
  assert.equal(plans.planOf('GET', '/files/x')?.stream, false, 'a method the route does not take: the fallback')
  assert.equal(plans.planOf('GET', '/unknown')?.maxBody, 1000)
})

test('bodyPlans :: a route limit under the server limit leaves the parse limit at the server limit', () => {
  const plans = bodyPlans(compile([httpRoute('POST', '/tiny', { maxBody: 3 }, () => 1)]), limits)
  assert.is(plans.parseLimits.maxBody, 1000)
  assert.is(plans.planOf('POST', '/tiny')?.maxBody, 3)
})

test.run()
