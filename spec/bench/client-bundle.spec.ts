/**
 * bench/client-bundle.ts as a check: the browser bundle of `twinport/client` is made of
 * `lib/client/` and the core's dependency-free wire module alone (no fp-ts, no io-ts,
 * nothing else of the core at run time). The sizes are
 * the benchmark's to report, not asserted here beyond "smaller than socket.io-client".
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { run } from '../../bench/client-bundle.js'

const test = suite('bench/client-bundle')

test('client-bundle :: every twinport bundle holds lib/client modules and the core wire module only', async () => {
  const rows = await run()
  const ours = rows.filter((r) => r.bundle.startsWith('twinport'))
  assert.is(ours.length, 3)
  for (const row of ours) assert.match(row.modules, /^\d+, lib\/client \+ core wire$/, row.bundle)
  const reference = rows.find((r) => r.bundle === 'socket.io-client: io')
  assert.ok(reference !== undefined && reference.gzip > 0)
  for (const row of ours) assert.ok(row.gzip < reference.gzip, `${row.bundle}: ${row.gzip} B`)
})

test.run()
