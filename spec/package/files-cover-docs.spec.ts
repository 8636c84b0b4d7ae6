/**
 * What the docs promise a user is in the tarball, checked from package.json alone (no pack,
 * no install: `pack.spec.ts` does that, slowly). README.md and the shipped docs/ link only to
 * files the `files` list ships; the guide and the API reference are
 * shipped; every `twinport/...` specifier a shipped document imports is an entry of `exports`
 * whose files the build writes from a source that exists.
 *
 * Imports node:fs and node:path only; reads package.json and the Markdown files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, posix, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  files: readonly string[]
  exports: Readonly<Record<string, { types: string; default: string }>>
}

// npm's `files` entries as used here: a path (a file, or a folder and all under it), or a glob with `*` in its last segment.
const shipped = (path: string): boolean =>
  path === 'README.md' ||
  path === 'package.json' ||
  pkg.files.some((entry) => {
    if (!entry.includes('*')) return path === entry || path.startsWith(`${entry}/`)
    const pattern = new RegExp(`^${entry.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`)
    return pattern.test(path)
  })

const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name)
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return []
    return entry.isDirectory() ? walk(path) : [path]
  })

// The documents a user of the package reads: README.md and the shipped docs/ (the shipped
// bench and example READMEs are there for their figures and commands; they point into the repository).
const shippedMarkdown = (): string[] => ['README.md', ...walk('docs').filter((path) => path.endsWith('.md') && shipped(path))]

// Relative link targets of a Markdown file, without their anchors, as paths from the package root.
const linksOf = (file: string): string[] => {
  const text = readFileSync(join(root, file), 'utf8')
  const targets: string[] = []
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] ?? '').split('#')[0] ?? ''
    if (target === '' || /^[a-z][a-z+.-]*:/i.test(target)) continue
    targets.push(posix.normalize(posix.join(posix.dirname(file), target)))
  }
  return targets
}

const specifiersOf = (file: string): string[] =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/from '(twinport(?:\/[\w/-]+)?)'/g)].map((match) => match[1] ?? '')

const files = suite('package files')

files('the guide, the API reference and the client guide are shipped', () => {
  for (const doc of ['docs/guide.md', 'docs/api.md', 'docs/client.md', 'docs/protocol.md']) assert.ok(shipped(doc), `${doc} is not in package.json "files"`)
})

files('every relative link of a shipped Markdown file leads to a shipped file that exists', () => {
  const broken: string[] = []
  for (const doc of shippedMarkdown()) {
    for (const target of linksOf(doc)) {
      const exists = existsSync(join(root, target))
      const isDir = exists && statSync(join(root, target)).isDirectory()
      if (!exists) broken.push(`${doc} → ${target} (no such file)`)
      else if (!isDir && !shipped(target)) broken.push(`${doc} → ${target} (not in "files")`)
    }
  }
  assert.equal(broken, [])
})

files('every twinport/... import of a shipped document is an export built from a source that exists', () => {
  const missing: string[] = []
  for (const doc of shippedMarkdown()) {
    for (const specifier of new Set(specifiersOf(doc))) {
      const entry = pkg.exports[specifier === 'twinport' ? '.' : `./${specifier.slice('twinport/'.length)}`]
      if (entry === undefined) {
        missing.push(`${doc}: ${specifier} is not in "exports"`)
        continue
      }
      for (const target of [entry.types, entry.default]) {
        const path = relative(root, join(root, target)).split('\\').join('/')
        if (!shipped(path)) missing.push(`${doc}: ${specifier} → ${path} is not in "files"`)
        const source = path.replace(/^dist\//, '').replace(/\.d\.ts$|\.js$/, '.ts')
        if (!existsSync(join(root, source))) missing.push(`${doc}: ${specifier} → ${source} does not exist`)
      }
    }
  }
  assert.equal(missing, [])
})

files.run()
