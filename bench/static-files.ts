/**
 * Static files under load (issue 30): a 1 KiB and a 1 MiB file served over keep-alive to 50
 * connections by `wrk` (one thread, pinned to CPU 1), each server pinned to CPU 0 as the other
 * end-to-end runs are (bench/load/start-server.ts). Contenders: twinport's `serveStatic` on
 * Node, Bun and Deno (`bench/peers/static-twinport.ts`), `express.static`
 * (`bench/peers/static-express.ts`), `Bun.serve` with `Bun.file` (`bench/peers/static-bun.ts`),
 * `@fastify/static` only when it is installed, and nginx with one worker when
 * `/usr/sbin/nginx` exists (the ceiling). Prints a table of requests/s and MiB/s and each
 * contender's ratio to twinport on Node, and writes it to `$TMPDIR/twinport-bench/static-files.md`.
 *
 *   npx tsx bench/static-files.ts                 # 5 s per run
 *   npx tsx bench/static-files.ts --ms 1000       # a smoke run
 *   npx tsx bench/static-files.ts --contenders twinport,express
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Runtime } from './peers/contenders.js'
import { LIVE, pinned, type RunningServer, startServer } from './load/start-server.js'
import { parseWrk } from './load/wrk-output.js'

interface Contender {
  readonly id: string
  readonly start: (root: string) => Promise<RunningServer | string>
}

const NGINX = '/usr/sbin/nginx'
const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const ms = Number(arg('ms') ?? 5000)
const only = arg('contenders')?.split(',')

const twinport = (id: string, runtime: Runtime, env: Readonly<Record<string, string>> = {}): Contender => ({
  id,
  start: (root) => startServer('bench/peers/static-twinport.ts', 30_000, [], { STATIC_ROOT: root, ...env }, runtime),
})

// nginx with one worker, no access log, sendfile on: what people put in front when they want files fast.
const nginx: Contender = {
  id: 'nginx',
  start: async (root) => {
    const prefix = await mkdtemp(join(tmpdir(), 'twinport-nginx-'))
    const port = 20000 + Math.floor(Math.random() * 20000)
    const conf = `worker_processes 1; daemon off; error_log ${prefix}/error.log; pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path ${prefix}; proxy_temp_path ${prefix}; fastcgi_temp_path ${prefix}; uwsgi_temp_path ${prefix}; scgi_temp_path ${prefix};
  server { listen 127.0.0.1:${port}; location /static/ { alias ${root}/; } } }\n`
    await writeFile(join(prefix, 'nginx.conf'), conf)
    const [cmd, ...pre] = pinned(0)
    const child = spawn(cmd as string, [...pre, NGINX, '-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' })
    LIVE.add(child)
    await new Promise((r) => setTimeout(r, 500))
    return {
      pid: child.pid ?? -1,
      port,
      stop: async () => {
        child.kill('SIGTERM')
        await new Promise((r) => child.once('exit', r))
        LIVE.delete(child)
      },
    }
  },
}

const CONTENDERS: readonly Contender[] = [
  twinport('twinport', 'node'),
  { id: 'express', start: (root) => startServer('bench/peers/static-express.ts', 30_000, [], { STATIC_ROOT: root }) },
  ...(existsSync('node_modules/@fastify/static') ? [{ id: 'fastify-static', start: (root: string) => startServer('bench/peers/static-fastify.ts', 30_000, [], { STATIC_ROOT: root }) }] : []),
  twinport('twinport-bun', 'bun'),
  { id: 'bun-file', start: (root) => startServer('bench/peers/static-bun.ts', 30_000, [], { STATIC_ROOT: root }, 'bun') },
  twinport('twinport-deno', 'deno'),
  ...(existsSync(NGINX) ? [nginx] : []),
]

const FILES = [
  { name: '1k.js', size: 1024 },
  { name: '1m.js', size: 1024 * 1024 },
] as const

const wrk = (url: string, seconds: number): { rps: number; errors: number } | string => {
  const ran = spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, '--timeout', '2s', url], { encoding: 'utf8' })
  const result = parseWrk(ran.stdout ?? '')
  if (result === undefined) return `wrk failed: ${(ran.stderr || ran.stdout || '').trim().slice(0, 200)}`
  return { rps: result.requestsPerSecond, errors: result.socketErrors + result.non2xx }
}

const main = async (): Promise<void> => {
  if (spawnSync('wrk', ['--version']).error !== undefined) throw new Error('wrk is not installed (apt-get install -y wrk)')
  const root = await mkdtemp(join(tmpdir(), 'twinport-static-'))
  for (const file of FILES) await writeFile(join(root, file.name), 'x'.repeat(file.size))
  const seconds = Math.max(1, Math.round(ms / 1000))
  const rows: Array<{ id: string; file: string; rps: number; mibs: number; note: string }> = []
  try {
    for (const contender of CONTENDERS.filter((c) => only === undefined || only.includes(c.id))) {
      const server = await contender.start(root)
      if (typeof server === 'string') {
        for (const file of FILES) rows.push({ id: contender.id, file: file.name, rps: 0, mibs: 0, note: server })
        continue
      }
      try {
        for (const file of FILES) {
          const url = `http://127.0.0.1:${server.port}/static/${file.name}`
          wrk(url, 1) // warm-up
          const result = wrk(url, seconds)
          if (typeof result === 'string') rows.push({ id: contender.id, file: file.name, rps: 0, mibs: 0, note: result })
          else rows.push({ id: contender.id, file: file.name, rps: result.rps, mibs: (result.rps * file.size) / 2 ** 20, note: result.errors === 0 ? '' : `${result.errors} errors` })
        }
      } finally {
        await server.stop()
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
  const base = (file: string): number => rows.find((r) => r.id === 'twinport' && r.file === file)?.rps ?? 0
  const lines = [
    `Static files, ${seconds} s per run, wrk -t1 -c50 keep-alive, server on CPU 0 (\`npx tsx bench/static-files.ts --ms ${ms}\`):`,
    '',
    '| contender | file | requests/s | MiB/s | twinport (Node) ÷ contender | note |',
    '|---|---|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.id} | ${r.file} | ${r.rps.toFixed(0)} | ${r.mibs.toFixed(1)} | ${r.rps > 0 && base(r.file) > 0 ? (base(r.file) / r.rps).toFixed(2) : '–'} | ${r.note} |`),
  ]
  const text = lines.join('\n')
  console.log(text)
  const out = join(tmpdir(), 'twinport-bench')
  await mkdir(out, { recursive: true })
  await writeFile(join(out, 'static-files.md'), `${text}\n`)
}

await main()
