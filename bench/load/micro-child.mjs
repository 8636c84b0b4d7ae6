// The plain-node twin of micro-child.ts, for micro-benchmarks compiled to JavaScript:
// imports the module, runs its run(), prints one `RESULT {json}` line.
//   node bench/load/micro-child.mjs bench/.tmp/dist/bench/ws-codec.js
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const file = process.argv[2]
if (file === undefined) throw new Error('usage: micro-child.mjs <module.js>')
const mod = await import(pathToFileURL(resolve(file)).href)
const line = typeof mod.run !== 'function' ? { note: `${file} exports no run()` } : { result: await mod.run() }
process.stdout.write(`RESULT ${JSON.stringify(line)}\n`)
process.exit(0)
