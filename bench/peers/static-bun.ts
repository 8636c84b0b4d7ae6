/**
 * `Bun.serve` answering `/static/<name>` with `new Response(Bun.file(...))` (bench/static-files.ts's
 * Bun peer: the runtime's own fastest path, with no validators or safety checks of its own).
 */
declare const Bun: { serve(options: { hostname: string; port: number; fetch(req: Request): Response }): unknown; file(path: string): Blob }
declare const process: { env: Record<string, string | undefined> }

const root = process.env['STATIC_ROOT'] ?? '.'
Bun.serve({
  hostname: process.env['HOST'] ?? '127.0.0.1',
  port: Number(process.env['PORT'] ?? 6001),
  fetch: (req) => {
    const path = new URL(req.url).pathname
    if (!path.startsWith('/static/') || path.includes('..')) return new Response('not found', { status: 404 })
    return new Response(Bun.file(`${root}/${path.slice(8)}`))
  },
})
