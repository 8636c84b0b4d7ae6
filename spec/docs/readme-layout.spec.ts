/**
 * The README as a test (issue 27): its ```ts blocks compile in the file layout it shows. A
 * block whose first line names a file (`// server.ts`) is written under that name, so the
 * client block's `import type { app } from './server.js'` finds the server block as a reader
 * who copied both would; a block that names none is a file of its own. They are written to a
 * directory under `spec/docs/.tmp/` (inside the repository, so `fp-ts`, `io-ts` and `ws`
 * resolve; gitignored; removed in a `finally`) and checked by the project's tsc with
 * `twinport` mapped to `lib/`. The README's other promises are checked beside: no TypeScript
 * block outside this check, and an install line that names every peer dependency.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type Block, fileNameOf, root, tsBlocks, typeCheck } from './doc-blocks.js'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const blocks = tsBlocks(readme)

/** The file each block goes to: the name it gives itself, or one made of its line. */
const layout = (found: readonly Block[]): readonly { readonly file: string; readonly block: Block }[] =>
  found.map((block) => ({ file: fileNameOf(block) ?? `readme-line-${block.line}.ts`, block }))

const test = suite('README')

test('fileNameOf :: a first line naming a .ts file names the block; anything else does not', () => {
  const named = (code: string) => fileNameOf({ line: 1, heading: '', code })
  assert.equal(
    [named('// server.ts\nconst a = 1'), named('// src/client.ts'), named('// a comment\n'), named('const a = 1 // x.ts'), named('// ../up.ts')],
    ['server.ts', 'src/client.ts', undefined, undefined, undefined],
  )
})

test('README :: the server and client blocks name their files, and every relative import is a block', () => {
  const files = layout(blocks)
  const names = files.map((f) => f.file)
  assert.ok(names.includes('server.ts') && names.includes('client.ts'), `expected server.ts and client.ts blocks, found ${names.join(', ')}`)
  assert.equal(names.length, new Set(names).size, `two blocks name the same file: ${names.join(', ')}`)
  for (const { file, block } of files) {
    for (const m of block.code.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      const target = join(dirname(file), `${m[1] as string}.ts`)
      assert.ok(names.includes(target), `README line ${block.line} (${file}) imports ${m[1]}.js, and no block is ${target}`)
    }
  }
})

test('README :: every block compiles in the layout it shows', async () => {
  const dir = join(root, 'spec', 'docs', '.tmp', `readme-${process.pid}`)
  try {
    for (const { file, block } of layout(blocks)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      writeFileSync(join(dir, file), `${block.code}\n`)
    }
    const errors = await typeCheck(dir, true)
    assert.is(errors, '', `README blocks that do not compile (the file names are the README's; others give the line):\n${errors}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('README :: every TypeScript block is a checked ```ts block', () => {
  const unchecked = (readme.match(/^```(typescript|tsx?|js|javascript)\s*$/gm) ?? []).filter((f) => f !== '```ts')
  assert.equal(unchecked, [], 'README.md has code blocks this suite does not check')
  assert.ok(blocks.length >= 4, `expected the README's blocks, found ${blocks.length}`)
})

test('README :: the install line, and every entry point and peer dependency of package.json', () => {
  assert.ok(readme.includes('npm install twinport fp-ts io-ts'), 'README.md lacks the install line')
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    readonly exports: { readonly [entry: string]: unknown }
    readonly peerDependencies?: { readonly [name: string]: string }
  }
  const entries = Object.keys(pkg.exports).map((entry) => `twinport${entry.slice(1)}`)
  const missing = [...entries, ...Object.keys(pkg.peerDependencies ?? {})].filter((name) => !readme.includes(`\`${name}\``))
  assert.equal(missing, [], `README.md does not name: ${missing.join(', ')}`)
})

test.run()
