/**
 * `loadChatAssets`: the page of the demo (`public/index.html`, `app.js`, `app.css`, and
 * `twinport-client.js`, the bundle of `twinport/client` made by `bundle-client.ts`), read
 * once at start-up. Each file is served by its own fixed route, so no request path ever
 * reaches the file system. Node only (node:fs).
 */
import { readFileSync } from 'node:fs'

/** The page's files, as text. */
export interface ChatAssets {
  readonly html: string
  readonly js: string
  readonly css: string
  /** `twinport/client` as one ES module (generated: see `bundle-client.ts`). */
  readonly client: string
}

/** The folder holding the page, beside this file. */
export const PUBLIC_DIR = new URL('./public/', import.meta.url)

/**
 * Reads the page's files from `dir` (a `file:` URL ending in `/`).
 *
 * @example
 * const assets = loadChatAssets()
 * assets.html.startsWith('<!doctype html>') // true
 */
export const loadChatAssets = (dir: URL = PUBLIC_DIR): ChatAssets => {
  const read = (name: string): string => readFileSync(new URL(name, dir), 'utf8')
  return { html: read('index.html'), js: read('app.js'), css: read('app.css'), client: read('twinport-client.js') }
}
