/**
 * `lazyHeaderMap`: a route `Request`'s `headerMap` (lower-case name → value, repeated lines
 * joined with `, `) for a request that reads a header by name (`HeaderLookup`): `get` and
 * `has` ask it for that one name; only what needs every header (`size`, iteration) builds the
 * whole map, once. A name that is not lower case is absent, as in the built map.
 *
 * Pure and portable: no node:* imports.
 */
import type { HeaderLookup } from './request-header.js'

class LazyHeaderMap implements ReadonlyMap<string, string> {
  #whole: ReadonlyMap<string, string> | undefined

  constructor(
    private readonly lookup: HeaderLookup,
    private readonly build: () => ReadonlyMap<string, string>,
  ) {}

  get(name: string): string | undefined {
    if (this.#whole !== undefined) return this.#whole.get(name)
    // The built map's keys are lower case: any other spelling is not one of them.
    return name.toLowerCase() === name ? this.lookup.headerOf(name) : undefined
  }

  has(name: string): boolean {
    return this.get(name) !== undefined
  }

  private whole(): ReadonlyMap<string, string> {
    return (this.#whole ??= this.build())
  }

  get size(): number {
    return this.whole().size
  }

  forEach(each: (value: string, key: string, map: ReadonlyMap<string, string>) => void, self?: unknown): void {
    this.whole().forEach((value, key) => each.call(self, value, key, this))
  }

  entries(): MapIterator<[string, string]> {
    return this.whole().entries()
  }

  keys(): MapIterator<string> {
    return this.whole().keys()
  }

  values(): MapIterator<string> {
    return this.whole().values()
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.whole()[Symbol.iterator]()
  }

  get [Symbol.toStringTag](): string {
    return 'Map'
  }
}

/**
 * The header map of a request read through `lookup`, the whole map built by `build` when asked.
 *
 * @example
 * const map = lazyHeaderMap(view, () => indexHeaders(view.headers))
 * map.get('accept') // one lookup; no other header read
 */
export const lazyHeaderMap = (lookup: HeaderLookup, build: () => ReadonlyMap<string, string>): ReadonlyMap<string, string> => new LazyHeaderMap(lookup, build)
