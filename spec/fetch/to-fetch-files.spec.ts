/**
 * `toFetch` and `serveStatic`: a fetch host (`Bun.serve`, `Deno.serve`) brings no file access,
 * so the `files` option gives it (`nodeFiles`); without it a `serveStatic` request is 500
 * `static_files_unavailable`, and a `files` that is not `{ stat, read }` is refused at once.
 * Portable: runs in Node, Bun and Deno (`nodeFiles` is their `node:fs`).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { serveStatic } from '../../lib/core/files/serve-static.js'
import type { StaticFiles } from '../../lib/core/http/static/static-files.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'
import { nodeFiles } from '../../lib/runtime/node-files.js'

// The echo example's folder: read only (the Deno run of spec/fetch may read, not write).
const dir = fileURLToPath(new URL('../../examples/public', import.meta.url))
const css = readFileSync(`${dir}/site.css`, 'utf8')
const withSite = (run: (dir: string) => Promise<void>): Promise<void> => run(dir)

test('toFetch :: files: nodeFiles serves a serveStatic folder, with its validators', () =>
  withSite(async (dir) => {
    const app = toFetch({ files: nodeFiles, routes: [...serveStatic('/static', dir)] })
    try {
      const res = await app(new Request('http://app.test/static/site.css'))
      assert.is(res.status, 200)
      assert.is(res.headers.get('content-type'), 'text/css; charset=utf-8')
      assert.is(await res.text(), css)
      const again = await app(new Request('http://app.test/static/site.css', { headers: { 'if-none-match': res.headers.get('etag') ?? '' } }))
      assert.is(again.status, 304)
      assert.is((await app(new Request('http://app.test/static/missing.css'))).status, 404)
    } finally {
      await app.close()
    }
  }),
)

test('toFetch :: without files, serveStatic answers 500 static_files_unavailable', () =>
  withSite(async (dir) => {
    const app = toFetch({ routes: [...serveStatic('/static', dir)] })
    try {
      const res = await app(new Request('http://app.test/static/site.css'))
      assert.equal([res.status, await res.json()], [500, { error: 'static_files_unavailable' }])
    } finally {
      await app.close()
    }
  }),
)

test('toFetch :: a files option that is not { stat, read } throws', () => {
  assert.throws(() => toFetch({ files: { stat: () => Promise.resolve(undefined) } as unknown as StaticFiles }), /files: expected \{ stat, read \}/)
})

test.run()
