import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BUN, crashSummary, serverCommand, startServer } from '../../../bench/load/start-server.js'

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

test('serverCommand :: node with tsx or plain, bun, and the deno binary with the project\'s import rules', () => {
  assert.equal(serverCommand('node', 'bench/peers/raw-net.ts'), [process.execPath, '--import', 'tsx', 'bench/peers/raw-net.ts'])
  assert.equal(serverCommand('node', 'x/echo.js', ['--max-semi-space-size=1']), [process.execPath, '--max-semi-space-size=1', 'x/echo.js'])
  assert.equal(serverCommand('bun', 'examples/echo.ts'), [BUN, 'examples/echo.ts'])
  const deno = serverCommand('deno', 'examples/echo.ts')
  assert.is(deno[0], 'node_modules/deno/deno')
  assert.equal(deno.slice(1), ['run', '--quiet', '-A', '--sloppy-imports', '--node-modules-dir=manual', 'examples/echo.ts'])
})

test.run()
