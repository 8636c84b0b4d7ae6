/**
 * The servers the harness can start, in three runtimes: Node (each peer a script run
 * with `node --import tsx`, twinport's compiled build with plain `node`), Bun and Deno
 * (TypeScript run as is). Each reads HOST/PORT from the environment. For every runtime,
 * its ceiling (a raw socket server doing the least work) and twinport on it. Pure data.
 */

/** Where a contender runs. */
export type Runtime = 'node' | 'bun' | 'deno'

/** Identifiers of the contenders, as used on the command line (`--contenders`). */
export type ContenderId =
  | 'raw-net' | 'node-http' | 'node-https' | 'fastify' | 'ws' | 'socketio' | 'twinport' | 'twinport-young1' | 'ws-young1' | 'twinport-plain'
  | 'twinport-native' | 'uws'
  | 'twinport-bun' | 'bun-serve' | 'raw-bun'
  | 'twinport-deno' | 'deno-serve' | 'raw-deno'

/** A server to benchmark. */
export interface Contender {
  readonly id: ContenderId
  /** how RESULTS.md names it. */
  readonly label: string
  readonly runtime: Runtime
  /** script path relative to the repository root. */
  readonly script: string
  /** the protocol the WebSocket load client speaks to it. */
  readonly dialect: 'ws' | 'socketio'
  /** flags for `node` itself (a deployment setting, not the library's). */
  readonly nodeFlags?: readonly string[]
  /** environment of the server, over the workload's (`Workload.serverEnv`). */
  readonly env?: Readonly<Record<string, string>>
}

// V8's young generation capped at 1 MiB per semi-space (the default grows to 16 MiB while
// thousands of connections are set up, and that growth stays in the RSS): how a server that
// holds many idle connections can be run.
const YOUNG1 = ['--max-semi-space-size=1']

/** The runtimes in the order the report lists them. */
export const RUNTIMES: readonly Runtime[] = ['node', 'bun', 'deno']

/** How the report names a runtime. */
export const RUNTIME_LABEL: Readonly<Record<Runtime, string>> = { node: 'Node', bun: 'Bun', deno: 'Deno' }

/** Every contender; `node-http`, `node-https` and `ws` are the same peer server (node:http or node:https, with ws attached). */
export const CONTENDERS: Readonly<Record<ContenderId, Contender>> = {
  'raw-net': { id: 'raw-net', label: 'raw node:net (ceiling)', runtime: 'node', script: 'bench/peers/raw-net.ts', dialect: 'ws' },
  'node-http': { id: 'node-http', label: 'node:http', runtime: 'node', script: 'bench/peers/node-http.ts', dialect: 'ws' },
  // The same script: given TLS_KEY/TLS_CERT (TLS workloads), it serves node:https instead.
  'node-https': { id: 'node-https', label: 'node:https', runtime: 'node', script: 'bench/peers/node-http.ts', dialect: 'ws' },
  fastify: { id: 'fastify', label: 'fastify', runtime: 'node', script: 'bench/peers/fastify.ts', dialect: 'ws' },
  ws: { id: 'ws', label: 'ws (+bufferutil)', runtime: 'node', script: 'bench/peers/node-http.ts', dialect: 'ws' },
  socketio: { id: 'socketio', label: 'socket.io', runtime: 'node', script: 'bench/peers/socket-io.ts', dialect: 'socketio' },
  // Compiled by the harness (tsconfig.bench.json), as an application ships it: run from
  // source under tsx, every closure would also pay esbuild's keepNames helper.
  twinport: { id: 'twinport', label: 'twinport on Node', runtime: 'node', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws' },
  'twinport-young1': {
    id: 'twinport-young1', label: 'twinport on Node, --max-semi-space-size=1', runtime: 'node', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws',
    nodeFlags: YOUNG1,
  },
  'ws-young1': {
    id: 'ws-young1', label: 'ws (+bufferutil), --max-semi-space-size=1', runtime: 'node', script: 'bench/peers/node-http.ts', dialect: 'ws', nodeFlags: YOUNG1,
  },
  // twinport with compression off whatever the workload asks: the reference of the
  // compression workloads that compare twinport with itself.
  'twinport-plain': {
    id: 'twinport-plain', label: 'twinport, compression off', runtime: 'node', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws', env: { DEFLATE: '0' },
  },
  // Issue 32: the same build on the native transport (the addon built by `make -C native`; the
  // compiled build sits in bench/.tmp, so the binary is named), and uWebSockets.js beside it.
  'twinport-native': {
    id: 'twinport-native', label: 'twinport on Node, native transport', runtime: 'node', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws',
    env: { TRANSPORT: 'native', TWINPORT_NATIVE_BINARY: `native/build/twinport-${process.platform}-${process.arch}.node` },
  },
  uws: { id: 'uws', label: 'uWebSockets.js', runtime: 'node', script: 'bench/peers/uws.ts', dialect: 'ws' },
  // The same app on Bun and Deno: examples/run-anywhere.ts picks the runtime's adapter.
  'twinport-bun': { id: 'twinport-bun', label: 'twinport on Bun', runtime: 'bun', script: 'examples/echo.ts', dialect: 'ws' },
  'bun-serve': { id: 'bun-serve', label: 'Bun.serve', runtime: 'bun', script: 'bench/peers/bun-serve.ts', dialect: 'ws' },
  'raw-bun': { id: 'raw-bun', label: 'raw Bun.listen (ceiling)', runtime: 'bun', script: 'bench/peers/raw-bun.ts', dialect: 'ws' },
  'twinport-deno': { id: 'twinport-deno', label: 'twinport on Deno', runtime: 'deno', script: 'examples/echo.ts', dialect: 'ws' },
  'deno-serve': { id: 'deno-serve', label: 'Deno.serve', runtime: 'deno', script: 'bench/peers/deno-serve.ts', dialect: 'ws' },
  'raw-deno': { id: 'raw-deno', label: 'raw Deno.listen (ceiling)', runtime: 'deno', script: 'bench/peers/raw-deno.ts', dialect: 'ws' },
}

/** Each runtime's ceiling: the raw socket server on that runtime. */
export const CEILING: Readonly<Record<Runtime, ContenderId>> = { node: 'raw-net', bun: 'raw-bun', deno: 'raw-deno' }

/** twinport's echo server on each runtime. */
export const TWINPORT: Readonly<Record<Runtime, ContenderId>> = { node: 'twinport', bun: 'twinport-bun', deno: 'twinport-deno' }

/** Each runtime's own server (Node's is node:http with ws). */
export const NATIVE: Readonly<Record<Runtime, ContenderId>> = { node: 'ws', bun: 'bun-serve', deno: 'deno-serve' }

/** Whether a contender is twinport (on any runtime, with any flags). */
export const isTwinport = (id: ContenderId): boolean => id.startsWith('twinport')
