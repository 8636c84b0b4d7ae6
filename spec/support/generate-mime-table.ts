/**
 * Generates `lib/core/http/static/mime-table.ts`, the extension → content type table of the
 * static-file handler, from the `mime-db` database (jshttp/mime-db, the table behind
 * `mime-types`, `send`, `express.static` and `@fastify/static`).
 *
 * `mimeTableSource(db, version)` is pure: the database in, the TypeScript text out, so
 * spec/core/http/static/mime-table.spec.ts regenerates the table in memory and compares it
 * with the committed file (a newer mime-db in node_modules fails that spec until the table
 * is regenerated). Run as a program it finds the newest mime-db in node_modules and writes
 * the file:
 *
 *     node --import tsx spec/support/generate-mime-table.ts
 *
 * A build helper, not shipped: node:* is fine here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** One entry of mime-db's db.json (the fields this generator reads). */
export interface MimeDbEntry {
  readonly source?: string
  readonly charset?: string
  readonly compressible?: boolean
  readonly extensions?: readonly string[]
}

/** mime-db's db.json: media type → entry. */
export type MimeDb = Readonly<Record<string, MimeDbEntry>>

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Where the committed table lives. */
export const MIME_TABLE_PATH = join(root, 'lib', 'core', 'http', 'static', 'mime-table.ts')

// mime-db is not a direct dependency: express, send and fastify bring copies. The newest wins.
const CANDIDATES = ['node_modules/mime-db', 'node_modules/send/node_modules/mime-db', 'node_modules/express/node_modules/mime-db']

const versionKey = (version: string): number => version.split('.').reduce((n, part) => n * 1000 + Number(part), 0)

/** The newest mime-db found in node_modules: its db.json and version, or `undefined`. */
export const findMimeDb = (): { readonly db: MimeDb; readonly version: string; readonly dir: string } | undefined => {
  const found = CANDIDATES.map((dir) => join(root, dir))
    .filter((dir) => existsSync(join(dir, 'db.json')) && existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, version: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version }))
    .sort((a, b) => versionKey(b.version) - versionKey(a.version))[0]
  if (found === undefined) return undefined
  return { ...found, db: JSON.parse(readFileSync(join(found.dir, 'db.json'), 'utf8')) as MimeDb }
}

// When two types claim one extension: IANA's registration over none, over Apache's, over
// nginx's; on a tie the type that is not `application/…` (the more specific one: `.mp4` is
// video/mp4, not application/mp4, `.mts` video/mp2t); then the first in the database's
// (alphabetical) order.
const SOURCE_RANK: Readonly<Record<string, number>> = { iana: 3, apache: 1, nginx: 0 }
const rankOf = (entry: MimeDbEntry): number => (entry.source === undefined ? 2 : (SOURCE_RANK[entry.source] ?? 2))

/**
 * The content type sent for a media type: `charset=utf-8` on text types and on JavaScript and
 * JSON (their one encoding; a browser that guesses otherwise garbles non-ASCII text).
 */
export const withCharset = (type: string): string =>
  type.startsWith('text/') || type === 'application/javascript' || type === 'application/json' ? `${type}; charset=utf-8` : type

/** Extension → media type, conflicts resolved as above. */
export const resolveExtensions = (db: MimeDb): ReadonlyMap<string, string> => {
  const table = new Map<string, string>()
  for (const [type, entry] of Object.entries(db)) {
    for (const ext of entry.extensions ?? []) {
      const held = table.get(ext)
      if (held !== undefined && held !== 'application/octet-stream') {
        const heldRank = rankOf(db[held] ?? {})
        const rank = rankOf(entry)
        if (heldRank > rank || (heldRank === rank && !(held.startsWith('application/') && !type.startsWith('application/')))) continue
      }
      table.set(ext, type)
    }
  }
  return table
}

/** The text of mime-table.ts for a mime-db database and its version. */
export const mimeTableSource = (db: MimeDb, version: string): string => {
  const byType = new Map<string, string[]>()
  for (const [ext, type] of resolveExtensions(db)) byType.set(type, [...(byType.get(type) ?? []), ext])
  const rows = [...byType]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([type, exts]) => `  [${JSON.stringify(withCharset(type))}, ${JSON.stringify(exts.join(' '))}],`)
  return `/**
 * GENERATED from mime-db ${version} by spec/support/generate-mime-table.ts: do not edit.
 * Regenerate with \`node --import tsx spec/support/generate-mime-table.ts\`;
 * spec/core/http/static/mime-table.spec.ts fails while this file is stale.
 *
 * \`MIME_TABLE\`: file extension (lower case, no dot) → the Content-Type to send, with
 * \`charset=utf-8\` on text types, JavaScript and JSON. Built once from the rows below and
 * never changed. Pure and portable: imports nothing.
 * Over 300 lines: one generated table.
 */

/** The mime-db release this table was generated from. */
export const MIME_DB_VERSION = ${JSON.stringify(version)}

// One row per content type: the type and its extensions, space-separated.
const ROWS: readonly (readonly [type: string, extensions: string])[] = [
${rows.join('\n')}
]

/** File extension (lower case, without the dot) → Content-Type. */
export const MIME_TABLE: ReadonlyMap<string, string> = new Map(ROWS.flatMap(([type, extensions]) => extensions.split(' ').map((ext) => [ext, type] as const)))
`
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const found = findMimeDb()
  if (found === undefined) {
    console.error('mime-db not found in node_modules')
    process.exit(1)
  }
  writeFileSync(MIME_TABLE_PATH, mimeTableSource(found.db, found.version))
  console.log(`wrote ${MIME_TABLE_PATH} from mime-db ${found.version} (${found.dir})`)
}
