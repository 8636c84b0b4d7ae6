/**
 * Benchmark (not a test): the size of `twinport/client` in a browser, minified and gzipped,
 * beside `socket.io-client`. Each entry is bundled by esbuild for the browser (ESM, es2022,
 * minified, tree-shaken) from a one-line module that imports what an application imports,
 * then gzipped at level 9; socket.io-client's own prebuilt browser file
 * (`dist/socket.io.min.js`) is measured as shipped, too. Also checks that the client bundle
 * holds nothing but `lib/client/` and the core's dependency-free wire module
 * (`lib/core/ws/envelope-wire.ts`, shared with the server): no fp-ts, no io-ts, nothing else
 * of the core at run time.
 * Targets (issue 10): ≤ 4 KiB and ≤ 0.35× socket.io-client.
 * Run: `npx tsx bench/client-bundle.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

/** One measured bundle. */
export interface BundleRow {
  readonly bundle: string
  readonly minified: number
  readonly gzip: number
  readonly 'vs socket.io-client': string
  readonly modules: string
}

const root = resolve(import.meta.dirname ?? '.', '..')
const client = join(root, 'lib', 'client', 'index.ts')
// The one module of the core a client bundle may hold: the wire format, written once for both sides.
const WIRE = 'lib/core/ws/envelope-wire.ts'

const ENTRIES: readonly (readonly [string, string])[] = [
  ['twinport/client: connect', `export { connect } from ${JSON.stringify(client)}`],
  ['twinport/client: connect + createApi', `export { connect, createApi } from ${JSON.stringify(client)}`],
  ['twinport/client: every export', `export * from ${JSON.stringify(client)}`],
  ['socket.io-client: io', `export { io } from 'socket.io-client'`],
]

const gzip = (bytes: Uint8Array): number => gzipSync(bytes, { level: 9 }).length

/** Bundles each entry and measures it; the ratio is against socket.io-client bundled the same way. */
export const run = async (): Promise<readonly BundleRow[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-bundle-'))
  try {
    const measured: { name: string; min: number; gz: number; inputs: readonly string[] }[] = []
    for (const [i, [name, source]] of ENTRIES.entries()) {
      const entry = join(dir, `entry-${i}.mjs`)
      writeFileSync(entry, `${source}\n`)
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        metafile: true,
        logLevel: 'silent',
        nodePaths: [join(root, 'node_modules')],
      })
      const code = out.outputFiles[0]?.contents ?? new Uint8Array()
      measured.push({ name, min: code.length, gz: gzip(code), inputs: Object.keys(out.metafile.inputs).filter((f) => !f.startsWith(dir) && !f.includes('entry-')) })
    }
    // Not in the package's exports map: read from where npm puts it.
    const shipped = readFileSync(join(root, 'node_modules', 'socket.io-client', 'dist', 'socket.io.min.js'))
    measured.push({ name: 'socket.io-client: dist/socket.io.min.js (as shipped)', min: shipped.length, gz: gzip(shipped), inputs: [] })
    const reference = measured.find((m) => m.name === 'socket.io-client: io')?.gz ?? Number.NaN
    return measured.map((m) => {
      const foreign = m.inputs.filter((f) => !f.replaceAll('\\', '/').includes('lib/client/') && !f.replaceAll('\\', '/').endsWith(WIRE))
      return {
        bundle: m.name,
        minified: m.min,
        gzip: m.gz,
        'vs socket.io-client': `${(m.gz / reference).toFixed(2)}×`,
        modules: m.name.startsWith('twinport') ? (foreign.length === 0 ? `${m.inputs.length}, lib/client + core wire` : `outside lib/client: ${foreign.join(', ')}`) : '',
      }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename ?? '')) {
  const rows = await run()
  console.log('| bundle | minified B | min+gzip B | vs socket.io-client | modules |')
  console.log('|---|---:|---:|---:|---|')
  for (const r of rows) console.log(`| ${r.bundle} | ${r.minified} | ${r.gzip} | ${r['vs socket.io-client']} | ${r.modules} |`)
}
