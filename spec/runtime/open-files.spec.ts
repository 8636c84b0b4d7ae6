/**
 * `createOpenFiles` and `keptRangeReader` on real files: a handle is reused for the version it
 * was opened for, a file replaced by a rename is opened again and read as it now is, a version
 * that does not match what is on disk is never kept, and the kept handles stay within `maxOpen`.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keptRangeReader } from '../../lib/runtime/node-files.js'
import { createOpenFiles } from '../../lib/runtime/open-files.js'

const withDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-open-files-'))
  try {
    await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

// A fresh folder and a set of kept files, both gone after `body`, whatever it did.
const withFiles = (maxOpen: number, body: (dir: string, files: ReturnType<typeof createOpenFiles>) => Promise<void>): Promise<void> =>
  withDir(async (dir) => {
    const files = createOpenFiles({ maxOpen, idleMs: 60_000 })
    try {
      await body(dir, files)
    } finally {
      await files.closeIdle()
    }
  })

const versionOf = async (path: string) => {
  const s = await stat(path)
  return { size: s.size, mtimeMs: s.mtimeMs }
}

const text = async (source: AsyncIterable<Uint8Array>): Promise<string> => {
  let out = ''
  for await (const piece of source) out += new TextDecoder().decode(piece)
  return out
}

test('createOpenFiles :: the same version reuses one handle; unused ones are closed', async () => {
  await withFiles(8, async (dir, files) => {
    const path = join(dir, 'a.txt')
    await writeFile(path, 'hello')
    const version = await versionOf(path)
    const one = await files.acquire(path, version)
    const two = await files.acquire(path, version)
    assert.is(one.handle, two.handle)
    await one.release()
    await two.release()
    const three = await files.acquire(path, version)
    assert.is(three.handle, one.handle, 'kept after release')
    await three.release()
    assert.is(files.size, 1)
    await files.closeIdle()
    assert.is(files.size, 0)
  })
})

test('keptRangeReader :: a file replaced by a rename is read as it now is', async () => {
  await withFiles(8, async (dir, files) => {
    const read = keptRangeReader(4, files)
    const path = join(dir, 'page.html')
    await writeFile(path, 'old page')
    assert.is(await text(read(path, 0, 7, await versionOf(path))), 'old page')
    await writeFile(join(dir, 'next'), 'new page, longer')
    await rename(join(dir, 'next'), path)
    assert.is(await text(read(path, 0, 15, await versionOf(path))), 'new page, longer')
    assert.is(await text(read(path, 4, 7, await versionOf(path))), 'page')
  })
})

test('createOpenFiles :: a version that is not the one on disk is not kept; no version, not kept', async () => {
  await withFiles(8, async (dir, files) => {
    const path = join(dir, 'a.txt')
    await writeFile(path, 'hello')
    const version = await versionOf(path)
    const stale = await files.acquire(path, { size: version.size + 1, mtimeMs: version.mtimeMs })
    await stale.release()
    const plain = await files.acquire(path, undefined)
    await plain.release()
    assert.is(files.size, 0)
  })
})

test('createOpenFiles :: at most maxOpen handles are kept', async () => {
  await withFiles(3, async (dir, files) => {
    for (let i = 0; i < 10; i++) {
      const path = join(dir, `${i}.txt`)
      await writeFile(path, `file ${i}`)
      const lease = await files.acquire(path, await versionOf(path))
      await lease.release()
      assert.ok(files.size <= 3, `size ${files.size}`)
    }
  })
})

test.run()
