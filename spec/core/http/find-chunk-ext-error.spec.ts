import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { findChunkExtError } from '../../../lib/core/http/find-chunk-ext-error.js'

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const check = (ext: string): number => findChunkExtError(latin1(`9${ext}\r\n`), 1, 1 + ext.length)

// RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
test('findChunkExtError :: well-formed extensions, one or many, with BWS and quoted values', () => {
  for (const ext of ['', ';a', ';a;b', ' ;a', ';\ta', ';a=1', ';a =1', ';a= 1', ';a = 1 ;b', ';a=""', ';a="\\""', ';a="\\\\"', ';a="\t \x21\x23\x5b\x5d\x7e"', ';a="\x80\xff"', ';a="\\\x80"']) {
    assert.is(check(ext), -1, JSON.stringify(ext))
  }
})

// The offset is the first byte that the grammar cannot take, counted in the whole buffer.
test('findChunkExtError :: the offset of the first byte that breaks the grammar', () => {
  const cases: readonly (readonly [string, number])[] = [
    [' ', 1], [';', 1], ['x', 0], [';a ', 3], [';a=', 3], [';a= ', 4], [';a="', 4], [';a="\\', 5],
    [';a="\\\x00"', 5], [';a="\x00"', 4], [';a="x"y', 6], [';a=b"', 4], [';a="x" ', 7], [';a@', 2], [';a;', 3],
  ]
  for (const [ext, at] of cases) assert.is(check(ext), 1 + at, JSON.stringify(ext))
})

test.run()
