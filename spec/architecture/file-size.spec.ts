/**
 * No file of `lib/` is over 300 lines without its reason (issue 26): a longer file says why in
 * its header comment ("Over 300 lines…", "Longer than… on purpose": one table, one state
 * machine that reads best whole). The check is shown failing on made-up files first.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { sourceFiles } from './import-graph.js'

const MAX_LINES = 300

// The header comment: the first `/** … */` block of the file.
const headerOf = (source: string): string => {
  const start = source.indexOf('/**')
  const end = source.indexOf('*/', start)
  return start === -1 || end === -1 ? '' : source.slice(start, end)
}

const lineCount = (source: string): number => source.split('\n').length - (source.endsWith('\n') ? 1 : 0)

/** The files over the line whose header gives no reason, as `path (N lines)`. */
export const unexplainedLongFiles = (files: readonly { readonly path: string; readonly source: string }[]): string[] =>
  files
    .filter(({ source }) => lineCount(source) > MAX_LINES && !/over 300 lines|longer than .* on purpose|longer than most files/i.test(headerOf(source).replace(/\n \* /g, ' ')))
    .map(({ path, source }) => `${path} (${lineCount(source)} lines)`)

test('file size :: a long file without its reason is found, a short one or one that says why is not', () => {
  const long = (header: string): string => `${header}\n${'x\n'.repeat(MAX_LINES)}`
  assert.equal(
    unexplainedLongFiles([
      { path: 'a.ts', source: long('/** does a thing */') },
      { path: 'b.ts', source: long('/**\n * does a thing. Over 300 lines: one table.\n */') },
      { path: 'c.ts', source: long('/**\n * Longer than the other files on\n * purpose: one state machine.\n */') },
      { path: 'd.ts', source: '/** short */\nx\n' },
    ]),
    [`a.ts (${MAX_LINES + 1} lines)`],
  )
})

test('file size :: no file of lib/ is over 300 lines without its reason in its header', () => {
  const files = sourceFiles('lib').map((path) => ({ path, source: readFileSync(path, 'utf8') }))
  assert.ok(files.length > 100, `only ${files.length} files under lib/`)
  assert.equal(unexplainedLongFiles(files), [])
})

test.run()
