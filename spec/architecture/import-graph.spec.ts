/**
 * The layering of `lib/`, read from the import statements of every file
 * (spec/architecture/import-graph.ts): the core imports only itself and fp-ts/io-ts, the
 * engine the core and itself, each adapter (lib/node, lib/bun, lib/deno) the core, the
 * engine, the shared runtime layer (lib/runtime) and its own folder, the client only the
 * core. The checker is shown failing on made-up import lists, so a pass means something.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { importsOf, layerOf, layeringProblems, libImports } from './import-graph.js'

test('import graph :: every import statement of lib/ is read', () => {
  const { files, unread } = libImports()
  assert.ok(files.length > 100, `only ${files.length} files under lib/`)
  assert.equal(unread, [])
})

test('import graph :: lib/ keeps its layering', () => {
  assert.equal(layeringProblems(libImports().files), [])
})

test('import graph :: the adapters reach each other only through lib/runtime', () => {
  const { files } = libImports()
  const adapterImports = files
    .filter(({ path }) => ['node', 'bun', 'deno'].includes(layerOf(path) ?? ''))
    .flatMap(({ imports }) => imports)
  assert.ok(adapterImports.some((specifier) => specifier.startsWith('../runtime/')))
  assert.not.ok(adapterImports.some((specifier) => /^\.\.\/(node|bun|deno)\//.test(specifier)))
})

test('importsOf :: reads static, type-only, side-effect, re-export and dynamic imports, not those in comments', () => {
  const source = [
    '/**',
    " * @example",
    " * import { nope } from '../comment.js'",
    " * const later = await import('../comment-too.js')",
    ' */',
    "import * as E from 'fp-ts/lib/Either.js'",
    "import type { A,",
    "  B } from '../engine/a.js'",
    "import def, { c } from \"./c.js\"",
    "import './side-effect.js'",
    "export * from '../core/index.js'",
    "export { type D, e } from './e.js'",
    'export const f = 1',
    "// import { g } from './g.js'",
    "const tls = async () => (await import('./tls-server.js')).serveTls",
  ].join('\n')
  assert.equal(importsOf(source), {
    imports: ['fp-ts/lib/Either.js', '../engine/a.js', './c.js', './side-effect.js', '../core/index.js', './e.js', './tls-server.js'],
    unread: 0,
  })
})

test('importsOf :: counts what it cannot read (a computed dynamic import, an import it does not parse)', () => {
  const source = ["const m = await import(name)", "import x = require('y')"].join('\n')
  assert.is(importsOf(source).unread, 2)
})

test('layeringProblems :: a made-up import list that breaks each rule fails, one line per import', () => {
  const madeUp = [
    { path: 'lib/bun/run-server.ts', imports: ['../node/run-server.js', '../runtime/node-timers.js', '../engine/platform.js', './bun-api.js', 'node:buffer'] },
    { path: 'lib/deno/run-server.ts', imports: ['../bun/bun-api.js', '../core/index.js'] },
    { path: 'lib/core/ws/sha1.ts', imports: ['node:crypto', '../../engine/platform.js', 'fp-ts/lib/Either.js', './frame.js'] },
    { path: 'lib/engine/delivery.ts', imports: ['../runtime/node-timers.js', 'node:net', '../core/ws/frame.js'] },
    { path: 'lib/client/connect.ts', imports: ['../engine/client.js', '../core/ws/event.js', 'io-ts'] },
    { path: 'lib/runtime/serve-net.ts', imports: ['../node/run-server.js', '../../spec/support/server.js'] },
    { path: 'lib/newcomer/thing.ts', imports: [] },
    { path: 'lib/node/run-server.ts', imports: ['../newcomer/thing.js', '../runtime/serve-net.js'] },
  ]
  assert.equal(layeringProblems(madeUp), [
    'lib/bun/run-server.ts imports ../node/run-server.js: bun may not import node',
    'lib/deno/run-server.ts imports ../bun/bun-api.js: deno may not import bun',
    'lib/core/ws/sha1.ts imports node:crypto: core may not import the package node:',
    'lib/core/ws/sha1.ts imports ../../engine/platform.js: core may not import engine',
    'lib/engine/delivery.ts imports ../runtime/node-timers.js: engine may not import runtime',
    'lib/engine/delivery.ts imports node:net: engine may not import the package node:',
    'lib/client/connect.ts imports ../engine/client.js: client may not import engine',
    'lib/client/connect.ts imports io-ts: client may not import the package io-ts',
    'lib/runtime/serve-net.ts imports ../node/run-server.js: runtime may not import node',
    'lib/runtime/serve-net.ts imports ../../spec/support/server.js: outside lib/',
    'lib/newcomer/thing.ts: in no layer (give its folder a rule in spec/architecture/import-graph.ts)',
    'lib/node/run-server.ts imports ../newcomer/thing.js: lib/newcomer/thing.js is in no layer',
  ])
})

test('layeringProblems :: the same list within the rules passes', () => {
  const fine = [
    { path: 'lib/bun/run-server.ts', imports: ['../runtime/node-timers.js', '../engine/platform.js', './bun-api.js', 'node:buffer', '../core/index.js'] },
    { path: 'lib/core/ws/sha1.ts', imports: ['fp-ts/lib/Either.js', './frame.js', 'io-ts'] },
    { path: 'lib/client/connect.ts', imports: ['../core/ws/event.js', './clock.js'] },
    { path: 'lib/index.ts', imports: ['./core/index.js', './node/run-server.js', './runtime/log/create-logger.js'] },
  ]
  assert.equal(layeringProblems(fine), [])
})

test.run()
