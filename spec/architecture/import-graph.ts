/**
 * The import graph of `lib/` and its layering rules (docs/architecture.md "The layers"):
 * `importsOf` reads the import and re-export statements of a source text (static,
 * type-only, side-effect and dynamic `import('…')` with a literal), `layeringProblems`
 * checks a list of files and their imports against `LAYER_RULES`, one line per import that
 * breaks a rule. Used by import-graph.spec.ts; a test helper, so `node:*` is fine here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { posix } from 'node:path'

/** A folder of `lib/` (or `entry`, the Node entry point `lib/index.ts`). */
export type Layer = 'core' | 'engine' | 'runtime' | 'native' | 'node' | 'bun' | 'deno' | 'fetch' | 'workers' | 'client' | 'redis' | 'otel' | 'admin' | 'entry'

/** What the files of one layer may import: layers of `lib/`, and packages by name (`node:` for every built-in). */
export interface LayerRule {
  readonly layers: readonly Layer[]
  readonly packages: readonly string[]
}

const ADAPTER_PACKAGES = ['fp-ts', 'node:']

/**
 * The rules. The core imports only itself and fp-ts/io-ts; the engine the core and itself;
 * the shared runtime layer (lib/runtime/) the core, the engine, itself and the runtime's
 * built-ins; each adapter the core, the engine, the runtime layer and its own folder; the
 * fetch handler (lib/fetch) the core, the engine and itself, no built-ins; the Workers entry
 * (lib/workers) the same and the fetch handler; the client only
 * the core and itself; the OpenTelemetry bridge (lib/otel) the core, the engine, itself and
 * `@opentelemetry/api`, and no other layer imports it.
 */
export const LAYER_RULES: Readonly<Record<Layer, LayerRule>> = {
  core: { layers: ['core'], packages: ['fp-ts', 'io-ts'] },
  engine: { layers: ['core', 'engine'], packages: ['fp-ts', 'io-ts'] },
  runtime: { layers: ['core', 'engine', 'runtime'], packages: ['fp-ts', 'io-ts', 'node:'] },
  // The native transport (issue 32): Node's platform with the addon's sockets; Node's adapter picks it.
  native: { layers: ['core', 'engine', 'runtime', 'native'], packages: ADAPTER_PACKAGES },
  node: { layers: ['core', 'engine', 'runtime', 'native', 'node'], packages: ADAPTER_PACKAGES },
  bun: { layers: ['core', 'engine', 'runtime', 'admin', 'bun'], packages: ADAPTER_PACKAGES },
  deno: { layers: ['core', 'engine', 'runtime', 'admin', 'deno'], packages: ADAPTER_PACKAGES },
  // The fetch handler (twinport/fetch) runs where no node:* exists (Workers): the core, the engine, itself.
  fetch: { layers: ['core', 'engine', 'fetch'], packages: ['fp-ts', 'io-ts'] },
  // The Worker and its Durable Object hubs (twinport/workers) run on workerd: no node:*; toFetch serves their HTTP side.
  workers: { layers: ['core', 'engine', 'fetch', 'workers'], packages: ['fp-ts', 'io-ts'] },
  client: { layers: ['core', 'client'], packages: [] },
  redis: { layers: ['core', 'engine', 'redis'], packages: ['fp-ts', 'io-ts', 'redis', 'node:'] },
  // The OpenTelemetry bridge (twinport/otel, issue 25): the API only (an optional peer dependency), no built-ins.
  otel: { layers: ['core', 'engine', 'otel'], packages: ['@opentelemetry/api'] },
  // The admin page (issue 25): routes on the core, with the page's HTML, CSS and browser script as text.
  admin: { layers: ['core', 'admin'], packages: ['fp-ts', 'io-ts'] },
  entry: { layers: ['core', 'engine', 'runtime', 'node', 'fetch', 'admin'], packages: [] },
}

/** One file of `lib/` (its path from the project root, `/`-separated) and what it imports. */
export interface FileImports {
  readonly path: string
  readonly imports: readonly string[]
}

/** What `importsOf` read, and how many import-like statements it could not read (each one a problem). */
export interface ReadImports {
  readonly imports: readonly string[]
  readonly unread: number
}

// `import x from '…'`, `import type { a } from '…'`, `import * as E from '…'`, `import x, { a } from '…'`, `import '…'`.
const STATIC_IMPORT = /^import\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s+[\w$]+\s*|\{[^}]*\}\s*)?(?:from\s*)?(['"])([^'"\n]+)\1/gm
// `export * from '…'`, `export * as x from '…'`, `export { a } from '…'`, `export type { A } from '…'`.
const RE_EXPORT = /^export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])([^'"\n]+)\1/gm
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g
// What would be an import the patterns above missed.
const ANY_STATIC = /^import\b(?!\s*\()/gm
const ANY_RE_EXPORT = /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\b/gm
const ANY_DYNAMIC = /\bimport\s*\(/g

const count = (pattern: RegExp, text: string): number => text.match(pattern)?.length ?? 0
const specifiers = (pattern: RegExp, text: string): string[] => [...text.matchAll(pattern)].map((m) => m[2] ?? '')

// Comment lines (JSDoc, `//`) hold `@example`s that look like imports.
const codeLines = (source: string): string =>
  source
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .join('\n')

/**
 * The module specifiers `source` imports or re-exports, in order of kind (static, then
 * re-exports, then dynamic), and the count of import statements it could not read.
 *
 * @example
 * importsOf("import { a } from './a.js'\nexport * from '../b.js'\nconst c = await import('node:net')")
 * // { imports: ['./a.js', '../b.js', 'node:net'], unread: 0 }
 */
export const importsOf = (source: string): ReadImports => {
  const code = codeLines(source)
  const statics = specifiers(STATIC_IMPORT, code)
  const reExports = specifiers(RE_EXPORT, code)
  const dynamics = specifiers(DYNAMIC_IMPORT, code)
  const unread =
    count(ANY_STATIC, code) - statics.length + (count(ANY_RE_EXPORT, code) - reExports.length) + (count(ANY_DYNAMIC, code) - dynamics.length)
  return { imports: [...statics, ...reExports, ...dynamics], unread }
}

/** The layer of a `lib/` path, or undefined for a folder no rule names. */
export const layerOf = (path: string): Layer | undefined => {
  if (path === 'lib/index.ts') return 'entry'
  const folder = /^lib\/([^/]+)\//.exec(path)?.[1]
  return folder !== undefined && folder in LAYER_RULES && folder !== 'entry' ? (folder as Layer) : undefined
}

// `node:net` → `node:`; `@scope/name/x.js` → `@scope/name`; `fp-ts/lib/Either.js` → `fp-ts`.
const packageOf = (specifier: string): string => {
  if (specifier.startsWith('node:')) return 'node:'
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

/**
 * Every import of `files` that breaks `rules`, one line each: `<file> imports <specifier>: <why>`.
 * A file outside every layer is one problem too.
 *
 * @example
 * layeringProblems([{ path: 'lib/bun/run-server.ts', imports: ['../node/run-server.js'] }])
 * // ['lib/bun/run-server.ts imports ../node/run-server.js: bun may not import node']
 */
export const layeringProblems = (files: readonly FileImports[], rules: Readonly<Record<Layer, LayerRule>> = LAYER_RULES): string[] => {
  const problems: string[] = []
  for (const { path, imports } of files) {
    const layer = layerOf(path)
    if (layer === undefined) {
      problems.push(`${path}: in no layer (give its folder a rule in spec/architecture/import-graph.ts)`)
      continue
    }
    const rule = rules[layer]
    for (const specifier of imports) {
      if (specifier.startsWith('.')) {
        const target = posix.normalize(posix.join(posix.dirname(path), specifier))
        const to = layerOf(target)
        if (!target.startsWith('lib/')) problems.push(`${path} imports ${specifier}: outside lib/`)
        else if (to === undefined) problems.push(`${path} imports ${specifier}: ${target} is in no layer`)
        else if (!rule.layers.includes(to)) problems.push(`${path} imports ${specifier}: ${layer} may not import ${to}`)
      } else {
        const name = packageOf(specifier)
        if (!rule.packages.includes(name)) problems.push(`${path} imports ${specifier}: ${layer} may not import the package ${name}`)
      }
    }
  }
  return problems
}

/** Every `.ts` file under `dir` (from the project root), `/`-separated, sorted. */
export const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => posix.join(dir, name.split('\\').join('/')))
    .sort()

/** The imports of every `.ts` file of `lib/`, and the files with statements `importsOf` could not read. */
export const libImports = (): { readonly files: FileImports[]; readonly unread: string[] } => {
  const files: FileImports[] = []
  const unread: string[] = []
  for (const path of sourceFiles('lib')) {
    const read = importsOf(readFileSync(path, 'utf8'))
    files.push({ path, imports: read.imports })
    if (read.unread !== 0) unread.push(`${path}: ${read.unread} import statement(s) not read`)
  }
  return { files, unread }
}
