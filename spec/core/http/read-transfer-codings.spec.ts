import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readTransferCodings } from '../../../lib/core/http/read-transfer-codings.js'

const names = (values: readonly string[]) => readTransferCodings(values)?.map((c) => (c.parameters ? `${c.name};` : c.name))

// RFC 9112 §6.1: Transfer-Encoding = #transfer-coding; RFC 9110 §10.1.4:
// transfer-coding = token *( OWS ";" OWS transfer-parameter ), transfer-parameter = token BWS "=" BWS ( token / quoted-string )
test('readTransferCodings :: a list of codings, lower-cased, in order, across field lines', () => {
  assert.equal(names(['chunked']), ['chunked'])
  assert.equal(names(['GZip, Chunked']), ['gzip', 'chunked'])
  assert.equal(names(['gzip', 'chunked']), ['gzip', 'chunked'])
  assert.equal(names(['gzip ;level=1;x = "a, \\"b\\"" , chunked']), ['gzip;', 'chunked'])
  assert.equal(names(['gzip;x=\t"\u00e9"\t,chunked']), ['gzip;', 'chunked'])
})

// RFC 9110 §5.6.1: "a recipient MUST accept empty list elements"
test('readTransferCodings :: empty list elements are skipped', () => {
  assert.equal(names([', chunked ,,']), ['chunked'])
  assert.equal(names([',']), [])
  assert.equal(names(['']), [])
})

test('readTransferCodings :: anything else is not a transfer-coding list', () => {
  for (const v of ['chunk@d', 'gzip chunked', 'gzip;', 'gzip;q', 'gzip;q=', 'gzip;=1', 'gzip;q="x', 'gzip;q="\\', 'gzip;q="\x01"', 'gzip;q="a\\\x7f"', 'gzip;q=a b', '"gzip"', 'gzip;q=1 x']) {
    assert.is(readTransferCodings([v]), undefined, JSON.stringify(v))
  }
})

test.run()
