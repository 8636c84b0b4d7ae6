import { createHash } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { multipartFrame, patternChunks, patternSha256 } from '../../../bench/streaming/multipart-body.js'

test('multipartFrame :: a field part, then the file part head; the length counts head, file and tail', () => {
  const f = multipartFrame('xyz', { field: 'client', value: '7' }, { field: 'file', filename: 'a.bin', size: 5 })
  const text = new TextDecoder().decode(f.head) + 'HELLO' + new TextDecoder().decode(f.tail)
  assert.is(f.contentType, 'multipart/form-data; boundary=xyz')
  assert.is(
    text,
    '--xyz\r\ncontent-disposition: form-data; name="client"\r\n\r\n7\r\n' +
      '--xyz\r\ncontent-disposition: form-data; name="file"; filename="a.bin"\r\ncontent-type: application/octet-stream\r\n\r\n' +
      'HELLO\r\n--xyz--\r\n',
  )
  assert.is(f.length, new TextEncoder().encode(text).length)
})

test('patternChunks / patternSha256 :: the pattern repeated to the size, hashed as one run of bytes', () => {
  const pattern = Uint8Array.from([1, 2, 3, 4])
  const chunks = [...patternChunks(pattern, 10)]
  assert.equal(chunks.map((c) => [...c]), [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2]])
  assert.equal([...patternChunks(pattern, 0)], [])
  assert.is(patternSha256(pattern, 10), createHash('sha256').update(Uint8Array.from([1, 2, 3, 4, 1, 2, 3, 4, 1, 2])).digest('hex'))
})

test.run()
