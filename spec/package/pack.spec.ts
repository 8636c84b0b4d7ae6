/**
 * The package as a user gets it: `npm pack` (which builds through `prepack`), the tarball
 * installed into a new application, and a TypeScript file that imports `twinport` and
 * `twinport/core`, type-checked with tsc and run with node. So a package without code,
 * types that do not resolve, or source maps naming files that are not shipped can never
 * be published again.
 *
 * Offline: the application's `fp-ts` and `io-ts` are `file:` links to this checkout's
 * copies, so `npm install --offline` finds every dependency of the tarball already
 * satisfied and fetches nothing.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const STEP_MS = 120_000

// The child processes get no `npm_*` variables of an enclosing `npm test`, so they act
// as in a fresh shell.
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))

const run = (cmd: string, args: readonly string[], cwd: string): Promise<string> =>
  new Promise((done, fail) => {
    execFile(cmd, args, { cwd, env: cleanEnv(), timeout: STEP_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) done(stdout)
      else fail(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${error.message}\n${stdout}\n${stderr}`))
    })
  })

// Every file under `dir`, recursively.
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  )

// What a new user writes. The core alone, checked without Node's types: it runs anywhere.
const CORE_APP = `import * as E from 'fp-ts/lib/Either.js'
import { acceptKey, type HttpRequest, parseHttpRequest } from 'twinport/core'

// @ts-expect-error acceptKey takes the Sec-WebSocket-Key as a string (the types are real, not any)
const badKey: string = acceptKey(42)
void badKey

const step = parseHttpRequest(new TextEncoder().encode('GET /a?b=1 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'))
const request: HttpRequest | undefined = E.isRight(step) && step.right._tag === 'Parsed' ? step.right.value : undefined
console.log(JSON.stringify({ accept: acceptKey('dGhlIHNhbXBsZSBub25jZQ=='), path: request?.path }))
`

// The server, as a Node application (with @types/node) writes it.
const NODE_APP = `import { httpRoute, runServer, type ServerOptions, silentLogger } from 'twinport'

// Types are real, not any: each of these lines must be refused by tsc.
// @ts-expect-error the port is a number
const badOptions: ServerOptions = { port: 'eighty' }
// @ts-expect-error the path has no {name}
const badParam = httpRoute('GET', '/users/{id}', (req) => req.params.name)
void [badOptions, badParam]

const server = await runServer({ host: '127.0.0.1', port: 0, logger: silentLogger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
const hello: unknown = await (await fetch(\`http://127.0.0.1:\${server.address.port}/hello\`)).json()
await server.close()

// An error raised inside the package: with --enable-source-maps its stack names the sources.
const refused = await runServer({ port: 70000 }).then(() => undefined, (e: unknown) => e)
console.log(JSON.stringify({ hello, stack: refused instanceof Error ? refused.stack : String(refused) }))
`

const tsconfig = (file: string, types: readonly string[]): string =>
  JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2022', 'dom'],
      types,
      strict: true,
      outDir: 'out',
      rootDir: '.',
    },
    files: [file],
  })

interface Packed {
  readonly filename: string
  readonly files: readonly { readonly path: string }[]
}

const pack = suite('package')
let tmp = ''

pack.before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'twinport-pack-'))
})

pack.after(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

pack('npm pack :: builds, installs offline into a new app, and both entry points type-check and run', async () => {
  // 1. Pack: `prepack` builds dist/ first.
  const report = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', tmp], root)) as readonly Packed[]
  const packed = report[0]
  assert.ok(packed !== undefined, 'npm pack reported nothing')
  const files = new Set(packed.files.map((f) => f.path))
  for (const needed of ['package.json', 'README.md', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/core/index.js', 'dist/lib/core/index.d.ts', 'dist/lib/redis/index.js', 'dist/lib/redis/index.d.ts']) {
    assert.ok(files.has(needed), `the tarball lacks ${needed}`)
  }
  // The benches' README, results and chart are documents the README links to; no test or bench code ships.
  assert.not.ok([...files].some((f) => f.startsWith('spec/') || (f.startsWith('bench/') && !/\.(md|svg)$/.test(f))), 'tests and benchmark code are not shipped')
  // The native transport's addon (issue 32), built by `prepack` where it builds (Linux), and its sources.
  if (process.platform === 'linux') assert.ok(files.has(`native/build/twinport-linux-${process.arch}.node`), 'the tarball lacks the native binary')
  assert.ok(files.has('native/twinport.c') && files.has('native/Makefile'), 'the tarball lacks the native sources')
  assert.not.ok([...files].some((f) => f.startsWith('native/build/asan/')), 'the AddressSanitizer build is not shipped')

  // 2. Install into a new application, offline.
  const app = join(tmp, 'app')
  const link = (name: string): string => `file:${realpathSync(join(root, 'node_modules', name))}`
  mkdirSync(app)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'app',
      private: true,
      type: 'module',
      dependencies: { 'fp-ts': link('fp-ts'), 'io-ts': link('io-ts') },
      devDependencies: { '@types/node': link('@types/node') },
    }),
  )
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', join(tmp, packed.filename)], app)
  const installed = join(app, 'node_modules', 'twinport')
  assert.ok(existsSync(join(installed, 'dist', 'lib', 'index.js')))

  // 3. Every source a map names is in the package (stack traces and editors find real files).
  const maps = walk(join(installed, 'dist')).filter((f) => f.endsWith('.map'))
  assert.ok(maps.length > 50, `expected the source maps to be shipped, found ${maps.length}`)
  const missing = maps.flatMap((map) => {
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: readonly string[] }
    return sources.map((s) => resolve(dirname(map), s)).filter((s) => !existsSync(s))
  })
  assert.equal(missing, [], 'source maps name files the package does not have')

  // 4. The app's TypeScript: checked by tsc (types from the package), then run by node.
  writeFileSync(join(app, 'core.ts'), CORE_APP)
  writeFileSync(join(app, 'main.ts'), NODE_APP)
  writeFileSync(join(app, 'tsconfig.core.json'), tsconfig('core.ts', []))
  writeFileSync(join(app, 'tsconfig.json'), tsconfig('main.ts', ['node']))
  const tsc = join(root, 'node_modules', '.bin', 'tsc')
  await run(tsc, ['-p', join(app, 'tsconfig.core.json')], app)
  await run(tsc, ['-p', app], app)

  const core = JSON.parse(await run(process.execPath, [join(app, 'out', 'core.js')], app)) as { accept: string; path: string }
  assert.equal(core, { accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=', path: '/a' })

  const node = JSON.parse(await run(process.execPath, ['--enable-source-maps', join(app, 'out', 'main.js')], app)) as {
    hello: unknown
    stack: string
  }
  assert.equal(node.hello, { hello: 'world' })
  assert.match(node.stack, /port: expected an integer from 0 to 65535, got 70000/)
  const frame = /(\/[^\s()]*\/node_modules\/twinport\/lib\/[\w/.-]+\.ts):\d+:\d+/.exec(node.stack)
  assert.ok(frame?.[1] !== undefined, `the stack names no shipped source:\n${node.stack}`)
  assert.ok(existsSync(frame[1]), `the stack names ${frame[1]}, which is not in the package`)
})

pack.run()
