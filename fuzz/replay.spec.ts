/**
 * The corpus replay (`npm test`'s own step: `uvu-entry.ts fuzz`): every input kept in
 * fuzz/corpus/<name>/ goes through that harness's `check`, in plain Node, without
 * instrumentation. One test per harness; a harness without a corpus fails. A harness that
 * holds something open (the engine's timers) exports `close`, called after its corpus.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FUZZ_DIR, harnessNames } from './harness-names.js'

for (const name of harnessNames()) {
  test(`fuzz corpus :: ${name}`, async () => {
    const harness = (await import(`./harnesses/${name}.ts`)) as { check: (data: Uint8Array) => void; close?: () => Promise<void> }
    const dir = join(FUZZ_DIR, 'corpus', name)
    const files = readdirSync(dir).sort()
    assert.ok(files.length > 0, `${name} has a corpus`)
    for (const file of files) {
      // A fresh buffer per input, as the fuzzer hands them.
      const data = new Uint8Array(readFileSync(join(dir, file)))
      try {
        harness.check(data)
      } catch (err) {
        throw new Error(`${name}/${file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      }
    }
    // A harness that holds a server (the engine) lets it go, so the run ends.
    await harness.close?.()
  })
}

test.run()
