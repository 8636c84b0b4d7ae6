/**
 * Runs every `*.spec.ts` under the directory given as the first argument (default `spec`)
 * as one uvu session, so the summary covers the whole set. Runtime-neutral: Node (with
 * tsx), Bun and Deno start it.
 */
import { parse } from 'uvu/parse'

const dir = process.argv[2] ?? 'spec'
const filter = process.argv[3]
const ctx = await parse(dir, /\.spec\.ts$/, { cwd: process.cwd() })
const suites = filter === undefined ? ctx.suites : ctx.suites.filter((s) => s.name.includes(filter))

// What `uvu/run` does, plus one check: uvu swallows an error thrown by a suite's `before` hook
// (its runner returns from a `finally`), so such a suite printed `(0 / N)` and nothing else, and
// the run's exit code stayed 0. Each queued suite runner is wrapped to say so and fail the run.
type SuiteResult = [errors: string | true, ran: number, skipped: number, total: number]
type Queue = (string | null | (() => Promise<SuiteResult>))[][]
const uvuGlobals = globalThis as { UVU_DEFER?: number; UVU_INDEX?: number; UVU_QUEUE?: Queue }
uvuGlobals.UVU_DEFER = 1
const uvu = await import('uvu')
let index = 0
for (const found of suites) {
  uvuGlobals.UVU_INDEX = index++
  uvuGlobals.UVU_QUEUE?.push([found.name])
  await import('file:///' + found.file)
}
for (const group of uvuGlobals.UVU_QUEUE ?? []) {
  const file = group[0]
  for (let i = 1; i < group.length; i++) {
    const runner = group[i] as () => Promise<SuiteResult>
    group[i] = async () => {
      const result = await runner()
      const [errors, ran, skipped, total] = result
      if (errors !== true || ran === total) return result
      const why = `  FAIL  ${file ?? 'a suite'}: ${total - ran} of ${total} tests never ran: a \`before\` hook threw (uvu drops the error itself: log it in the hook to see it)\n`
      return [why, ran, skipped, total]
    }
  }
}
await (uvu as unknown as { exec(bail?: boolean): Promise<void> }).exec(false)

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
