/**
 * Harness `static-parsers`: the pure parsers of static-file serving, on any field text.
 * `parseRange` gives a range request or `undefined` (ignore the field), never a throw; its
 * specs are well-ordered non-negative integers and written back as `bytes=...` parse to
 * themselves. `parseEntityTags` gives `*`, a list or `undefined`; a list written back parses
 * to itself. `parseHttpDate` gives a whole-second time or `undefined`, and the IMF-fixdate of
 * any time it gives (`toUTCString`) parses back to it. `resolveStaticPath` never throws and
 * never answers a path that climbs out of the root (no `..`, no empty or absolute segment, no
 * NUL or backslash). `pickEncoding` picks an available coding or says none is acceptable.
 */
import * as E from 'fp-ts/lib/Either.js'
import { parseEntityTags } from '../../lib/core/http/static/entity-tags.js'
import { parseHttpDate } from '../../lib/core/http/static/parse-http-date.js'
import { parseRange } from '../../lib/core/http/static/parse-range.js'
import { pickEncoding } from '../../lib/core/http/static/pick-encoding.js'
import { resolveStaticPath } from '../../lib/core/http/static/resolve-static-path.js'
import { expect, latin1, plainBytes, same, utf8 } from '../support/contract.js'

const AVAILABLE = ['br', 'gzip', 'identity']

const checkRange = (text: string): void => {
  const range = parseRange(text)
  if (range === undefined) return
  expect(range.specs.length > 0, 'a range set is not empty')
  for (const s of range.specs) {
    if (s._tag === 'SuffixRange') expect(s.length >= 0, 'suffix length')
    else expect(s.first >= 0 && (s.last === undefined || s.last >= s.first), 'first <= last')
  }
  if (range.unit === 'bytes' && range.specs.every((s) => (s._tag === 'SuffixRange' ? Number.isSafeInteger(s.length) : Number.isSafeInteger(s.first) && (s.last === undefined || Number.isSafeInteger(s.last))))) {
    const written = `bytes=${range.specs.map((s) => (s._tag === 'SuffixRange' ? `-${s.length}` : `${s.first}-${s.last ?? ''}`)).join(',')}`
    same(parseRange(written), range, 'parseRange(write(range))')
  }
}

const checkTags = (text: string): void => {
  const tags = parseEntityTags(text.split('\n'))
  if (tags === undefined || tags === '*' || tags.length === 0) return
  const written = tags.map((t) => `${t.weak ? 'W/' : ''}"${t.opaque}"`).join(', ')
  same(parseEntityTags([written]), tags, 'parseEntityTags(write(tags))')
}

const checkDate = (text: string): void => {
  const time = parseHttpDate(text, 1_700_000_000_000)
  if (time === undefined) return
  expect(Number.isInteger(time) && time % 1000 === 0, 'a whole second')
  if (Math.abs(time) < 8.64e15) same(parseHttpDate(new Date(time).toUTCString()), time, 'parseHttpDate(toUTCString(t))')
}

const checkPath = (text: string): void => {
  for (const options of [{}, { dotfiles: 'allow' as const, index: false as const, windowsNames: true }]) {
    const resolved = resolveStaticPath(text, options)
    if (E.isLeft(resolved)) continue
    const { path, segments } = resolved.right
    same(segments.join('/'), path, 'path is its segments joined')
    for (const s of segments) {
      expect(s !== '' && s !== '.' && s !== '..', `segment ${JSON.stringify(s)}`)
      expect(!/[\0/\\]/.test(s), `segment ${JSON.stringify(s)} holds a separator or NUL`)
    }
  }
}

const checkEncoding = (text: string): void => {
  const choice = pickEncoding(text, AVAILABLE)
  expect(choice.coding === undefined || AVAILABLE.includes(choice.coding), `coding ${String(choice.coding)}`)
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  for (const text of [latin1(data), utf8(data)]) {
    checkRange(text)
    checkTags(text)
    checkDate(text)
    checkPath(text)
    checkEncoding(text)
  }
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
