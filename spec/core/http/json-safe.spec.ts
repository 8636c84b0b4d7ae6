/**
 * `json(data)` and the error helpers take data typed by an `interface` as well as by a `type`
 * alias (issue 27: an interface has no index signature, so `Json` refused it with TS2345),
 * and still refuse what JSON cannot carry. Proved by `tsc` (the type check covers every
 * spec): `Equal` checks types, each `@ts-expect-error` line must be an error. The bodies are
 * then checked on the wire.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { getBodyString } from '../../../lib/core/http/read-response.js'
import { badRequest, json, notFound } from '../../../lib/core/http/response.js'
import type { ErrorBody, ErrorResponse, Json, JsonResponse, JsonSafe } from '../../../lib/core/http/types.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const check = <T extends true>(): T => true as T

interface Member {
  name: string
  role: 'admin' | 'member'
  since?: number
}

interface Room {
  readonly name: string
  readonly members: readonly Member[]
  readonly topic: string | null
  readonly pinned: [number, string]
}

type RoomAlias = { name: string; members: number }

const room: Room = { name: 'lobby', members: [{ name: 'ann', role: 'admin' }], topic: null, pinned: [1, 'hi'] }

test('json :: takes data typed by an interface, nested, with optional fields, tuples and null', () => {
  const answer = json(room, 201)
  check<Equal<typeof answer, JsonResponse<Room, 201>>>()
  assert.is(getBodyString(answer), '{"name":"lobby","members":[{"name":"ann","role":"admin"}],"topic":null,"pinned":[1,"hi"]}')
  assert.is(answer.status, 201)
})

test('json :: takes a type alias, Json itself and literals as before', () => {
  const alias: RoomAlias = { name: 'a', members: 1 }
  check<Equal<ReturnType<typeof json<RoomAlias>>, JsonResponse<RoomAlias, 200>>>()
  const data: Json = { ok: [true, null] }
  assert.is(getBodyString(json(data)), '{"ok":[true,null]}')
  assert.is(getBodyString(json(alias)), '{"name":"a","members":1}')
  // An object literal's fields widen as they always did; a top-level string stays literal.
  const n = json({ n: 1 })
  check<Equal<typeof n, JsonResponse<{ n: number }, 200>>>()
  const hi = json('hi')
  check<Equal<typeof hi, JsonResponse<'hi', 200>>>()
  assert.is(getBodyString(hi), '"hi"')
})

test('json :: refuses what JSON cannot carry', () => {
  interface WithMethod {
    name: string
    greet(): string
  }
  const greeter: WithMethod = { name: 'a', greet: () => 'hi' }
  // @ts-expect-error: a method is not JSON
  json(greeter)
  // @ts-expect-error: a bigint is not JSON
  json({ big: 1n })
  // @ts-expect-error: unknown may be anything
  json(JSON.parse('1') as unknown)
  // @ts-expect-error: a required field that may be undefined
  json({ a: undefined as string | undefined })
  // @ts-expect-error: a Date is not JSON data (send its toISOString())
  json({ at: new Date(0) })
  // @ts-expect-error: a Map sends {}
  json(new Map<string, number>())
  check<Equal<JsonSafe<{ f: () => void }>, { f: never }>>()
  check<Equal<JsonSafe<Member>, Member>>()
})

test('error helpers :: take interface-typed data and are typed as errors of their status', () => {
  interface Problem {
    readonly error: string
    readonly field: string
  }
  const problem: Problem = { error: 'invalid', field: 'name' }
  const bad = badRequest(problem)
  check<Equal<typeof bad, ErrorResponse<400, Problem>>>()
  assert.is(getBodyString(bad), '{"error":"invalid","field":"name"}')
  const missing = notFound()
  check<Equal<typeof missing, ErrorResponse<404, ErrorBody>>>()
  assert.is(getBodyString(missing), '{"error":"Not Found"}')
  assert.is(getBodyString(notFound('no room')), '{"error":"no room"}')
  // @ts-expect-error: a function is not JSON
  badRequest({ f: () => 1 })
})

test.run()
