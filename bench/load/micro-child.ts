/**
 * Runs one micro-benchmark module (`bench/<name>.ts` exporting `run()`) in its own
 * process, so that the harness can pin it and bound it in time, and prints what
 * `run()` returned as one `RESULT {json}` line.
 *
 *   node --import tsx bench/load/micro-child.ts bench/ws-codec.ts
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { RESULT_PREFIX } from './client-result.js'

const file = process.argv[2]
if (file === undefined) throw new Error('usage: micro-child.ts <module>')
const mod = (await import(pathToFileURL(resolve(file)).href)) as { run?: unknown }
if (typeof mod.run !== 'function') {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify({ note: `${file} exports no run()` })}\n`)
} else {
  const result: unknown = await (mod.run as () => unknown)()
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify({ result })}\n`)
}
process.exit(0)
