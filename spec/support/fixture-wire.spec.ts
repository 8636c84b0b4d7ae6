/**
 * The fixture wire's line splitter (spec/support/fixture-wire.ts): whole lines out, whatever
 * the chunks, blank lines skipped, a line cut anywhere (in its middle, before or after its
 * newline) given once and whole.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { lineSplitter } from './fixture-wire.js'

const split = (chunks: readonly string[]): string[] => {
  const lines: string[] = []
  const feed = lineSplitter((line) => void lines.push(line))
  for (const chunk of chunks) feed(chunk)
  return lines
}

test('lineSplitter :: lines whole whatever the cuts; blank lines skipped; an unfinished line waits', () => {
  const text = 'alpha\nbeta\n\ngamma delta\nrest'
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b++) {
      assert.equal(split([text.slice(0, a), text.slice(a, b), text.slice(b)]), ['alpha', 'beta', 'gamma delta'], `cut at ${a} and ${b}`)
    }
  }
  assert.equal(split(['x'.repeat(5), 'y'.repeat(5), '\nz\n']), ['xxxxxyyyyy', 'z'])
})

test.run()
