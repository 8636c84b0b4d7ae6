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
  close(): void
}

export interface DenoApi {
  listen(options: { readonly hostname: string; readonly port: number; readonly transport?: 'tcp' }): DenoListener
  unrefTimer(id: number): void
}

/** The `Deno` global, or undefined outside Deno. */
export const denoApi = (): DenoApi | undefined => (globalThis as { Deno?: DenoApi }).Deno
