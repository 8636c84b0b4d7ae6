/**
 * `createApi`: a typed `fetch` for the HTTP side of a twinport application, derived from the
 * `httpRoute`s of its route table: paths with `{param}`s filled in, the method, the JSON body
 * and the answer's type. Portable: the global `fetch` or one given as an option.
 */
import type { RouteSource, RouteTable } from '../core/route/route.js'
import { ApiError } from './api-error.js'
import type { ApiArgs, ApiBody, ApiInit, ApiPath, ApiQuery, ApiResult } from './api-types.js'

/** The part of a fetch `Response` the helper reads. */
export interface FetchResponseLike {
  readonly ok: boolean
  readonly status: number
  readonly headers: { get(name: string): string | null }
  text(): Promise<string>
}

/** A `fetch`: the global one fits, and so does any stand-in with this shape. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<FetchResponseLike>

/** Options of `createApi`. */
export interface ApiOptions {
  /** The `fetch` to use (default the global one). */
  readonly fetch?: FetchLike
  /** Headers sent with every call (a call's own headers win). */
  readonly headers?: { readonly [name: string]: string }
}

type Call<App, M extends string, WithBody extends boolean> = <P extends ApiPath<App, M>>(
  path: P,
  ...init: ApiArgs<ApiInit<P, ApiBody<App, M, P>, WithBody>>
) => Promise<ApiResult<App, M, P>>

/** One method per HTTP verb; each takes a route's path pattern and its params, body and query. */
export interface Api<App = RouteTable> {
  get: Call<App, 'GET', false>
  delete: Call<App, 'DELETE', false>
  post: Call<App, 'POST', true>
  put: Call<App, 'PUT', true>
  patch: Call<App, 'PATCH', true>
}

interface AnyInit {
  readonly params?: { readonly [name: string]: string }
  readonly body?: unknown
  readonly query?: ApiQuery
  readonly headers?: { readonly [name: string]: string }
  readonly signal?: AbortSignal
}

/**
 * A typed HTTP client for the routes of `App` under `base` (default `''`: the page's own
 * origin in a browser). Resolves with the answer's JSON (or text, or `undefined` for an empty
 * body); rejects with an `ApiError` for a status outside 2xx, and with a `TypeError` for a
 * missing path param.
 *
 * @example
 * const api = createApi<typeof table>('http://127.0.0.1:6001')
 * const { rooms } = await api.get('/api/rooms')
 * const sent = await api.post('/api/rooms/{room}/messages', { params: { room: 'lobby' }, body: { name: 'ann', text: 'hi' } })
 */
export const createApi = <App extends RouteSource = RouteTable>(base = '', options: ApiOptions = {}): Api<App> => {
  const call =
    (method: string) =>
    async (pattern: string, { params = {}, body, query, headers, signal }: AnyInit = {}): Promise<unknown> => {
      // Each `{name}` of the pattern becomes its param, percent-encoded.
      const path = pattern.replace(/\{([^}]*)\}/g, (_, name: string) => {
        if (typeof params[name] !== 'string') throw new TypeError(`${pattern}: missing param "${name}"`)
        return encodeURIComponent(params[name])
      })
      // URLSearchParams turns numbers and booleans into their text.
      const url = base + path + (query === undefined ? '' : `?${new URLSearchParams(query as Record<string, string>)}`)
      const init: Parameters<FetchLike>[1] = { method, headers: { ...options.headers, ...headers } }
      if (body !== undefined) {
        init.body = JSON.stringify(body)
        init.headers = { 'content-type': 'application/json', ...init.headers }
      }
      if (signal !== undefined) init.signal = signal
      const res = await (options.fetch ?? (globalThis as { fetch: FetchLike }).fetch)(url, init)
      const text = await res.text()
      let value: unknown = text === '' ? undefined : text
      if (value !== undefined && /json/i.test(res.headers.get('content-type') ?? '')) {
        try {
          value = JSON.parse(text)
        } catch {
          throw new ApiError(method, url, res.status, text, 'invalid JSON')
        }
      }
      if (!res.ok) throw new ApiError(method, url, res.status, value)
      return value
    }
  // The calls are typed by `Api<App>`; at run time each is the same untyped function.
  return { get: call('GET'), delete: call('DELETE'), post: call('POST'), put: call('PUT'), patch: call('PATCH') } as unknown as Api<App>
}
