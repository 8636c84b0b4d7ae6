import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { honoClient, honoServer, twinportClient, twinportServer, twinportSocketClient, twinportSocketServer } from '../../../bench/typecheck/generate-app.js'

const shape = { groups: 2, perGroup: 3 }
const count = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].length

test('generateApp :: twinport and Hono get the same routes: as many, the same paths, GETs and POSTs alike', () => {
  const twinport = twinportServer(shape)
  const hono = honoServer(shape)
  assert.equal(count(twinport, /httpRoute\('GET'/g), 3)
  assert.equal(count(twinport, /httpRoute\('POST'/g), 3)
  assert.equal(count(hono, /\.get\('/g), 3)
  assert.equal(count(hono, /\.post\('/g), 3)
  const paths = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => String(m[1]))
  assert.equal(paths(twinport, /'(\/items\d+)[/']/g), paths(hono, /'(\/items\d+)[/']/g))
  assert.match(twinport, /mount\('\/g0', g0\), mount\('\/g1', g1\)/)
  assert.match(hono, /\.route\('\/g0', g0\)\.route\('\/g1', g1\)/)
})

test('generateApp :: each client calls every route once and reads a field of the result', () => {
  assert.equal(count(twinportClient(shape), /\(await api\.(get|post)\(/g), 6)
  assert.equal(count(honoClient(shape), /names\.push\(\(await r\d+\.json\(\)\)\.name\)/g), 6)
  assert.match(honoClient(shape), /client\.g1\.items5\.\$post\(\{ json: \{ name: 'n', count5: 5 \} \}\)/)
  assert.equal(count(twinportSocketServer(shape), /socketOn\('e\d+'/g), 6)
  assert.equal(count(twinportSocketClient(shape), /client\.request\('e\d+'/g), 6)
})

test.run()
