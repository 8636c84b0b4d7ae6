/**
 * The fixture host: starts fixture apps (spec/integration/fixtures/) with one runtime's
 * `runServer` on 127.0.0.1 and a free port, and answers what a spec asks of them, one line
 * of spec/support/fixture-wire.ts in, lines out: start, calls on a server's handle (a batch
 * runs in one turn, as a spec's synchronous calls did), reading a handle's property,
 * probes, and sync (every line before its answer has been sent). Each server's log entries
 * go out as lines too, for the spec's `records()`. The same host serves in the spec's own
 * process (Node) and in a Bun or Deno child (spec/support/serve-fixture.ts).
 * Runtime-neutral: no node:*, no Buffer.
 */
import { makeLogger } from '../../lib/core/log/make-logger.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import type { FixtureApp, FixtureContext, FixtureModule, Probes } from './fixture.js'
import { decodeLine, encodeLine, type FixtureMessage, type FixtureRequest } from './fixture-wire.js'

export interface FixtureHostDeps {
  readonly runServer: (options: ServerOptions) => Promise<ServerHandle>
  readonly modules: Readonly<Record<string, FixtureModule>>
  /** Where answers and log lines go (without the newline). */
  readonly send: (line: string) => void
}

export interface FixtureHost {
  /** Handles one request line; its answer comes through `send`, now or later. */
  receive(line: string): void
  /** Closes every server still open. */
  closeAll(): Promise<void>
}

interface Served {
  readonly handle: ServerHandle
  readonly probes: Probes
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

// `handle.namespaces.clientsInRoom` from 'namespaces.clientsInRoom', with its owner for `this`.
const lookUp = (root: object, path: string): { owner: unknown; value: unknown } => {
  let owner: unknown
  let value: unknown = root
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !(key in value)) throw new Error(`fixture host: the handle has no ${path}`)
    owner = value
    value = (value as Record<string, unknown>)[key]
  }
  return { owner, value }
}

const invoke = (root: object, path: string, args: readonly unknown[]): unknown => {
  const { owner, value } = lookUp(root, path)
  if (typeof value !== 'function') throw new Error(`fixture host: ${path} is not a function`)
  return Reflect.apply(value, owner, args)
}

/** A host serving the apps of `modules` with `runServer`. */
export const fixtureHost = ({ runServer, modules, send }: FixtureHostDeps): FixtureHost => {
  const servers = new Map<number, Served>()
  const sharedValues = new Map<string, unknown>()
  const context: FixtureContext = {
    shared: <A>(key: string, make: () => A): A => {
      if (!sharedValues.has(key)) sharedValues.set(key, make())
      return sharedValues.get(key) as A
    },
  }
  let nextServer = 1
  const say = (message: FixtureMessage): void => send(encodeLine(message))

  const served = (n: number): Served => {
    const found = servers.get(n)
    if (found === undefined) throw new Error(`fixture host: no server ${n}`)
    return found
  }

  const start = async (moduleName: string, appName: string, params: unknown, options: unknown): Promise<unknown> => {
    const app = modules[moduleName]?.[appName]
    if (app === undefined) throw new Error(`fixture host: no app ${moduleName}/${appName}`)
    const built: FixtureApp = (app as (p: unknown, c: FixtureContext) => FixtureApp)(params, context)
    const n = nextServer++
    const logger = makeLogger((entry) => say({ log: n, level: entry.level, message: entry.message, context: entry.context }))
    const handle = await runServer({ host: '127.0.0.1', port: 0, logger, ...built.options, ...(options as ServerOptions) })
    servers.set(n, { handle, probes: built.probes ?? {} })
    built.started?.(handle)
    return { server: n, port: handle.address.port }
  }

  // Every call of a batch is made before any is awaited: one turn, like synchronous code.
  const answer = (request: FixtureRequest): unknown => {
    switch (request.op) {
      case 'start':
        return start(request.module, request.app, request.params, request.options)
      case 'call': {
        const { handle } = served(request.server)
        return Promise.all(request.calls.map(([path, ...args]) => invoke(handle, path, args)))
      }
      case 'read':
        return lookUp(served(request.server).handle, request.path).value
      case 'probe':
        return invoke(served(request.server).probes, request.name, request.args)
      case 'sync':
        return null
    }
  }

  return {
    receive: (line) => {
      const request = decodeLine<FixtureRequest>(line)
      if (request === undefined) return
      try {
        Promise.resolve(answer(request)).then(
          (ok) => say({ id: request.id, ok }),
          (error: unknown) => say({ id: request.id, error: messageOf(error) }),
        )
      } catch (error) {
        say({ id: request.id, error: messageOf(error) })
      }
    },
    closeAll: async () => {
      await Promise.allSettled([...servers.values()].map((s) => s.handle.close()))
    },
  }
}
