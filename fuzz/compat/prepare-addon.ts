/**
 * `prepareAddon`: makes @jazzer.js/fuzzer's prebuilt libFuzzer addon loadable where it would
 * not be. The linux-x64 prebuild of 4.0.0 asks for glibc 2.38 (`__isoc23_strtol`,
 * `__isoc23_strtoul`) and libstdc++ 3.4.32 (`std::ios_base_library_init`); Debian 12 has
 * glibc 2.36 and GCC 12. When the prebuild loads as it is, nothing is done. Otherwise (linux-x64
 * with gcc at hand) this writes into `.fuzz-work/compat/`:
 *  - `libjazzer-compat.so`: those three symbols, under the versions the addon asks for,
 *    forwarding to `strtol`, `strtoul` and a static `std::ios_base::Init` (built with gcc from
 *    shim.c, shimxx.cc and libjazzer-compat.map beside this file);
 *  - `fuzzer.node`: a copy of the prebuild whose two version needs are marked weak
 *    (VER_FLG_WEAK in .gnu.version_r), so the loader lets the preloaded shim provide them.
 * The answer says how to start node so jazzer uses them (LD_PRELOAD and a `--require` hook).
 * Node only: used by fuzz/run.ts, never by lib/.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What a fuzzing child process needs: extra node arguments and environment. */
export interface AddonSetup {
  readonly nodeArgs: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly note: string
}

const here = dirname(fileURLToPath(import.meta.url))
const WEAK_VERSIONS = new Set(['GLIBC_2.38', 'GLIBCXX_3.4.32'])
const SHT_GNU_VERNEED = 0x6ffffffe
const VER_FLG_WEAK = 0x2

// Marks the version needs in WEAK_VERSIONS weak, in an ELF64 little-endian shared object.
const weakenVersionNeeds = (elf: Buffer): number => {
  const shoff = Number(elf.readBigUInt64LE(0x28))
  const shentsize = elf.readUInt16LE(0x3a)
  const shnum = elf.readUInt16LE(0x3c)
  const section = (i: number): { type: number; offset: number; link: number } => {
    const at = shoff + i * shentsize
    return { type: elf.readUInt32LE(at + 4), offset: Number(elf.readBigUInt64LE(at + 0x18)), link: elf.readUInt32LE(at + 0x28) }
  }
  const cString = (at: number): string => elf.toString('latin1', at, elf.indexOf(0, at))
  let weakened = 0
  for (let i = 0; i < shnum; i++) {
    const s = section(i)
    if (s.type !== SHT_GNU_VERNEED) continue
    const strings = section(s.link).offset
    for (let need = s.offset; ; ) {
      const count = elf.readUInt16LE(need + 2)
      let aux = need + elf.readUInt32LE(need + 8)
      for (let k = 0; k < count; k++) {
        if (WEAK_VERSIONS.has(cString(strings + elf.readUInt32LE(aux + 8)))) {
          elf.writeUInt16LE(elf.readUInt16LE(aux + 4) | VER_FLG_WEAK, aux + 4)
          weakened += 1
        }
        aux += elf.readUInt32LE(aux + 12)
      }
      const next = elf.readUInt32LE(need + 12)
      if (next === 0) break
      need += next
    }
  }
  return weakened
}

const loads = (env: NodeJS.ProcessEnv, args: readonly string[]): { ok: boolean; err: string } => {
  const run = spawnSync(process.execPath, [...args, '-e', "require('@jazzer.js/fuzzer')"], { env: { ...process.env, ...env }, encoding: 'utf8' })
  return { ok: run.status === 0, err: run.stderr }
}

/**
 * How to start node so that jazzer's addon loads, preparing the compat copy under `workDir`
 * when the prebuild cannot load as it is. Throws with the loader's message when neither works.
 */
export const prepareAddon = (workDir: string): AddonSetup => {
  const plain = loads({}, [])
  if (plain.ok) return { nodeArgs: [], env: {}, note: 'prebuilt addon' }
  if (process.platform !== 'linux' || process.arch !== 'x64' || !/GLIBC/.test(plain.err)) {
    throw new Error(`@jazzer.js/fuzzer does not load here:\n${plain.err}`)
  }
  const out = resolve(workDir, 'compat')
  mkdirSync(out, { recursive: true })
  const shim = join(out, 'libjazzer-compat.so')
  const addon = join(out, 'fuzzer.node')
  if (!existsSync(shim)) {
    execFileSync('gcc', ['-O2', '-fPIC', '-c', join(here, 'shim.c'), '-o', join(out, 'shim.o')])
    execFileSync('g++', ['-O2', '-fPIC', '-c', join(here, 'shimxx.cc'), '-o', join(out, 'shimxx.o')])
    execFileSync('g++', ['-shared', `-Wl,--version-script=${join(here, 'libjazzer-compat.map')}`, join(out, 'shim.o'), join(out, 'shimxx.o'), '-o', shim])
  }
  if (!existsSync(addon)) {
    const require = createRequire(import.meta.url)
    const prebuild = join(dirname(require.resolve('@jazzer.js/fuzzer/package.json')), 'prebuilds', 'fuzzer-linux-x64.node')
    const elf = readFileSync(prebuild)
    if (weakenVersionNeeds(elf) === 0) throw new Error(`no glibc 2.38 version need found in ${prebuild}:\n${plain.err}`)
    writeFileSync(addon, elf)
  }
  const setup: AddonSetup = {
    nodeArgs: ['--require', join(here, 'redirect-addon.cjs')],
    env: { LD_PRELOAD: shim, TWINPORT_FUZZ_ADDON: addon },
    note: `prebuilt addon patched for glibc < 2.38 (${out})`,
  }
  const patched = loads(setup.env, setup.nodeArgs)
  if (!patched.ok) throw new Error(`the patched addon does not load either:\n${patched.err}`)
  return setup
}
