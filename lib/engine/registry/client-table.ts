/**
 * `ClientTable`: one server's connections. Every connection is a client from the moment it
 * is accepted (`all`, by id); its receiver says what it is now: an HTTP connection (also in
 * `http`, for the time-out sweep and a graceful close) or, after an upgrade, a WebSocket
 * connection, or a Server-Sent Events connection. The clients of the registry (WebSocket and
 * event-stream connections: `Member`) are read through `all` (`ws`), without a second map
 * entry per connection (an idle server holds 10,000 of them). Also whether the server is
 * draining (shutting down), which every part that admits something new reads here.
 * Must not import `node:*`, Buffer or process.
 */
import type { Client } from '../connection/client.js'
import type { ClientContext } from '../connection/client-context.js'
import type { HttpConnection } from '../connection/http-connection.js'
import { SseConnection } from '../connection/sse-connection.js'
import { WsConnection } from '../connection/ws-connection.js'

/** A client of the registry: a WebSocket connection or a Server-Sent Events one. */
export type Member<S> = WsConnection<S> | SseConnection<S>

export class ClientTable<S> {
  /** Every connection, by client id. */
  readonly all = new Map<number, ClientContext<S>>()
  /** The connections still speaking HTTP, by client id. */
  readonly http = new Map<number, HttpConnection<S>>()
  /** The server is shutting down: nothing new is admitted. */
  draining = false
  private nextId = 1

  /**
   * The clients of the registry by id (WebSocket and event-stream connections): the view
   * delivery writes through (`DeliveryDeps.connections`).
   */
  readonly ws = registryView(this.all, this.http)

  /** A fresh client id. */
  newId(): number {
    return this.nextId++
  }

  /** The application's data of a client: one key, or all of it as a record. */
  data(clientId: number, key?: string): unknown {
    const client = this.all.get(clientId)
    if (client === undefined) return undefined
    if (key === undefined) return Object.fromEntries(client.data ?? [])
    return client.data?.get(key)
  }

  /** Sets one key of a client's data; false when there is no such client. */
  setData(clientId: number, key: string, value: unknown): boolean {
    const client = this.all.get(clientId)
    if (client === undefined) return false
    ;(client.data ??= new Map()).set(key, value)
    return true
  }
}

/** The WebSocket connection of `client`, when it is one. */
export const wsOf = <S>(client: Client<S> | undefined): WsConnection<S> | undefined => (client?.receiver instanceof WsConnection ? client.receiver : undefined)

/** The connection of `client` when it is a client of the registry (WebSocket or event stream). */
export const memberOf = <S>(client: Client<S> | undefined): Member<S> | undefined => {
  const receiver = client?.receiver
  return receiver instanceof WsConnection || receiver instanceof SseConnection ? receiver : undefined
}

function* memberIds<S>(all: ReadonlyMap<number, Client<S>>): Generator<number, void, undefined> {
  for (const client of all.values()) if (client.receiver instanceof WsConnection || client.receiver instanceof SseConnection) yield client.id
}

// The table's clients of the registry, read through `all` (`ClientTable.ws`).
const registryView = <S>(all: ReadonlyMap<number, ClientContext<S>>, http: ReadonlyMap<number, unknown>) => ({
  get: (clientId: number): Member<S> | undefined => memberOf(all.get(clientId)),
  has: (clientId: number): boolean => memberOf(all.get(clientId)) !== undefined,
  keys: (): Generator<number, void, undefined> => memberIds(all),
  /** How many clients of the registry there are: the connections not speaking HTTP (a refused upgrade being closed counts too). */
  get size(): number {
    return all.size - http.size
  },
})
