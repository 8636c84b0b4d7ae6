/**
 * The part of Deno's documented network API (`Deno.listen`, `Deno.Conn`) the adapter uses,
 * typed here so the project needs no Deno type package.
 */

export interface DenoConn {
  read(into: Uint8Array): Promise<number | null>
  /** Writes some of `data`; answers how many bytes were written. */
  write(data: Uint8Array): Promise<number>
  /** Half-close: sends FIN. */
  closeWrite(): Promise<void>
  close(): void
  setNoDelay?(enabled?: boolean): void
  /** The peer's address (TCP: `hostname` is its IP address). */
  readonly remoteAddr?: { readonly hostname?: string }
}

export interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: { readonly hostname: string; readonly port: number }
  /** The next connection; rejects when the listener is closed, or when the accept failed (EMFILE). */
  accept(): Promise<DenoConn>
  close(): void
}

export interface DenoApi {
  listen(options: { readonly hostname: string; readonly port: number; readonly transport?: 'tcp' }): DenoListener
  unrefTimer(id: number): void
  /** Whether a permission is granted, asked without prompting. */
  readonly permissions?: { querySync?(descriptor: { readonly name: 'read'; readonly path: string }): { readonly state: string } }
}

/** The `Deno` global, or undefined outside Deno. */
export const denoApi = (): DenoApi | undefined => (globalThis as { Deno?: DenoApi }).Deno
