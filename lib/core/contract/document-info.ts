/**
 * `DocumentInfo`: the `info` object of a generated OpenAPI or AsyncAPI document, and the
 * schemas of the error answers both describe.
 * Pure and portable: no node:* imports.
 */
import type { JsonSchema } from '../route/json-schema.js'

/** What a document says about the API (OpenAPI and AsyncAPI `info`). */
export interface DocumentInfo {
  readonly title: string
  readonly version: string
  readonly description?: string
}

/** An error answer's body: `{"error": code, "message"?: text}` (DESIGN §5); a fresh object each call. */
export const errorSchema = (): JsonSchema => ({
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' } },
  required: ['error'],
})

/** One failing place, as in `invalid_input` and `invalid_payload` details; a fresh object each call. */
export const issueSchema = (): JsonSchema => ({
  type: 'object',
  properties: { path: { type: 'string' }, expected: { type: 'string' } },
  required: ['path', 'expected'],
})
