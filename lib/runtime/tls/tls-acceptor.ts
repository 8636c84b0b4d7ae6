/**
 * TLS on Node (`node:tls`): each accepted TCP socket is wrapped in a server `TLSSocket`
 * (ALPN `http/1.1`) and handed on once its handshake is done, so the engine only ever sees
 * secured connections. A handshake that fails (a plain HTTP client on the TLS port, a bad
 * hello, no common protocol) or does not finish within the time-out is closed and reported,
 * never thrown. New connections take the current secure context, which `setSecureContext`
 * replaces while the server runs (a renewed certificate). Part of the shared runtime layer (lib/runtime/): Node's adapter
 * and Deno's with TLS (Deno's `node:tls`) serve through it; imports the engine and `node:*`,
 * never an adapter.
 */
import type { Socket } from 'node:net'
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls'
import { pemList, type TlsOptions } from '../../engine/options/tls-options.js'
import { asInput, checkTlsMaterial } from './tls-material.js'

/** The protocol offered in ALPN: HTTP/1.1, which carries both HTTP and the WebSocket upgrade. */
export const ALPN_PROTOCOLS: readonly string[] = ['http/1.1']

export interface TlsAcceptorOptions {
  /** Time for a handshake to finish from the moment the connection is accepted. */
  readonly handshakeTimeoutMs: number
  /** A connection whose handshake is done. */
  readonly onSecure: (socket: TLSSocket) => void
  /** A connection closed before its handshake finished, and why. */
  readonly onFailure: (message: string, context: { readonly error: string }) => void
}

export interface TlsAcceptor {
  /** Starts the handshake on a new TCP connection. */
  readonly accept: (raw: Socket) => void
  /** New connections use `tls` from now on; throws, changing nothing, if it cannot be served. */
  readonly setSecureContext: (tls: TlsOptions) => void
  /** Closes every connection still in its handshake (the server is shutting down). */
  readonly dropPending: () => void
}

/**
 * The secure context of `tls`. Throws an Error whose message lists each problem
 * (`tls.key: …`) when the key or certificate cannot be served.
 *
 * @example
 * const context = secureContextOf({ key: readFileSync('key.pem'), cert: readFileSync('cert.pem') })
 */
export const secureContextOf = (tls: TlsOptions): SecureContext => {
  const problems = checkTlsMaterial(tls)
  if (problems.length > 0) throw new Error(problems.join('\n  '))
  try {
    return createSecureContext({
      key: pemList(tls.key).map(asInput),
      cert: pemList(tls.cert).map(asInput),
      ...(tls.ca === undefined ? {} : { ca: pemList(tls.ca).map(asInput) }),
      ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    })
  } catch (error) {
    throw new Error(`tls: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const describe = (error: Error): string => {
  const code = (error as NodeJS.ErrnoException).code
  return code === undefined ? error.message : `${code}: ${error.message}`
}

/**
 * An acceptor serving `tls`; throws like `secureContextOf` when it cannot be served.
 *
 * @example
 * const tlsAcceptor = createTlsAcceptor(tls, { handshakeTimeoutMs: 10_000, onSecure: accept, onFailure: log })
 * net.createServer({ allowHalfOpen: true }, tlsAcceptor.accept)
 */
export const createTlsAcceptor = (tls: TlsOptions, options: TlsAcceptorOptions): TlsAcceptor => {
  let context = secureContextOf(tls)
  const pending = new Set<TLSSocket>()
  const ALPNProtocols = [...ALPN_PROTOCOLS]

  const accept = (raw: Socket): void => {
    const socket = new TLSSocket(raw, { isServer: true, secureContext: context, ALPNProtocols })
    pending.add(socket)
    const settle = (): void => {
      clearTimeout(timer)
      pending.delete(socket)
      socket.off('error', failed)
    }
    // The TCP socket too: a runtime whose TLSSocket does not own it (Deno's node:tls) would keep it open.
    const drop = (): void => {
      socket.destroy()
      raw.destroy()
    }
    function failed(error: Error): void {
      settle()
      options.onFailure('tls handshake failed', { error: describe(error) })
      drop()
    }
    const timer = setTimeout(() => {
      settle()
      options.onFailure('tls handshake timed out', { error: `no handshake within ${options.handshakeTimeoutMs} ms` })
      drop()
    }, options.handshakeTimeoutMs).unref()
    socket.on('error', failed)
    socket.once('close', settle)
    socket.once('secure', () => {
      settle()
      options.onSecure(socket)
    })
  }

  return {
    accept,
    setSecureContext: (next) => {
      context = secureContextOf(next)
    },
    dropPending: () => {
      for (const socket of pending) socket.destroy()
      pending.clear()
    },
  }
}
