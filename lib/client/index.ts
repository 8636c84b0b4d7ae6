/**
 * `twinport/client`: a typed client for twinport servers, for browsers, Node, Bun and Deno.
 * No runtime dependency: of the core it imports types and, at run time, only the
 * dependency-free wire module (`lib/core/ws/envelope-wire.ts`), so a browser bundle holds
 * this folder and that one file. See docs/client.md.
 */
export { connect, CLOSE_RECONNECTING } from './connect.js'
export { events, type ClientEvents } from './events.js'
export type { Client, ClientState, EmitArgs, EmitOptions, LifecycleEvents, LifecycleName, ListenName, Payload, RequestArgs, RequestOptions, ResyncReason, SessionInfo, StreamOptions } from './client.js'
export { resolveClientOptions, type ClientOptions, type ReconnectOptions, type ResolvedClientOptions } from './client-options.js'
export type { ClientProblem } from './client-problem.js'
export { describeFailure, RequestError, type RequestFailure } from './request-error.js'
export type { AckData, EventData, EventMap, EventName, EventResult, SocketRoutes } from './app-types.js'
export { backoffDelay } from './backoff-delay.js'
export { shouldReconnect } from './should-reconnect.js'
export { readServerMessage, type ServerMessage } from './read-server-message.js'
export { systemClock, type Clock } from './clock.js'
export type { Fallback, WebSocketConstructor, WebSocketLike } from './web-socket-like.js'
export { createApi, type Api, type ApiOptions, type FetchLike, type FetchResponseLike } from './create-api.js'
export { ApiError } from './api-error.js'
export type { ApiArgs, ApiBody, ApiFailure, ApiInit, ApiPath, ApiQuery, ApiResult, HttpFailure, HttpResult, HttpRoutes } from './api-types.js'
