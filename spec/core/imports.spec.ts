/**
 * The import graph of `lib/core` has no cycle: no file reaches itself through its imports
 * (type imports included), and no folder imports a folder that imports it back. Barrels
 * (`index.ts`, which only re-export the files below them) are left out of the folder check:
 * `lib/core/index.ts` re-exports `http/` while `http/` imports `decode-step.ts` beside it.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join, relative, resolve } from 'node:path'

const CORE = fileURLToPath(new URL('../../lib/core', import.meta.url))

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith('.ts') ? [path] : []
  })

/** Each file's relative imports (and re-exports), as paths of `.ts` files, by file. */
export const importGraph = (sources: ReadonlyMap<string, string>): Map<string, string[]> => {
  const graph = new Map<string, string[]>()
  for (const [file, text] of sources) {
    const targets = [...text.matchAll(/^(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm)]
      .map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')))
      .filter((target) => sources.has(target))
    graph.set(file, targets)
  }
  return graph
}

/** Every cycle a depth-first walk meets, each as the files on it. */
export const cyclesOf = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const cycles: string[][] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(path.slice(path.indexOf(next)))
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return cycles
}

/** Folder pairs that import each other (`a <-> b`), barrels left out. */
export const folderLoops = (graph: ReadonlyMap<string, readonly string[]>, root: string): string[] => {
  const folder = (file: string): string => relative(root, dirname(file)) || '.'
  const edges = new Set<string>()
  for (const [file, targets] of graph) {
    if (file.endsWith('/index.ts')) continue
    for (const target of targets) if (!target.endsWith('/index.ts') && folder(file) !== folder(target)) edges.add(`${folder(file)} -> ${folder(target)}`)
  }
  return [...edges].filter((e) => {
    const [a, b] = e.split(' -> ') as [string, string]
    return a < b && edges.has(`${b} -> ${a}`)
  }).map((e) => e.replace(' -> ', ' <-> '))
}

const sourcesOf = (files: readonly string[]): Map<string, string> => new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))

test('import graph :: finds a planted file cycle and a planted folder loop', () => {
  const root = '/x'
  const planted = new Map([
    ['/x/http/request.ts', "import type { Get } from './request-accessors.js'\nexport type R = 1"],
    ['/x/http/request-accessors.ts', "import type { R } from './request.js'\nexport type Get = R"],
    ['/x/route/dispatch.ts', "import { compose } from '../middleware/compose.js'"],
    ['/x/middleware/compose.ts', "import type { Ctx } from '../route/context.js'\nexport const compose = 1"],
    ['/x/route/context.ts', 'export type Ctx = 1'],
  ])
  const graph = importGraph(planted)
  assert.equal(cyclesOf(graph).map((c) => c.map((f) => relative(root, f))), [['http/request.ts', 'http/request-accessors.ts']])
  assert.equal(folderLoops(graph, root), ['middleware <-> route'])
})

test('import graph :: lib/core has no file cycle and no folder loop', () => {
  const graph = importGraph(sourcesOf(filesUnder(CORE)))
  assert.ok(graph.size > 100)
  assert.equal(cyclesOf(graph).map((c) => c.map((f) => relative(CORE, f)).join(' -> ')), [])
  assert.equal(folderLoops(graph, CORE), [])
})

test.run()
