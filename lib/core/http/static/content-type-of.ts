/**
 * `contentTypeOf`: the Content-Type of a file, from its extension, through the table
 * generated from mime-db (mime-table.ts). Pure and portable: no node:* imports.
 */
import { OCTET_STREAM } from '../content-types.js'
import { MIME_TABLE } from './mime-table.js'

/**
 * The Content-Type to send for a file path (any separator, any case): the type of the last
 * extension of the last segment, with `charset=utf-8` on text types, JavaScript and JSON;
 * `fallback` (`application/octet-stream`) when the name has no extension or an unknown one.
 * A name that only starts with a dot (`.env`) has no extension.
 *
 * @example
 * contentTypeOf('app/Index.HTML') // 'text/html; charset=utf-8'
 * contentTypeOf('bundle.min.js') // 'text/javascript; charset=utf-8'
 * contentTypeOf('README') // 'application/octet-stream'
 */
export const contentTypeOf = (path: string, fallback: string = OCTET_STREAM): string => {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return fallback
  return MIME_TABLE.get(name.slice(dot + 1).toLowerCase()) ?? fallback
}
