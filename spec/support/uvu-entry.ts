/**
 * Runs every `*.spec.ts` under the directory given as the first argument (default `spec`)
 * as one uvu session, so the summary covers the whole set. Runtime-neutral: Node (with
 * tsx), Bun and Deno start it.
 */
import { parse } from 'uvu/parse'
import { run } from 'uvu/run'

const dir = process.argv[2] ?? 'spec'
const filter = process.argv[3]
const ctx = await parse(dir, /\.spec\.ts$/, { cwd: process.cwd() })
const suites = filter === undefined ? ctx.suites : ctx.suites.filter((s) => s.name.includes(filter))
await run(suites, { bail: false })

// Every test has run and the summary is out. Something a spec left open (a server, a child
// process, a timer) would keep this process alive forever: it gets a few seconds, then the
// run ends anyway with uvu's exit code, saying so.
const leftover = setTimeout(() => {
  const open = (process as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo?.() ?? []
  console.error(`[uvu-entry] still running 3 s after the last test (a spec left a handle open: ${open.join(', ') || 'unknown'}): exiting`)
  process.exit()
}, 3000)
const deno = (globalThis as { Deno?: { unrefTimer(id: number): void } }).Deno
if (typeof leftover === 'number') deno?.unrefTimer(leftover)
else leftover.unref()
