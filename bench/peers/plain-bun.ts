/**
 * `Bun.serve` answering `/hello` with a plain `new Response('hello world')` and `/static/<name>` with
 * `new Response(Bun.file(STATIC_ROOT/<name>))` (Bun's own fastest file path: no validators, Range
 * answered by Bun; a name with `..` or any other path gets 404 `not found`). The Bun floor of two
 * benches: bench/static-files.ts's `bun-file` contender, and bench/cpu-per-request.sh's per-request
 * CPU beside bench/peers/plain-twinport.ts (bench/RESULTS.md "Session 13: Bun per-request cost").
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
