/**
 * `requestHeader`: one header of a parsed request by case-insensitive name, without building
 * the request's whole header list when the request can say (`HeaderLookup`: `toFetch`'s view
 * over a web `Request`'s `Headers` reads one name from the host's own header store). Any other
 * request is searched line by line (`headerValue`). A copy of a request made with a spread
 * (`{ ...request, headers }`) has no `headerOf` (it lives on the view's prototype), so it is
 * searched: a changed list is never answered from the original headers.
 *
 * Pure and portable: no node:* imports.
 */
import { headerValue } from './header-value.js'
import type { HttpRequest } from './types.js'

/** A request that reads one header by its lower-case name, repeated lines joined with `, ` (as `headerValue`). */
export interface HeaderLookup {
  headerOf(lowerName: string): string | undefined
}

/**
 * Whether `request` can read a header by name without its whole list.
 *
 * @example
 * hasHeaderLookup(parsedRequest) // false: a parsed request has its list already
 */
export const hasHeaderLookup = (request: HttpRequest): request is HttpRequest & HeaderLookup =>
  typeof (request as Partial<HeaderLookup>).headerOf === 'function'

/**
 * The combined value of header `name` in `request`, `undefined` when absent.
 *
 * @example
 * requestHeader(request, 'Origin') // 'https://a.test'
 */
export const requestHeader = (request: HttpRequest, name: string): string | undefined =>
  hasHeaderLookup(request) ? request.headerOf(name.toLowerCase()) : headerValue(request.headers, name)
