import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { crashSummary, startServer } from '../../../bench/load/start-server.js'

test('crashSummary :: the first error line of a stack', () => {
  const stderr = 'node:internal/x:1\n  throw err\n\nSyntaxError: Unexpected token } in lib/a.ts\n    at foo (a.ts:1)\n\nNode.js v20\n'
  assert.is(crashSummary(stderr), 'SyntaxError: Unexpected token } in lib/a.ts')
})

test('crashSummary :: the last three lines when nothing looks like an error', () => {
  assert.is(crashSummary('a\nb\n\nc\nd\n'), 'b | c | d')
})

test('startServer :: a script that cannot start gives the reason', async () => {
  const r = await startServer('bench/peers/does-not-exist.ts', 5000)
  assert.type(r, 'string')
  assert.match(String(r), 'exited with code')
  assert.match(String(r), 'ERR_MODULE_NOT_FOUND')
})

test.run()
