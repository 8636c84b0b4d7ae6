/**
 * Runs every `*.spec.ts` under the directory given as the first argument (default `spec`)
 * as one uvu session, so the summary covers the whole set. Runtime-neutral: Node (with
 * tsx) and Bun both start it.
 */
import { parse } from 'uvu/parse'
import { run } from 'uvu/run'

const dir = process.argv[2] ?? 'spec'
const filter = process.argv[3]
const ctx = await parse(dir, /\.spec\.ts$/, { cwd: process.cwd() })
const suites = filter === undefined ? ctx.suites : ctx.suites.filter((s) => s.name.includes(filter))
await run(suites, { bail: false })
