/**
 * The content-type table: regenerated in memory from the mime-db in node_modules and
 * compared with the committed lib/core/http/static/mime-table.ts, so it never goes stale
 * silently; `contentTypeOf` on the names a web root holds; `isCompressible` against every
 * `compressible` flag of mime-db.
 */
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { contentTypeOf } from '../../../../lib/core/http/static/content-type-of.js'
import { isCompressible } from '../../../../lib/core/http/static/is-compressible.js'
import { MIME_DB_VERSION, MIME_TABLE } from '../../../../lib/core/http/static/mime-table.js'
import { findMimeDb, MIME_TABLE_PATH, mimeTableSource, resolveExtensions } from '../../../support/generate-mime-table.js'

const found = findMimeDb()

test('mime-table :: the committed table is what mime-db in node_modules generates', () => {
  assert.ok(found !== undefined, 'mime-db is not in node_modules')
  if (found === undefined) return
  const committed = readFileSync(MIME_TABLE_PATH, 'utf8')
  assert.is(MIME_DB_VERSION, found.version, 'mime-db changed: run `node --import tsx spec/support/generate-mime-table.ts`')
  assert.ok(committed === mimeTableSource(found.db, found.version), 'mime-table.ts is stale: run `node --import tsx spec/support/generate-mime-table.ts`')
})

test('mime-table :: every extension of mime-db is in the table, to the type the conflict rule picks', () => {
  if (found === undefined) return
  const expected = resolveExtensions(found.db)
  assert.is(MIME_TABLE.size, expected.size)
  for (const [ext, type] of expected) assert.is((MIME_TABLE.get(ext) ?? '').split(';')[0], type, ext)
})

test('contentTypeOf :: the files of a web root', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['index.html', 'text/html; charset=utf-8'],
    ['a/b/page.HTM', 'text/html; charset=utf-8'],
    ['style.css', 'text/css; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
    ['module.mjs', 'text/javascript; charset=utf-8'],
    ['data.json', 'application/json; charset=utf-8'],
    ['bundle.js.map', 'application/json; charset=utf-8'],
    ['notes.txt', 'text/plain; charset=utf-8'],
    ['feed.xml', 'text/xml; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
    ['photo.jpeg', 'image/jpeg'],
    ['photo.JPG', 'image/jpeg'],
    ['icon.png', 'image/png'],
    ['anim.webp', 'image/webp'],
    ['favicon.ico', 'image/vnd.microsoft.icon'],
    ['font.woff2', 'font/woff2'],
    ['clip.mp4', 'video/mp4'],
    ['song.mp3', 'audio/mpeg'],
    ['app.wasm', 'application/wasm'],
    ['doc.pdf', 'application/pdf'],
    ['archive.zip', 'application/zip'],
    ['site.webmanifest', 'application/manifest+json'],
    ['win\\path\\x.css', 'text/css; charset=utf-8'],
  ]
  for (const [path, type] of cases) assert.is(contentTypeOf(path), type, path)
})

test('contentTypeOf :: no extension, a dotfile, an unknown extension, a dot in a folder name: the fallback', () => {
  for (const path of ['README', '.env', 'a/.htaccess', 'file.unknownext', 'v1.2/LICENSE', 'trailing.']) {
    assert.is(contentTypeOf(path), 'application/octet-stream', path)
  }
  assert.is(contentTypeOf('README', 'text/plain'), 'text/plain')
})

test('isCompressible :: text, JSON, JavaScript, XML, SVG, wasm yes; images, media, archives, woff no', () => {
  for (const t of ['text/html; charset=utf-8', 'TEXT/CSS', 'text/event-stream', 'application/json', 'application/problem+json', 'text/javascript', 'application/javascript', 'application/xml', 'image/svg+xml', 'application/wasm', 'image/x-icon', 'font/ttf']) {
    assert.ok(isCompressible(t), t)
  }
  for (const t of ['image/png', 'image/jpeg', 'image/webp', 'image/avif', 'video/mp4', 'audio/mpeg', 'application/zip', 'application/gzip', 'font/woff2', 'font/woff', 'application/pdf', 'application/octet-stream', '']) {
    assert.not.ok(isCompressible(t), t)
  }
})

test('isCompressible :: agrees with the compressible flags of mime-db, but for a few listed', () => {
  if (found === undefined) return
  const wrong = Object.entries(found.db)
    .filter(([type, entry]) => entry.compressible !== undefined && entry.compressible !== isCompressible(type))
    .map(([type, entry]) => `${type} (mime-db: ${String(entry.compressible)})`)
  // mime-db marks these compressible, but they are unknown bytes, disk images (huge, often sparse
  // or compressed inside) and GPU textures (block-compressed already).
  const accepted = new Set(
    ['application/octet-stream', 'image/vnd.adobe.photoshop', 'image/vnd.ms-dds', ...['hdd', 'ova', 'vdi', 'vhd', 'vmdk'].map((d) => `application/x-virtualbox-${d}`)].map(
      (type) => `${type} (mime-db: true)`,
    ),
  )
  assert.equal(wrong.filter((w) => !accepted.has(w)), [])
})

test.run()
