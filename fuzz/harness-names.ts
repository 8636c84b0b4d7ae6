/**
 * `harnessNames`: the harnesses under fuzz/harnesses (one file each, exporting `check` and
 * `fuzz`), in a stable order. Shared by the runner (fuzz/run.ts) and the corpus replay.
 * Node only.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The fuzz/ folder. */
export const FUZZ_DIR = dirname(fileURLToPath(import.meta.url))

/** Every harness name (its file name without `.ts`), sorted. */
export const harnessNames = (): readonly string[] =>
  readdirSync(join(FUZZ_DIR, 'harnesses'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort()
