/**
 * Named server fixtures for the integration specs. A spec's server options hold functions
 * (routes, handlers, middleware, loggers, cluster adapters), which cannot travel to a
 * server started in another runtime's process; so each spec file has a fixture module
 * (spec/integration/fixtures/) whose apps build those options from plain JSON parameters, in
 * whichever process serves them. An app may expose probes: small functions the spec calls
 * to read or drive what only the server's side sees (what a handler recorded, a handler
 * waiting to be released). Types and one identity helper; runtime-neutral.
 */
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'

/** Probes of an app: called with JSON arguments, answering a JSON-able value. */
// Parameters are the probes' own; `never[]` accepts any of them here.
export type Probes = Readonly<Record<string, (...args: never[]) => unknown>>

/** What an app gives the host: its options (the spec's plain options are laid over them). */
export interface FixtureApp<P extends Probes = Probes> {
  readonly options: ServerOptions
  readonly probes?: P
  /** Runs once the server listens: what a spec did with the handle that needs functions. */
  readonly started?: (server: ServerHandle) => void
}

/** What the host offers an app beside its parameters. */
export interface FixtureContext {
  /**
   * One value per `key` for every server of the host (the same process): what servers of
   * one test share, like a cluster hub. The key should name the test.
   */
  shared<A>(key: string, make: () => A): A
}

/** An app: parameters in, options and probes out. */
export type Fixture<Params = undefined, P extends Probes = Probes> = (params: Params, context: FixtureContext) => FixtureApp<P>

/** A fixture module: apps by name. */
export type FixtureModule = Readonly<Record<string, Fixture<never, Probes>>>

/** Keeps an app's parameter and probe types (for the spec's `serve` call). */
export const fixture = <Params = undefined, P extends Probes = Probes>(build: Fixture<Params, P>): Fixture<Params, P> => build

/**
 * Options a spec may give beside the app's: everything that is plain data. `host` and `port`
 * are the host's (127.0.0.1 and a free port); the functions are the app's.
 */
export type PlainOptions = Omit<ServerOptions, 'host' | 'port' | 'routes' | 'wsMiddleware' | 'httpMiddleware' | 'logger' | 'cluster'>
