/**
 * Issue 24's `toFetch` bench: twinport's `toFetch` against Hono's own router answering the
 * same JSON route (`GET /hello`), each as a fetch handler under the same host in the same run
 * (bench/embed/fetch-server.ts): `@hono/node-server` on Node, `Bun.serve` on Bun, `Deno.serve`
 * on Deno. Keep-alive load from `wrk -t1 -c50` on loopback; rounds alternate the order of the
 * contenders; figures are medians, ratios twinport/Hono per host. Bounded: wrk runs for the
 * window, every server is killed after its run. Needs `wrk` (Debian package).
 *
 *   node --import tsx bench/embed-fetch.ts [--rounds 2] [--seconds 3] [--hosts node,bun,deno]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'

const at = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROUNDS = Number(at('rounds') ?? 2)
const SECONDS = Number(at('seconds') ?? 3)
const HOSTS = (at('hosts') ?? 'node,bun,deno').split(',') as Host[]
const CONTENDERS = ['twinport', 'hono'] as const
type Contender = (typeof CONTENDERS)[number]
type Host = 'node' | 'bun' | 'deno'

const SCRIPT = 'bench/embed/fetch-server.ts'
const commands: Record<Host, (which: Contender) => readonly string[]> = {
  node: (which) => [process.execPath, '--import', 'tsx', SCRIPT, which],
  bun: (which) => ['node_modules/bun/bin/bun.exe', SCRIPT, which],
  deno: (which) => ['node_modules/deno/deno', 'run', '-A', '--sloppy-imports', '--node-modules-dir=manual', SCRIPT, which],
}

const start = (host: Host, which: Contender): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    const [command, ...args] = commands[host](which)
    const child = spawn(command!, args, { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] })
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${host} ${which} did not start in 60 s`))), 60_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = /PORT (\d+)/.exec(chunk.toString())?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve({ child, port: Number(port) })
    })
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${host} ${which} exited with ${code}`))))
  })

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })

const wrk = (port: number, seconds: number): Promise<number> =>
  new Promise((resolve, reject) =>
    execFile('wrk', ['-t1', '-c50', `-d${seconds}s`, `http://127.0.0.1:${port}/hello`], { timeout: (seconds + 20) * 1000 }, (error, stdout) => {
      if (error !== null) return reject(error)
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]
      if (/Non-2xx/.test(stdout) || rate === undefined) return reject(new Error(`wrk: ${stdout}`))
      resolve(Number(rate))
    }),
  )

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const rates = new Map<string, number[]>()
const failed = new Map<Host, string>()
for (const host of HOSTS) {
  for (let round = 0; round < ROUNDS && !failed.has(host); round++) {
    for (const which of round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse()) {
      let server: { child: ChildProcess; port: number } | undefined
      try {
        server = await start(host, which)
        const check = await fetch(`http://127.0.0.1:${server.port}/hello`)
        if ((await check.text()) !== '{"hello":"world"}') throw new Error(`${host} ${which}: unexpected answer`)
        await wrk(server.port, 1) // warm-up
        const rate = await wrk(server.port, SECONDS)
        rates.set(`${host} ${which}`, [...(rates.get(`${host} ${which}`) ?? []), rate])
        console.error(`round ${round + 1} ${host} ${which}: ${Math.round(rate)} req/s`)
      } catch (error) {
        failed.set(host, String(error))
        console.error(`${host}: not measured: ${String(error)}`)
        break
      } finally {
        if (server !== undefined) await stop(server.child)
      }
    }
  }
}

console.log('| host | twinport `toFetch` (req/s) | Hono `app.fetch` (req/s) | ratio twinport / Hono |')
console.log('|---|---|---|---|')
for (const host of HOSTS) {
  const t = rates.get(`${host} twinport`)
  const h = rates.get(`${host} hono`)
  if (failed.has(host) || t === undefined || h === undefined) console.log(`| ${host} | not measured: ${failed.get(host) ?? 'no figures'} | | |`)
  else console.log(`| ${host} | ${Math.round(median(t)).toLocaleString('en')} | ${Math.round(median(h)).toLocaleString('en')} | **${(median(t) / median(h)).toFixed(2)}×** |`)
}
