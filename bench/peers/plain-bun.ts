/**
 * `Bun.serve` with a plain `new Response('hello world')` on `/hello` and `new Response(Bun.file(...))`
 * on `/static/<name>`: the floor twinport-on-Bun's per-request CPU is compared with (bench/bun-http/).
 */
declare const Bun: { serve(options: { hostname: string; port: number; fetch(req: Request): Response }): unknown; file(path: string): Blob }
declare const process: { env: Record<string, string | undefined> }

const root = process.env['STATIC_ROOT'] ?? '.'
Bun.serve({
  hostname: process.env['HOST'] ?? '127.0.0.1',
  port: Number(process.env['PORT'] ?? 6001),
  fetch: (req) => {
    const path = new URL(req.url).pathname
    if (path === '/hello') return new Response('hello world', { headers: { 'content-type': 'text/plain; charset=utf-8' } })
    if (!path.startsWith('/static/') || path.includes('..')) return new Response('not found', { status: 404 })
    return new Response(Bun.file(`${root}/${path.slice(8)}`))
  },
})
