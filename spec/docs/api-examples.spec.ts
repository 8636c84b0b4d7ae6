/**
 * The docs as a test: every ```ts block of the API reference, the guide and the client
 * guide is type-checked and run (the README's, in the layout it shows, by
 * `readme-layout.spec.ts`), and the reference names every export of `twinport` and
 * `twinport/client`. A block is a small ES module that
 * imports from `twinport` (or `twinport/core`, `twinport/client`) and checks what it claims
 * with `node:assert/strict`, so an example that drifts from the code fails here.
 *
 * Each block is written to `spec/docs/.tmp/` (gitignored; the project's tsc skips
 * dot-directories) twice: as written, for tsc with `twinport` mapped to `lib/` (`paths`),
 * and with the package name pointed at `lib/` by absolute path, to be imported in this
 * process, one after the other. The process's files are removed afterwards.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pointAtLib, root, tsBlocks, typeCheck } from './doc-blocks.js'

const here = dirname(fileURLToPath(import.meta.url))
// One directory per process, so two suites running at once never share files.
const tmp = join(here, '.tmp', String(process.pid))
const apiPath = join(root, 'docs', 'api.md')
// Pages whose ```ts blocks are complete programs, run and type-checked. The README's blocks
// are type-checked in the file layout they show, by readme-layout.spec.ts.
const pages = ['api.md', 'guide.md', 'client.md']

const markdown = readFileSync(apiPath, 'utf8')
const blocks = tsBlocks(markdown)
const pageBlocks = pages.map((page) => ({ page, blocks: tsBlocks(readFileSync(join(root, 'docs', page), 'utf8')) }))

// The words of the prose's inline code spans (`runServer(options?)` names `runServer`).
const codeWords = new Set([...markdown.matchAll(/`([^`\n]+)`/g)].flatMap((m) => (m[1] as string).match(/[A-Za-z_$][\w$]*/g) ?? []))
const documented = (name: string): boolean => codeWords.has(name)

const examples = suite('docs examples')

examples.before(() => {
  mkdirSync(tmp, { recursive: true })
})

examples.after(() => {
  rmSync(tmp, { recursive: true, force: true })
})

examples('tsBlocks :: finds fenced ts blocks with their line and heading', () => {
  const found = tsBlocks('# A\ntext\n```ts\nconst a = 1\n```\n## B\n```sh\nls\n```\n```ts\nconst b = 2\n```\n')
  assert.equal(found, [
    { line: 3, heading: 'A', code: 'const a = 1' },
    { line: 10, heading: 'B', code: 'const b = 2' },
  ])
})

examples('docs/api.md :: has examples to run', () => {
  assert.ok(blocks.length >= 30, `expected many examples, found ${blocks.length}`)
})

// Listeners an example left on the process (a shutdown example wires signals).
const signalListeners = (): Set<unknown> => new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')])

for (const { page, blocks: found } of pageBlocks) {
  for (const block of found) {
    examples(`docs/${page} :: example at line ${block.line} (${block.heading}) runs`, async () => {
      const file = join(tmp, `${page.replace('.md', '')}-line-${block.line}.ts`)
      writeFileSync(file, `${pointAtLib(block.code)}\n`)
      const before = signalListeners()
      await import(pathToFileURL(file).href)
      const left = [...signalListeners()].filter((l) => !before.has(l))
      assert.equal(left.length, 0, 'the example leaves signal listeners behind')
    })
  }
}

examples('docs :: every TypeScript block of the guide and the reference is a checked ```ts block', () => {
  for (const page of pages) {
    const unchecked = (readFileSync(join(root, 'docs', page), 'utf8').match(/^```(typescript|tsx?|js|javascript)\s*$/gm) ?? []).filter((f) => f !== '```ts')
    assert.equal(unchecked, [], `docs/${page} has code blocks the suite does not run`)
  }
})

examples('docs :: every example type-checks (guide, reference, client guide)', async () => {
  const dir = join(tmp, 'check')
  mkdirSync(dir, { recursive: true })
  let count = 0
  for (const { page, blocks: found } of pageBlocks) {
    for (const block of found) {
      writeFileSync(join(dir, `${page.replace('.md', '')}-line-${block.line}.ts`), `${block.code}\n`)
      count += 1
    }
  }
  assert.ok(count > 40, `expected the examples to be found, got ${count}`)
  const errors = await typeCheck(dir)
  assert.is(errors, '', `examples that do not compile (file names give the page and line):\n${errors}`)
})

// Names exported only as types, collected from the source: `export interface X`, `export type X`
// in modules re-exported with `*`, and `type X` in named re-export lists.
const exportedTypeNames = (file: string, star: boolean, into: Set<string>): void => {
  const source = readFileSync(file, 'utf8')
  if (star) for (const m of source.matchAll(/^export (?:interface|type) (\w+)/gm)) into.add(m[1] as string)
  for (const m of source.matchAll(/^export (?:type )?\* from '(.+?)'/gm)) {
    exportedTypeNames(resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')), true, into)
  }
  for (const m of source.matchAll(/^export (type )?\{([^}]*)\} from '(.+?)'/gms)) {
    for (const part of (m[2] as string).split(',').map((s) => s.trim())) {
      if (m[1] !== undefined || part.startsWith('type ')) into.add(part.replace(/^type /, ''))
    }
  }
}

examples('docs/api.md :: names every value exported by twinport', async () => {
  const api: Record<string, unknown> = await import(pathToFileURL(join(root, 'lib', 'index.ts')).href)
  const missing = Object.keys(api).filter((name) => !documented(name))
  assert.equal(missing, [], `not documented in docs/api.md: ${missing.join(', ')}`)
})

examples('docs/api.md :: names every type exported by twinport', () => {
  const names = new Set<string>()
  exportedTypeNames(join(root, 'lib', 'index.ts'), false, names)
  assert.ok(names.size > 50, `expected the type exports to be found, got ${names.size}`)
  const missing = [...names].filter((name) => !documented(name))
  assert.equal(missing, [], `not documented in docs/api.md: ${missing.join(', ')}`)
})

examples('docs/api.md :: names every value and type exported by twinport/client', async () => {
  const entry = join(root, 'lib', 'client', 'index.ts')
  const api: Record<string, unknown> = await import(pathToFileURL(entry).href)
  const names = new Set(Object.keys(api))
  exportedTypeNames(entry, false, names)
  assert.ok(names.size > 30, `expected the client exports to be found, got ${names.size}`)
  const missing = [...names].filter((name) => !documented(name))
  assert.equal(missing, [], `not documented in docs/api.md: ${missing.join(', ')}`)
})

examples.run()
