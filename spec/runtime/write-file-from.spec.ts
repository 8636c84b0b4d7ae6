import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { statSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { errorResponse, httpRoute, json, readMultipart, silentLogger } from '../../lib/core/index.js'
import { runServer } from '../../lib/node/run-server.js'
import { type WriteFileError, writeFileFrom, type WrittenFile } from '../../lib/runtime/write-file-from.js'

const withDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-write-file-'))
  try {
    await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const pattern = (size: number, seed = 7): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff
  return bytes
}

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

const leftOf = (r: E.Either<WriteFileError, WrittenFile>): WriteFileError => {
  if (E.isRight(r)) throw new Error(`expected a Left, got ${JSON.stringify(r.right)}`)
  return r.left
}

test('writeFileFrom :: 0 B, one piece, many small pieces and a piece past the high-water mark are written byte for byte', async () => {
  await withDir(async (dir) => {
    const cases: [number, number][] = [[0, 1], [1000, 1000], [300_000, 4096], [1_000_003, 65_536], [400_000, 400_000]]
    for (const [size, piece] of cases) {
      const bytes = pattern(size, size & 0xff)
      const path = join(dir, `f-${size}-${piece}`)
      const r = await writeFileFrom(pieces(bytes, piece), path, { highWaterMark: 64 * 1024 })
      assert.equal(r, E.right({ path, size }), `${size} in ${piece}`)
      assert.equal(new Uint8Array(await readFile(path)), bytes, `${size} in ${piece}`)
    }
  })
})

test('writeFileFrom :: reads ahead of the file by at most the high-water mark and one piece', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'f')
    const piece = 16 * 1024
    const highWaterMark = 64 * 1024
    const bytes = pattern(200 * piece)
    let yielded = 0
    let most = 0
    async function* watched(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += piece) {
        // What was read minus what the file holds already: never more than what writeFileFrom holds.
        if (yielded > 0) most = Math.max(most, yielded - statSync(path).size)
        yielded += piece
        yield bytes.subarray(at, at + piece)
      }
    }
    const r = await writeFileFrom(watched(), path, { highWaterMark })
    assert.ok(E.isRight(r))
    assert.ok(most <= highWaterMark + piece, `read ahead by ${most} bytes`)
    assert.equal(new Uint8Array(await readFile(path)), bytes)
  })
})

test('writeFileFrom :: past maxBytes answers TooLarge (413), stops reading and removes the partial file', async () => {
  await withDir(async (dir) => {
    let returned = false
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => {
        let n = 0
        return {
          next: async () => ({ done: false, value: pattern(10_000, n++) }),
          return: async () => {
            returned = true
            return { done: true, value: undefined }
          },
        }
      },
    }
    const path = join(dir, 'big')
    const left = leftOf(await writeFileFrom(source, path, { maxBytes: 95_000, highWaterMark: 8192 }))
    assert.is(left._tag, 'TooLarge')
    assert.is(left.status, 413)
    assert.ok(returned, 'the source was told to stop')
    assert.equal(await readdir(dir), [])
  })
})

test('writeFileFrom :: a source that throws answers SourceFailed with its status and removes the partial file', async () => {
  await withDir(async (dir) => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield pattern(200_000)
      yield pattern(1000)
      throw Object.assign(new Error('cut'), { status: 400 })
    }
    const left = leftOf(await writeFileFrom(failing(), join(dir, 'cut')))
    assert.is(left._tag, 'SourceFailed')
    assert.is(left.status, 400)
    assert.equal(await readdir(dir), [])
    // An error without a status of its own: 400.
    async function* failingPlain(): AsyncGenerator<Uint8Array> {
      yield pattern(10)
      throw new Error('plain')
    }
    assert.is(leftOf(await writeFileFrom(failingPlain(), join(dir, 'plain'))).status, 400)
    assert.equal(await readdir(dir), [])
  })
})

test('writeFileFrom :: an abort while the source waits answers Aborted (503), releases the source and removes the file', async () => {
  await withDir(async (dir) => {
    const controller = new AbortController()
    let released = false
    let release: () => void = () => undefined
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => {
        let n = 0
        return {
          next: () => {
            if (n++ < 3) return Promise.resolve({ done: false, value: pattern(50_000, n) })
            // The client stopped sending: nothing comes until the reader lets go.
            queueMicrotask(() => controller.abort())
            return new Promise<IteratorResult<Uint8Array>>((resolve) => (release = () => resolve({ done: true, value: undefined })))
          },
          return: async () => {
            released = true
            release()
            return { done: true, value: undefined }
          },
        }
      },
    }
    const left = leftOf(await writeFileFrom(source, join(dir, 'gone'), { signal: controller.signal }))
    assert.is(left._tag, 'Aborted')
    assert.is(left.status, 503)
    assert.ok(released)
    assert.equal(await readdir(dir), [])
    // Aborted before it starts: no file at all.
    assert.is(leftOf(await writeFileFrom(pieces(pattern(10), 10), join(dir, 'late'), { signal: controller.signal }))._tag, 'Aborted')
    assert.equal(await readdir(dir), [])
  })
})

test('writeFileFrom :: an existing file is kept (FileFailed open EEXIST) unless overwrite is asked', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'there')
    await writeFile(path, 'old')
    const left = leftOf(await writeFileFrom(pieces(pattern(100), 10), path))
    assert.equal([left._tag, left.status, left._tag === 'FileFailed' ? [left.syscall, left.code] : []], ['FileFailed', 500, ['open', 'EEXIST']])
    assert.is(await readFile(path, 'utf8'), 'old')
    assert.equal(await writeFileFrom(pieces(pattern(100), 10), path, { overwrite: true }), E.right({ path, size: 100 }))
    assert.equal(new Uint8Array(await readFile(path)), pattern(100))
  })
})

test('writeFileFrom :: through a server: a multipart file lands byte for byte; too big gets 413; a client cut mid-upload leaves no file', async () => {
  await withDir(async (dir) => {
    const outcomes: string[] = []
    let handled: () => void = () => undefined
    let count = 0
    const server = await runServer({
      host: '127.0.0.1',
      port: 0,
      logger: silentLogger,
      routes: [
        httpRoute('POST', '/up', { body: 'stream', maxBody: 64 * 1024 * 1024 }, async (req) => {
          try {
            const saved: number[] = []
            for await (const part of readMultipart(req)) {
              if (part.kind !== 'file') continue
              const r = await writeFileFrom(part.data, join(dir, `u-${count++}`), { maxBytes: 1_000_000, signal: req.signal })
              outcomes.push(E.isRight(r) ? 'written' : r.left._tag)
              if (E.isLeft(r)) return errorResponse(r.left.status, r.left.reason)
              saved.push(r.right.size)
            }
            return json({ saved })
          } catch (e) {
            outcomes.push(`threw ${(e as Error).name}`)
            throw e
          } finally {
            handled()
          }
        }),
      ],
    })
    try {
      const url = `http://127.0.0.1:${server.address.port}/up`
      const bytes = pattern(900_000, 3)
      const form = new FormData()
      form.append('f', new Blob([bytes]), 'a.bin')
      const ok = await fetch(url, { method: 'POST', body: form })
      assert.equal(await ok.json(), { saved: [900_000] })
      assert.equal(new Uint8Array(await readFile(join(dir, 'u-0'))), bytes)

      const big = new FormData()
      big.append('f', new Blob([pattern(1_500_000)]), 'b.bin')
      const refused = await fetch(url, { method: 'POST', body: big })
      assert.is(refused.status, 413)
      await refused.arrayBuffer()
      assert.equal(await readdir(dir), ['u-0'])

      // Head and part of the file, then the client is gone.
      const done = new Promise<void>((resolve) => (handled = resolve))
      const boundary = 'cut-boundary'
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="c.bin"\r\n\r\n`
      const socket = connect(server.address.port, '127.0.0.1')
      try {
        await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
        socket.write(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 600000\r\n\r\n${head}`)
        socket.write(pattern(200_000))
        // The file is being written once the server has read that far.
        while (count < 3) await new Promise((r) => setImmediate(r))
      } finally {
        socket.destroy()
      }
      await done
      assert.equal(outcomes.slice(2).length, 1)
      assert.ok(['SourceFailed', 'Aborted'].includes(outcomes[2] as string), outcomes[2])
      assert.equal(await readdir(dir), ['u-0'])
    } finally {
      await server.close()
    }
  })
})

test.run()
