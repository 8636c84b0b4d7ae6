/**
 * What the docs specs share: the ```ts blocks of a Markdown page, the file a block names for
 * itself (its first line `// server.ts`), the package's entry points pointed at `lib/`, and
 * the project's tsc run over a directory of blocks with `twinport` mapped to `lib/`.
 * Node only (spec helpers; not a spec itself).
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** One fenced `ts` block: where it starts and the heading it sits under. */
export interface Block {
  readonly line: number
  readonly heading: string
  readonly code: string
}

/** Every ```ts block of a Markdown text, with its line number and nearest heading. */
export const tsBlocks = (markdown: string): readonly Block[] => {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  let heading = '(top)'
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '')
    if (line.trim() !== '```ts') continue
    const start = i
    const body: string[] = []
    for (i += 1; i < lines.length && (lines[i] as string).trim() !== '```'; i++) body.push(lines[i] as string)
    blocks.push({ line: start + 1, heading, code: body.join('\n') })
  }
  return blocks
}

/**
 * The file a block says it is, from a first line such as `// server.ts` or `// src/client.ts`
 * (a relative path ending in `.ts`); `undefined` for a block that names none.
 */
export const fileNameOf = (block: Block): string | undefined => {
  const first = /^\/\/ ((?:[\w-]+\/)*[\w.-]+\.ts)\s*$/.exec(block.code.split('\n', 1)[0] ?? '')
  return first?.[1]
}

// Each entry point of the package and the file of this checkout it names.
const entries: readonly (readonly [string, string])[] = [
  ['twinport/client/fallback', 'lib/client/fallback.ts'],
  ['twinport/client', 'lib/client/index.ts'],
  ['twinport/core', 'lib/core/index.ts'],
  ['twinport/redis', 'lib/redis/index.ts'],
  ['twinport/otel', 'lib/otel/index.ts'],
  ['twinport/fetch', 'lib/fetch/index.ts'],
  ['twinport/workers', 'lib/workers/index.ts'],
  ['twinport', 'lib/index.ts'],
]

/** The code with each `from 'twinport…'` pointed at the file it names, by URL (to import it in this process). */
export const pointAtLib = (code: string): string =>
  entries.reduce((text, [name, file]) => text.replaceAll(`from '${name}'`, `from ${JSON.stringify(pathToFileURL(join(root, file)).href)}`), code)

/**
 * The project's tsc (its `tsconfig.json`, with `twinport` and its entry points mapped to
 * `lib/`) over the `.ts` files of `dir` (and its folders when `nested`); resolves with what
 * tsc printed, `''` when the files compile.
 */
export const typeCheck = (dir: string, nested = false): Promise<string> => {
  const tsconfig = {
    extends: join(root, 'tsconfig.json'),
    compilerOptions: { noEmit: true, rootDir: root, paths: Object.fromEntries(entries.map(([name, file]) => [name, [join(root, file)]])) },
    include: [nested ? '**/*.ts' : '*.ts'],
    exclude: [],
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  return new Promise((done) => {
    execFile(join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir], { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) =>
      done(error === null ? '' : `${stdout}${stderr}` || error.message),
    )
  })
}
