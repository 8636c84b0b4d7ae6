/**
 * `serve(module, app, options, params)`: how an integration spec starts its server. The app
 * is a named fixture (spec/integration/fixtures/), served in the runtime `TWINPORT_TARGET` names:
 * Node (the default) in this process, under c8 like the rest; Bun or Deno in one child
 * process of that runtime (spec/support/serve-fixture.ts), started on the first `serve` and
 * shared by every spec of this process, each test still getting a server of its own. The
 * clients stay Node's (`ws`, `fetch`, raw sockets), whatever serves.
 *
 * Both ways go through the same fixture host and the same line protocol
 * (spec/support/fixture-wire.ts), so a spec sees the same thing on every runtime: a
 * `RemoteServer` whose handle operations answer promises, `records()` for what the server
 * logged, and `probe()` for what the app's handlers saw. Every wait is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Socket } from 'node:net'
import type { ClusterHandle } from '../../lib/engine/cluster/cluster-handle.js'
import type { NamespaceRegistry } from '../../lib/engine/registry/namespace-registry.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { FIXTURES } from '../integration/fixtures/index.js'
import type { FixtureApp, PlainOptions, Probes } from './fixture.js'
import { fixtureHost } from './fixture-host.js'
import { decodeLine, encodeLine, type FixtureMessage, type FixtureRequest, lineSplitter, type Started } from './fixture-wire.js'
import { type Runtime, scriptCommand, targetRuntime, targetTransport } from './runtimes.js'
import type { LogRecord } from './server.js'

/** How long one request may wait for its answer, and a child for its start. */
const ANSWER_MS = 20_000
const START_MS = 30_000

type Fixtures = typeof FIXTURES
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
type Request = DistributiveOmit<FixtureRequest, 'id'>

/** `T`'s methods `K`, each answering a promise of what it answered. */
export type Remote<T, K extends keyof T> = {
  readonly [Key in K]: T[Key] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never
}

const HANDLE_CALLS = [
  'send', 'broadcast', 'sendRaw', 'broadcastRaw', 'joinRoom', 'leaveRoom', 'joinNamespace', 'disconnectClient',
  'setClientData', 'getClientData', 'requestClient', 'requestRoom', 'clients', 'log', 'setSecureContext', 'close',
] as const satisfies readonly (keyof ServerHandle)[]
const NAMESPACE_CALLS = ['clientsInRoom', 'clientsInNamespace', 'listRooms', 'roomsOfClient', 'namespaceOf'] as const satisfies readonly (keyof NamespaceRegistry)[]
const CLUSTER_CALLS = [
  'idOf', 'send', 'sendRaw', 'clients', 'clientsInRoom', 'count', 'disconnectClient', 'joinRoom', 'leaveRoom', 'emit',
] as const satisfies readonly (keyof ClusterHandle)[]

/** One call of a batch: the handle's method (dotted for `namespaces.` and `cluster.`) and its arguments. */
export type Call = readonly [string, ...unknown[]]

/** A server started by `serve`, in this process or another. */
export type RemoteServer<P extends Probes = Probes> = Remote<ServerHandle, (typeof HANDLE_CALLS)[number]> & {
  readonly port: number
  readonly url: string
  readonly runtime: Runtime
  readonly namespaces: Remote<NamespaceRegistry, (typeof NAMESPACE_CALLS)[number]>
  readonly cluster: Remote<ClusterHandle, (typeof CLUSTER_CALLS)[number]>
  /** A property of the handle, by its dotted path (`'cluster.nodeId'`). */
  read(path: string): Promise<unknown>
  /** Makes the calls in one turn of the server's event loop, as synchronous code would; answers each. */
  batch(calls: readonly Call[]): Promise<readonly unknown[]>
  /** Everything the server logged until now (the same array, growing, from then on). */
  records(): Promise<readonly LogRecord[]>
  /** Calls one of the app's probes. */
  probe<K extends keyof P & string>(name: K, ...args: Parameters<P[K]>): Promise<Awaited<ReturnType<P[K]>>>
}

type ProbesOf<F> = F extends (...args: never[]) => FixtureApp<infer P> ? P : Probes
type ParamsOf<F> = F extends (params: infer A, ...rest: never[]) => unknown ? ([A] extends [undefined] ? [] : [params: A]) : []

interface Transport {
  request(body: Request): Promise<unknown>
  records(server: number): LogRecord[]
}

// What both ways share: numbering requests, matching answers, keeping log lines.
const connection = (write: (line: string) => void, what: string) => {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>()
  const logs = new Map<number, LogRecord[]>()
  let nextId = 1
  const recordsOf = (server: number): LogRecord[] => {
    const known = logs.get(server)
    if (known !== undefined) return known
    const fresh: LogRecord[] = []
    logs.set(server, fresh)
    return fresh
  }
  return {
    pending,
    records: recordsOf,
    request: (body: Request): Promise<unknown> =>
      new Promise((resolve, reject) => {
        const id = nextId++
        const timer = setTimeout(() => {
          pending.delete(id)
          reject(new Error(`${what}: no answer to ${body.op} within ${ANSWER_MS} ms`))
        }, ANSWER_MS)
        pending.set(id, { resolve, reject, timer })
        write(encodeLine({ id, ...body } as FixtureRequest))
      }),
    receive: (line: string): void => {
      const message = decodeLine<FixtureMessage>(line)
      if (message === undefined) {
        process.stderr.write(`[${what}] ${line}\n`)
        return
      }
      if ('log' in message) {
        recordsOf(message.log).push({ level: message.level, message: message.message, context: message.context })
        return
      }
      if (!('id' in message)) return
      const waiting = pending.get(message.id)
      if (waiting === undefined) return
      pending.delete(message.id)
      clearTimeout(waiting.timer)
      if ('error' in message) waiting.reject(new Error(message.error))
      else waiting.resolve(message.ok)
    },
    failAll: (error: Error): void => {
      for (const { reject, timer } of pending.values()) {
        clearTimeout(timer)
        reject(error)
      }
      pending.clear()
    },
  }
}

// Node: the host in this process, with Node's adapter on the transport TWINPORT_TARGET names
// (node:net, or the native addon for `node-native`); lines still go through the codec.
const inProcess = async (): Promise<Transport> => {
  const [{ FIXTURES: modules }, { runServer: serveNode }] = await Promise.all([import('../integration/fixtures/index.js'), import('../../lib/node/run-server.js')])
  const carrier = targetTransport()
  const runServer = (options: Parameters<typeof serveNode>[0]): ReturnType<typeof serveNode> => serveNode({ transport: carrier, ...options })
  let host: ReturnType<typeof fixtureHost> | undefined
  const conn = connection((line) => host?.receive(line), 'node fixture host')
  host = fixtureHost({ runServer, modules, send: (line) => conn.receive(line) })
  return conn
}

// Bun or Deno: one child for this whole process. Its pipes hold this process open only
// while a request waits, so a spec run ends when its specs do (and the child, its stdin
// closed, closes its servers and exits).
const inChild = (runtime: Runtime, exited: () => void): Promise<Transport> =>
  new Promise((resolve, reject) => {
    const { command, args } = scriptCommand(runtime, 'spec/support/serve-fixture.ts')
    const child: ChildProcess = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
    const what = `${runtime} fixture host`
    const pipes = [child.stdin, child.stdout, child.stderr] as unknown as Socket[]
    const hold = (held: boolean): void => {
      for (const pipe of pipes) (held ? pipe.ref() : pipe.unref())
      if (held) child.ref()
      else child.unref()
    }
    const conn = connection((line) => {
      hold(true)
      child.stdin?.write(`${line}\n`)
    }, what)
    const started = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${what}: not ready within ${START_MS} ms`))
    }, START_MS)
    child.stdout?.setEncoding('utf8')
    child.stdout?.on(
      'data',
      lineSplitter((line) => {
        if (line.startsWith('{"ready"')) {
          clearTimeout(started)
          hold(false)
          resolve(transport)
          return
        }
        conn.receive(line)
        if (conn.pending.size === 0) hold(false)
      }),
    )
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${what}] ${chunk.toString('utf8')}`))
    child.on('exit', (code, signal) => {
      clearTimeout(started)
      exited()
      const error = new Error(`${what} exited (${signal ?? code})`)
      conn.failAll(error)
      reject(error)
    })
    process.once('exit', () => child.kill())
    const transport: Transport = { request: conn.request, records: conn.records }
  })

let transport: Promise<Transport> | undefined

const connect = (): Promise<Transport> => {
  if (transport === undefined) {
    const runtime = targetRuntime()
    const forget = (): void => {
      if (transport === mine) transport = undefined
    }
    const mine = runtime === 'node' ? inProcess() : inChild(runtime, forget)
    mine.catch(forget)
    transport = mine
  }
  return transport
}

const remoteCalls = <T, K extends keyof T & string>(prefix: string, keys: readonly K[], call: (path: string, args: readonly unknown[]) => Promise<unknown>): Remote<T, K> =>
  Object.fromEntries(keys.map((key) => [key, (...args: readonly unknown[]) => call(`${prefix}${key}`, args)])) as Remote<T, K>

/**
 * Starts `app` of fixture module `module` on 127.0.0.1 and a free port, with `options`
 * (plain data) laid over the app's, in the runtime `TWINPORT_TARGET` names.
 */
export const serve = async <M extends keyof Fixtures, A extends keyof Fixtures[M] & string>(
  module: M,
  app: A,
  options: PlainOptions = {},
  ...params: ParamsOf<Fixtures[M][A]>
): Promise<{ server: RemoteServer<ProbesOf<Fixtures[M][A]>>; port: number; url: string }> => {
  const via = await connect()
  const { server: n, port } = (await via.request({ op: 'start', module, app, params: params[0], options })) as Started
  const call = async (path: string, args: readonly unknown[]): Promise<unknown> => ((await via.request({ op: 'call', server: n, calls: [[path, ...args]] })) as unknown[])[0]
  const url = `http://127.0.0.1:${port}`
  const server = {
    ...remoteCalls<ServerHandle, (typeof HANDLE_CALLS)[number]>('', HANDLE_CALLS, call),
    port,
    url,
    runtime: targetRuntime(),
    namespaces: remoteCalls<NamespaceRegistry, (typeof NAMESPACE_CALLS)[number]>('namespaces.', NAMESPACE_CALLS, call),
    cluster: remoteCalls<ClusterHandle, (typeof CLUSTER_CALLS)[number]>('cluster.', CLUSTER_CALLS, call),
    read: (path: string) => via.request({ op: 'read', server: n, path }),
    batch: async (calls: readonly Call[]) => (await via.request({ op: 'call', server: n, calls })) as readonly unknown[],
    records: async () => {
      await via.request({ op: 'sync' })
      return via.records(n)
    },
    probe: (name: string, ...args: readonly unknown[]) => via.request({ op: 'probe', server: n, name, args }),
  } as RemoteServer<ProbesOf<Fixtures[M][A]>>
  return { server, port, url }
}
