/**
 * `acceptsEventStream`: whether a request's `Accept` lets it be answered with
 * `text/event-stream` (RFC 9110 §12.5.1). `EventSource` sends `Accept: text/event-stream`;
 * a request without `Accept` accepts anything. Pure and portable: no node:* imports.
 */
import { headerValue } from '../http/header-value.js'
import type { Header } from '../http/types.js'

/**
 * True when `Accept` is absent, or names `text/event-stream`, `text/*` or `*\/*` with a
 * quality above 0.
 *
 * @example
 * acceptsEventStream([['Accept', 'text/event-stream']]) // true
 * acceptsEventStream([['Accept', 'application/json']])  // false
 */
export const acceptsEventStream = (headers: readonly Header[]): boolean => {
  const accept = headerValue(headers, 'accept')
  if (accept === undefined || accept.trim() === '') return true
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    if (type !== 'text/event-stream' && type !== 'text/*' && type !== '*/*') return false
    const q = params.find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  })
}
