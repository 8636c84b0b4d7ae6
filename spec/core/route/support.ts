/** Test helpers for the route specs: a recording SocketContext and a parsed request. */
import type { HttpRequest } from '../../../lib/core/http/types.js'
import type { SocketContext } from '../../../lib/core/route/socket-context.js'

export interface Recorded {
  readonly calls: (readonly unknown[])[]
  readonly ctx: SocketContext
}

/** A SocketContext that records every operation as `[name, ...args]`. */
export const recordingContext = (clientId = 7): Recorded => {
  const calls: (readonly unknown[])[] = []
  const data = new Map<string, unknown>()
  const rec =
    (name: string) =>
    (...args: readonly unknown[]): void =>
      void calls.push([name, ...args])
  const ctx: SocketContext = {
    clientId,
    request: httpRequest('GET', '/ws'),
    emit: rec('emit'),
    send: rec('send'),
    broadcast: rec('broadcast'),
    sendRaw: rec('sendRaw'),
    broadcastRaw: rec('broadcastRaw'),
    joinRoom: rec('joinRoom'),
    leaveRoom: rec('leaveRoom'),
    disconnectClient: rec('disconnectClient'),
    requestClient: (...args) => (calls.push(['requestClient', ...args]), Promise.resolve({ _tag: 'Unanswered', clientId: args[0], error: 'not_supported' })),
    requestRoom: (...args) => (calls.push(['requestRoom', ...args]), Promise.resolve([])),
    setClientData: (key, value) => void data.set(key, value),
    getClientData: (key?: string) => (key === undefined ? Object.fromEntries(data) : data.get(key)),
  }
  return { calls, ctx }
}

/** A parsed request as the HTTP parser would give it. */
export const httpRequest = (
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[] = [],
  body = '',
): HttpRequest => {
  const q = target.indexOf('?')
  return {
    method,
    target,
    path: q === -1 ? target : target.slice(0, q),
    rawQuery: q === -1 ? '' : target.slice(q + 1),
    protocol: 'HTTP/1.1',
    headers,
    trailers: [],
    body: new TextEncoder().encode(body),
    keepAlive: true,
    expectContinue: false,
  }
}
