/**
 * `invalidInputResponse`: the 422 a request gets when its params, query, headers or body
 * do not fit the route's schemas, with the same `details` as a WebSocket `invalid_payload`
 * error. Pure and portable: no node:* imports.
 */
import { json } from '../http/response.js'
import type { Response } from '../http/types.js'
import type { PayloadIssue } from './validation-details.js'

/** The body of a 422 answer (what `openApi` documents for it). */
export interface InvalidInputBody {
  readonly error: 'invalid_input'
  readonly message: string
  readonly details: readonly PayloadIssue[]
}

/**
 * 422 `{"error":"invalid_input","message":…,"details":[{"path","expected"}]}`; each path
 * starts with the input it is in (`params.id`, `query.page`, `headers.x-key`, `body.name`,
 * `body` for the whole body).
 *
 * @example
 * invalidInputResponse([{ path: 'params.id', expected: 'integer' }]).status // 422
 */
export const invalidInputResponse = (details: readonly PayloadIssue[]): Response => {
  const where = details.map((d) => `${d.path}: expected ${d.expected}`).join('; ')
  return json({ error: 'invalid_input', message: `invalid input: ${where}`, details: details.map((d) => ({ path: d.path, expected: d.expected })) }, 422)
}
