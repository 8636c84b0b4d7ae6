/**
 * `lib/core` keeps no module-level mutable state (DESIGN §8: every cache, pool or memo
 * belongs to a server and is passed in). Every file is scanned for a top-level `let` or
 * `var`, and for a top-level `const` bound to a new Map, Set, WeakMap, WeakSet, Array,
 * typed array, ArrayBuffer or DataView, or to an object or array literal: state that a
 * call could write and the next call read. A constant that is never written (an empty
 * array of bytes, a frozen value) passes; the few others are on the allowlist below, each
 * with its reason. The scanner is shown to fail on planted files first.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, relative } from 'node:path'

const CORE = fileURLToPath(new URL('../../lib/core', import.meta.url))

// `file:name`: why this top-level binding, though it looks mutable, is a write-once constant.
const ALLOWED: Readonly<Record<string, string>> = {
  'http/cors-config.ts:KEYS': 'the option names of the codec, a ReadonlySet only read',
  'route/route.ts:TAGS': 'the route tags, a ReadonlySet only read',
  'ws/mask-js.ts:LITTLE_ENDIAN': 'a boolean (the byte order, read once), not the array it is read from',
}

// State still to move (issue 26): the WebAssembly masking module, loaded on first use, and
// its switch for specs (`setSimdMasking`). Listed apart from the constants above, and
// checked to be exactly what is left, so this list only shrinks.
const PENDING: Readonly<Record<string, string>> = {
  'ws/mask-simd.ts:loaded': 'the SIMD masking module, instantiated once per realm: to become a masker the engine makes and passes in',
  'ws/mask-simd.ts:enabled': "the SIMD switch for specs and benches: to become that masker's option",
}

const MUTABLE_NEW = /^new (Map|Set|WeakMap|WeakSet|Array|ArrayBuffer|DataView|(Ui|I)nt(8|16|32)Array|Uint8ClampedArray|Float(32|64)Array|Big(Ui|I)nt64Array)\b/

/** A top-level binding that holds mutable state, found in a file's text. */
export interface Finding {
  readonly name: string
  readonly line: number
  readonly why: string
}

// The top-level statements start at column 0 (the code style: two-space indents, no
// statement after another on a line), so a line-based scan sees every one of them.
export const scanModuleState = (source: string): Finding[] => {
  const found: Finding[] = []
  const lines = source.split('\n')
  let inComment = false
  lines.forEach((text, i) => {
    if (inComment) {
      if (text.includes('*/')) inComment = false
      return
    }
    if (text.startsWith('/*')) {
      inComment = !text.includes('*/')
      return
    }
    const mutableBinding = /^(?:export )?(let|var) +([A-Za-z_$][\w$]*)/.exec(text)
    if (mutableBinding !== null) {
      found.push({ name: mutableBinding[2] as string, line: i + 1, why: `a top-level ${mutableBinding[1]}` })
      return
    }
    const constant = /^(?:export )?const +([A-Za-z_$][\w$]*)(?:\s*:[^=]+)?\s*=\s*(.*)$/.exec(text)
    if (constant === null) return
    const name = constant[1] as string
    const value = (constant[2] as string).trim()
    // An empty typed array has no element to write.
    if (/^new (Ui|I)nt(8|16|32)Array\(0\)/.test(value)) return
    if (MUTABLE_NEW.test(value)) found.push({ name, line: i + 1, why: `bound to ${value.split('(')[0]}` })
    else if (value.startsWith('{') || value.startsWith('[')) found.push({ name, line: i + 1, why: 'bound to a literal that is not frozen' })
  })
  return found
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith('.ts') ? [path] : []
  })

test('scanModuleState :: finds every kind of module-level state in a planted file', () => {
  const planted = [
    '/** a header */',
    "import { x } from './x.js'",
    'let last = 0',
    'export let exported: string | undefined',
    'var old = 1',
    'const cache = new Map<string, number>()',
    'const seen: Set<string> = new Set()',
    'const memo = new WeakMap<object, number>()',
    'const scratch = new Uint8Array(64)',
    'const view = new DataView(new ArrayBuffer(8))',
    'const values: string[] = []',
    "export const record = { method: '', target: '' }",
    'const NONE = Object.freeze({ a: 1 })',
    'const EMPTY = new Uint8Array(0)',
    'const f = (): number => {',
    '  let local = 0',
    '  const inner = new Map()',
    '  return local + inner.size',
    '}',
    '/*',
    'let commented = 1',
    '*/',
  ].join('\n')
  assert.equal(
    scanModuleState(planted).map((f) => f.name),
    ['last', 'exported', 'old', 'cache', 'seen', 'memo', 'scratch', 'view', 'values', 'record'],
  )
})

test('purity :: no file under lib/core keeps module-level mutable state (beyond the allowlist)', () => {
  const files = filesUnder(CORE)
  assert.ok(files.length > 100, `only ${files.length} files found under ${CORE}`)
  const found: string[] = []
  const allowedSeen = new Set<string>()
  for (const file of files) {
    const rel = relative(CORE, file)
    for (const f of scanModuleState(readFileSync(file, 'utf8'))) {
      const key = `${rel}:${f.name}`
      if (key in ALLOWED || key in PENDING) allowedSeen.add(key)
      else found.push(`${rel}:${f.line} ${f.name}: ${f.why}`)
    }
  }
  assert.equal(found, [], `module-level mutable state in lib/core:\n${found.join('\n')}`)
  // An entry that no longer matches anything is stale: take it out.
  assert.equal([...Object.keys(ALLOWED), ...Object.keys(PENDING)].filter((k) => !allowedSeen.has(k)), [])
})

test.run()
