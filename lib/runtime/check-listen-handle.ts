/**
 * `checkListenHandle`: whether the `handle` option of a server on `node:net` is one it can own:
 * `{ fd }` (systemd socket activation) or a listening `net.Server` that serves nothing of its
 * own (one received from a parent process). An HTTP server (`node:http`, `node:https`,
 * `node:http2`, any server with request or connection listeners) is refused with a message
 * pointing to `attach`: taking its listening handle over would answer every request of the
 * existing app with twinport's 404 (issue 24).
 *
 * Part of the shared runtime layer (lib/runtime/): imports `node:*` only, never an adapter.
 */
import { Server as HttpServer } from 'node:http'
import { Server as NetServer } from 'node:net'
import { Server as TlsServer } from 'node:tls'

const ATTACH = 'to serve twinport beside an existing HTTP server, use attach(server, options) instead of runServer'

// node:http2's servers share no class with node:http's; they alone have `updateSettings`.
const isHttp2 = (server: NetServer): boolean => typeof (server as NetServer & { readonly updateSettings?: unknown }).updateSettings === 'function'

/**
 * The problem with `handle`, as one line for the start-up error, or `undefined` when it can
 * be served.
 *
 * @example
 * checkListenHandle(http.createServer(app)) // 'handle: an HTTP server cannot be handed over … attach(server, options) …'
 * checkListenHandle({ fd: 3 })              // undefined
 */
export const checkListenHandle = (handle: unknown): string | undefined => {
  if (handle instanceof NetServer) {
    const server: NetServer = handle
    const http = server instanceof HttpServer || server instanceof TlsServer || server.listenerCount('request') > 0 || isHttp2(server)
    if (http) return `handle: an HTTP server cannot be handed over (twinport would take its connections from the app that serves them); ${ATTACH}`
    if (server.listenerCount('connection') > 0) return `handle: this net.Server already serves its own connections ('connection' listeners); pass a server with none, or ${ATTACH}`
    if (!server.listening) return 'handle: the net.Server is not listening; call its listen() first, or give host and port instead'
    return undefined
  }
  if (typeof handle === 'object' && handle !== null && 'fd' in handle) {
    const fd = (handle as { readonly fd: unknown }).fd
    return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? undefined : 'handle: fd must be a non-negative integer'
  }
  return `handle: expected { fd } or a listening net.Server; ${ATTACH}`
}
