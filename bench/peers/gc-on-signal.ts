/**
 * For the streaming bench's peer servers (`stream-*.ts`): on `SIGUSR2`, a full garbage
 * collection, when the server was started with `node --expose-gc` (the harness does, for
 * every contender alike). The harness sends it after the warm-up, so each server's RSS
 * baseline is taken in a settled heap, not wherever GC timing left it
 * (`bench/streaming/settle-rss.ts`). Without `--expose-gc` the signal is ignored (Node's
 * default for SIGUSR2 would end the process). Node only; imports nothing of twinport.
 */

const gc = (globalThis as { gc?: () => void }).gc

/** Installs the handler; idempotent. */
export const gcOnSignal = (): void => {
  if (process.listenerCount('SIGUSR2') > 0) return
  process.on('SIGUSR2', () => gc?.())
}
