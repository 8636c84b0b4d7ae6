/**
 * The servers the harness can start: each a script run with `node --import tsx` (or
 * plain `node` for twinport's compiled build), reading HOST/PORT from the environment.
 * Pure data.
 */

/** Identifiers of the contenders, as used on the command line (`--contenders`). */
export type ContenderId = 'raw-net' | 'node-http' | 'fastify' | 'ws' | 'socketio' | 'twinport' | 'twinport-young1' | 'ws-young1' | 'twinport-plain'

/** A server to benchmark. */
export interface Contender {
  readonly id: ContenderId
  /** how RESULTS.md names it. */
  readonly label: string
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

/** Every contender; `node-http` and `ws` are the same peer server (node:http with ws attached). */
export const CONTENDERS: Readonly<Record<ContenderId, Contender>> = {
  'raw-net': { id: 'raw-net', label: 'raw node:net (ceiling)', script: 'bench/peers/raw-net.ts', dialect: 'ws' },
  'node-http': { id: 'node-http', label: 'node:http', script: 'bench/peers/node-http.ts', dialect: 'ws' },
  fastify: { id: 'fastify', label: 'fastify', script: 'bench/peers/fastify.ts', dialect: 'ws' },
  ws: { id: 'ws', label: 'ws (+bufferutil)', script: 'bench/peers/node-http.ts', dialect: 'ws' },
  socketio: { id: 'socketio', label: 'socket.io', script: 'bench/peers/socket-io.ts', dialect: 'socketio' },
  // Compiled by the harness (tsconfig.bench.json), as an application ships it: run from
  // source under tsx, every closure would also pay esbuild's keepNames helper.
  twinport: { id: 'twinport', label: 'twinport', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws' },
  'twinport-young1': {
    id: 'twinport-young1', label: 'twinport, node --max-semi-space-size=1', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws', nodeFlags: YOUNG1,
  },
  'ws-young1': { id: 'ws-young1', label: 'ws (+bufferutil), node --max-semi-space-size=1', script: 'bench/peers/node-http.ts', dialect: 'ws', nodeFlags: YOUNG1 },
  // twinport with compression off whatever the workload asks: the reference of the
  // compression workloads that compare twinport with itself.
  'twinport-plain': {
    id: 'twinport-plain', label: 'twinport, compression off', script: 'bench/.tmp/dist/examples/echo.js', dialect: 'ws', env: { DEFLATE: '0' },
  },
}
