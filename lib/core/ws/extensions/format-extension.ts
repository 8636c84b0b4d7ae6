/**
 * `formatExtension`: an extension value as the text of one `Sec-WebSocket-Extensions`
 * element (RFC 6455 §9.1), for the server's answer.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { TCHAR } from '../../http/char-classes.js'
import type { Extension, ExtensionParam } from './extension.js'

const isToken = (text: string): boolean => {
  if (text === '') return false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 255 || TCHAR[c] !== 1) return false
  }
  return true
}

// A value that is a token goes as it is; anything else as a quoted-string (RFC 9110 §5.6.4),
// though RFC 6455 §9.1 wants a token once unquoted, so a valid answer never needs quotes.
const formatValue = (value: string): string => (isToken(value) ? value : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`)

const formatParam = (param: ExtensionParam): string => (param.value === undefined ? param.name : `${param.name}=${formatValue(param.value)}`)

/**
 * `name; param; param=value`, parameters in order.
 *
 * @example
 * formatExtension({ name: 'permessage-deflate', params: [{ name: 'server_no_context_takeover', value: undefined }, { name: 'client_max_window_bits', value: '10' }] })
 * // 'permessage-deflate; server_no_context_takeover; client_max_window_bits=10'
 */
export const formatExtension = (extension: Extension): string =>
  [extension.name, ...extension.params.map(formatParam)].join('; ')
