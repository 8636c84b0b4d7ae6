/**
 * The differential property of issue 22: busboy (the parser behind @fastify/multipart and
 * multer, a dev dependency only) and `decodeMultipart` read the same names, filenames, content
 * types and data from the same random valid bodies, fed the same chunks.
 *
 * The bodies stay where the two agree on what a body is: no transport padding (busboy reads
 * none), no empty names (busboy reports them as undefined), no data that starts with the
 * dash-boundary (busboy, searching the whole stream, takes the header section's last CRLF as
 * the start of a delimiter), fields not typed application/octet-stream (busboy calls those
 * files). busboy runs with `preservePath` (no path stripped from filenames, as here) and
 * UTF-8 parameters (browsers send them so).
 */
import busboy from 'busboy'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mediaType } from '../../../../lib/core/http/parse-request-body.js'
import { bodyArb, buildBody, cutsArb } from './arbitraries.js'
import { feedMultipart, initial, splitAt } from './feed-multipart.js'

/** What busboy read: [name, filename, mimeType, data] per part. */
const readWithBusboy = (boundary: string, chunks: readonly Uint8Array[]): Promise<[string, string | undefined, string, string][]> =>
  new Promise((resolve, reject) => {
    const parts: [string, string | undefined, string, string][] = []
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` }, preservePath: true, defParamCharset: 'utf8' })
    let pending = 0
    let closed = false
    const done = () => {
      if (closed && pending === 0) resolve(parts)
    }
    bb.on('field', (name, value, info) => {
      parts.push([name, undefined, info.mimeType, Buffer.from(value, 'utf8').toString('latin1')])
    })
    bb.on('file', (name, stream, info) => {
      const slot: [string, string | undefined, string, string] = [name, info.filename, info.mimeType, '']
      parts.push(slot)
      pending += 1
      const pieces: Buffer[] = []
      stream.on('data', (d: Buffer) => pieces.push(d))
      stream.on('end', () => {
        slot[3] = Buffer.concat(pieces).toString('latin1')
        pending -= 1
        done()
      })
    })
    bb.on('close', () => {
      closed = true
      done()
    })
    bb.on('error', reject)
    for (const chunk of chunks) bb.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length))
    bb.end()
  })

const agreedArb = bodyArb
  .map((spec) => ({
    ...spec,
    padding: spec.padding.map(() => ''),
    parts: spec.parts.map((p) => (p.filename === undefined && p.contentType === 'application/octet-stream' ? { ...p, contentType: undefined } : p)),
  }))
  .filter((spec) => spec.parts.every((p) => p.name !== '' && !String.fromCharCode(...p.data.subarray(0, 80)).startsWith(`--${spec.boundary}`)))

test('decodeMultipart :: reads the same parts as busboy from random valid bodies, fed the same chunks', async () => {
  await fc.assert(
    fc.asyncProperty(
      agreedArb.chain((spec) => {
        const bytes = buildBody(spec)
        return fc.tuple(fc.constant(spec.boundary), fc.constant(bytes), cutsArb(bytes.length))
      }),
      async ([boundary, bytes, cuts]) => {
        const chunks = splitAt(bytes, cuts)
        const ours = feedMultipart(initial(boundary), chunks)
        assert.is(ours.error, undefined)
        const theirs = await readWithBusboy(boundary, chunks)
        // busboy decodes a field's data as UTF-8 text; ours is bytes, decoded the same way to compare.
        const mine = ours.parts.map((p): [string, string | undefined, string, string] => {
          const data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.length)
          const text = p.head.filename === undefined ? Buffer.from(data.toString('utf8'), 'utf8') : data
          return [p.head.name, p.head.filename, mediaType(p.head.contentType), text.toString('latin1')]
        })
        assert.equal(mine, theirs)
      },
    ),
    { numRuns: 300 },
  )
})

test.run()
