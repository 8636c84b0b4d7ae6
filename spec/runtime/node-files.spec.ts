import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LentSource } from '../../lib/core/http/lent-source.js'
import { FILE_PIECE, rangeReader, readRange, statFile } from '../../lib/runtime/node-files.js'

const withFile = async (bytes: Uint8Array, body: (path: string) => Promise<void>): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-node-files-'))
  try {
    const path = join(dir, 'f.bin')
    await writeFile(path, bytes)
    await body(path)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const pattern = (size: number): Uint8Array => Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 0xff)

const collect = async (source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> => {
  const pieces: Uint8Array[] = []
  for await (const piece of source) pieces.push(piece)
  return pieces
}

test('readRange :: a file of two and a half pieces comes in pieces of at most FILE_PIECE, byte for byte', async () => {
  const size = FILE_PIECE * 2 + FILE_PIECE / 2
  const bytes = pattern(size)
  await withFile(bytes, async (path) => {
    const pieces = await collect(readRange(path, 0, size - 1))
    assert.equal(pieces.map((p) => p.length), [FILE_PIECE, FILE_PIECE, FILE_PIECE / 2])
    assert.equal(Buffer.concat(pieces), Buffer.from(bytes))
  })
})

test('readRange :: a range inside the file, crossing a piece boundary, is exactly those bytes', async () => {
  const bytes = pattern(FILE_PIECE * 2)
  await withFile(bytes, async (path) => {
    const first = FILE_PIECE - 10
    const last = FILE_PIECE + 65_535
    const pieces = await collect(readRange(path, first, last))
    assert.ok(pieces.every((p) => p.length <= FILE_PIECE))
    assert.equal(Buffer.concat(pieces), Buffer.from(bytes.subarray(first, last + 1)))
  })
})

test('readRange :: every piece is its own buffer (the engine may still hold the last one)', async () => {
  const size = FILE_PIECE * 3
  await withFile(pattern(size), async (path) => {
    const pieces = await collect(readRange(path, 0, size - 1))
    assert.is(new Set(pieces.map((p) => p.buffer)).size, pieces.length)
  })
})

test('readRange :: nothing is opened before the first pull; a file gone by then rejects that pull', async () => {
  await withFile(pattern(10), async (path) => {
    const source = readRange(path, 0, 9)[Symbol.asyncIterator]()
    await unlink(path)
    try {
      await source.next()
      assert.unreachable('the pull should reject')
    } catch (error) {
      assert.is((error as NodeJS.ErrnoException).code, 'ENOENT')
    }
  })
})

test('readRange :: a file shorter than its stat said ends early, never padded', async () => {
  await withFile(pattern(100), async (path) => {
    const pieces = await collect(readRange(path, 0, 199))
    assert.is(Buffer.concat(pieces).length, 100)
  })
})

test('rangeReader :: pieces of the size asked', async () => {
  const bytes = pattern(150_000)
  await withFile(bytes, async (path) => {
    const pieces = await collect(rangeReader(65_536)(path, 0, bytes.length - 1))
    assert.equal(pieces.map((p) => p.length), [65_536, 65_536, 150_000 - 131_072])
    assert.equal(Buffer.concat(pieces), Buffer.from(bytes))
  })
})

test('statFile :: a file, a directory, and nothing', async () => {
  await withFile(pattern(5), async (path) => {
    const file = await statFile(path)
    assert.is(file?.kind, 'file')
    assert.is(file?.size, 5)
    assert.is(file?.links, 1)
    assert.is((await statFile(join(path, '..')))?.kind, 'directory')
    assert.is(await statFile(`${path}.absent`), undefined)
  })
})

test('readRange :: lends its pieces: one given back is read into again, and the bytes are still the file\'s', async () => {
  const size = FILE_PIECE * 3
  const bytes = pattern(size)
  await withFile(bytes, async (path) => {
    const source = readRange(path, 0, size - 1) as LentSource
    assert.type(source.releasePiece, 'function')
    const iterator = source[Symbol.asyncIterator]()
    const one = (await iterator.next()).value as Uint8Array
    assert.equal(Uint8Array.from(one), bytes.subarray(0, FILE_PIECE))
    const memory = one.buffer
    source.releasePiece(one)
    const two = (await iterator.next()).value as Uint8Array
    assert.is(two.buffer, memory, 'the same memory, read again')
    const three = (await iterator.next()).value as Uint8Array
    assert.is.not(three.buffer, memory, 'a piece not given back is never read into')
    assert.equal([Uint8Array.from(two), Uint8Array.from(three)], [bytes.subarray(FILE_PIECE, 2 * FILE_PIECE), bytes.subarray(2 * FILE_PIECE)])
    assert.ok((await iterator.next()).done)
  })
})

test.run()
