/**
 * `startNginx`: Debian's nginx (`/usr/sbin/nginx`) with one worker, as bench/static-files.ts's
 * ceiling: a temporary prefix with its own config (no access log, `sendfile on`,
 * `tcp_nopush on`, keep-alive without a request cap, `location /static/` aliasing the root),
 * pinned to CPU 0 like every contender, on a free 127.0.0.1 port; stopped (and its prefix
 * deleted) by `stop()`. The CPU that counts is the worker's, so `pid` is the worker's.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LIVE, pinned, type RunningServer } from '../load/start-server.js'
import { freePort, waitForPort } from '../load/ports.js'

/** Where Debian installs nginx. */
export const NGINX = '/usr/sbin/nginx'

/** The config: one worker, files from `root` at `/static/`. Pure. */
export const nginxConfig = (prefix: string, root: string, port: number): string => `worker_processes 1;
daemon off;
master_process on;
error_log ${prefix}/error.log;
pid ${prefix}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 10000000;
  default_type application/octet-stream;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server { listen 127.0.0.1:${port}; location /static/ { alias ${root}/; } }
}
`

const workerOf = (master: number): number | undefined => {
  try {
    const first = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/)[0]
    return first === undefined || first === '' ? undefined : Number(first)
  } catch {
    return undefined
  }
}

/** Starts nginx over `root`; the reason as a string when it is absent or does not come up. */
export const startNginx = async (root: string): Promise<RunningServer | string> => {
  if (!existsSync(NGINX)) return `${NGINX} is not installed (apt-get install -y nginx)`
  const prefix = await mkdtemp(join(tmpdir(), 'twinport-nginx-'))
  const port = await freePort()
  await writeFile(join(prefix, 'nginx.conf'), nginxConfig(prefix, root, port))
  const [cmd, ...pre] = pinned(0)
  const child = spawn(cmd as string, [...pre, NGINX, '-e', join(prefix, 'error.log'), '-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' })
  LIVE.add(child)
  const gone = new Promise<void>((resolve) => child.once('exit', () => {
    LIVE.delete(child)
    resolve()
  }))
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
    await gone
    clearTimeout(timer)
    await rm(prefix, { recursive: true, force: true })
  }
  if (!(await waitForPort(port, 10_000))) {
    await stop()
    return 'nginx did not accept connections within 10 s'
  }
  const worker = workerOf(child.pid ?? -1)
  return { pid: worker ?? child.pid ?? -1, port, stop }
}
