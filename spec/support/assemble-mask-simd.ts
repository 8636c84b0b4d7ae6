/**
 * Assembles `lib/core/ws/mask-simd.wat` (the SIMD masking routine) with wabt and writes the
 * bytes into `lib/core/ws/mask-simd-wasm.ts`, so the pure core carries the module inline and
 * needs no file, fetch or bundler plugin to load it.
 *
 * Run after editing the .wat: `npx tsx spec/support/assemble-mask-simd.ts`. The spec
 * `spec/core/ws/mask-simd-wasm.spec.ts` assembles the .wat again and fails if the committed
 * bytes differ.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import wabtInit from 'wabt'

/** Where the source and the generated module live. */
export const WAT_URL = new URL('../../lib/core/ws/mask-simd.wat', import.meta.url)
const MODULE_URL = new URL('../../lib/core/ws/mask-simd-wasm.ts', import.meta.url)

/** The .wat text as WebAssembly binary (SIMD enabled, no debug names: the bytes stay small). */
export const assembleMaskSimd = async (wat: string): Promise<Uint8Array> => {
  const wabt = await wabtInit()
  const module = wabt.parseWat('mask-simd.wat', wat, { simd: true })
  try {
    module.resolveNames()
    module.validate()
    return Uint8Array.from(module.toBinary({ log: false, write_debug_names: false }).buffer)
  } finally {
    module.destroy()
  }
}

const hexByte = (b: number): string => `0x${b.toString(16).padStart(2, '0')}`

/** The TypeScript module that holds `bytes`, 16 to a line. */
export const renderBytesModule = (bytes: Uint8Array): string => {
  const lines: string[] = []
  for (let i = 0; i < bytes.length; i += 16) lines.push(`  ${Array.from(bytes.subarray(i, i + 16), hexByte).join(', ')},`)
  return `/**
 * The SIMD masking routine as WebAssembly bytes (${bytes.length} of them), generated from
 * \`mask-simd.wat\` by \`spec/support/assemble-mask-simd.ts\`: edit the .wat, not this file.
 *
 * Pure and portable: data only. Small enough for a synchronous \`new WebAssembly.Module\`,
 * which browsers allow on the main thread for modules this size.
 */
export const MASK_SIMD_WASM: Uint8Array<ArrayBuffer> = Uint8Array.of(
${lines.join('\n')}
)
`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bytes = await assembleMaskSimd(readFileSync(WAT_URL, 'utf8'))
  writeFileSync(MODULE_URL, renderBytesModule(bytes))
  console.log(`${fileURLToPath(MODULE_URL)}: ${bytes.length} bytes`)
}
