/**
 * `loadNativeBinding`: the native transport's addon (native/twinport.c), loaded once per
 * process, or why it cannot be: another system than Linux, no binary built for this platform,
 * or a binary that fails to load (built for another Node ABI, say). Errors are values: the
 * caller falls back to `node:net` and says why in one log line.
 *
 * The binary is looked up in `native/build/` of the package (from `lib/native/` and from
 * `dist/lib/native/`), or at `TWINPORT_NATIVE_BINARY` (the AddressSanitizer build of the
 * safety spec; a relative path is from the working directory). The addon reports a wake-up's
 * events in one `batch` call (a table of records, `NativeRecord`), then calls `turnEnd` when a
 * batch asked for it. Part of lib/native: imports
 * `node:*` and fp-ts only.
 */
import * as E from 'fp-ts/lib/Either.js'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What a record of a batch tells: its first number. A record is `RECORD_FIELDS` numbers,
 * `[kind, slot, offset, length]`; offset and length are a `DATA` record's bytes in the slab.
 */
export const NativeRecord = {
  /** A connection was accepted. */
  OPEN: 0,
  /** `length` bytes were read into the slab at `offset`; that range is never written again. */
  DATA: 1,
  /** The peer ended its side (read answered 0). */
  END: 2,
  /** The bytes queued natively were all sent. */
  DRAIN: 3,
  /** The connection is gone (reset, or both sides ended while the addon handled its sockets). */
  CLOSE: 4,
} as const

/** Numbers per record of a batch: kind, slot, offset, length. */
export const RECORD_FIELDS = 4

/** What the native side calls. */
export interface NativeEvents {
  /**
   * Everything one wake-up of the listener's epoll set found, in order: `count` records of
   * `RECORD_FIELDS` numbers in `records` (see `NativeRecord`), the `DATA` ones naming bytes in
   * `slab` (undefined when no read has happened yet). Called once per wake-up (more often only
   * when a slab fills or the table does), never from inside a call into the addon. `records` is
   * rewritten by the next call: read it now.
   */
  batch(records: Uint32Array, slab: ArrayBuffer | undefined, count: number): boolean | void
  /**
   * accept failed for want of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`):
   * the listener stops watching its socket for a while (100 ms) instead of spinning on the
   * connection left in the kernel's queue, and calls this once per back-off.
   */
  acceptFailed?(code: string): void
  /**
   * A `batch` of this wake-up answered true: called once the wake-up is done and the promise
   * jobs and nextTicks of its batches have run (binaries with `turnEnds` only).
   */
  turnEnd?(): void
}

/** A listening socket of the addon. */
export interface NativeListener {
  readonly server: unknown
  readonly port: number
}

/** The addon's functions (native/twinport.c has the contract). */
export interface NativeBinding {
  /**
   * Listens on `host`:`port`; throws an Error with a `code` (EADDRINUSE, ...) when it cannot.
   * `reusePort` sets `SO_REUSEPORT` first: every process that listens so on the port gets its
   * own accept queue, and the kernel spreads new connections over them.
   */
  listen(host: string, port: number, backlog: number, events: NativeEvents, reusePort?: boolean): NativeListener
  close(server: unknown): void
  /** Writes up to 16 chunks with one writev: answers the bytes still queued natively, or -errno. */
  write(slot: number, ...chunks: Uint8Array[]): number
  /**
   * Writes `bytes` to each of the connections `slots[0..count)` in one call (a broadcast's
   * slice), each as `write(slot, bytes)` would: sent at once when nothing is queued for it,
   * else queued behind what is. Answers how many receivers it reports in `results` (an
   * Int32Array of `2 * count` at least), as pairs `[index into slots, outcome]`: the bytes now
   * queued for it (> 0), or -errno (gone, ended, failed: the caller destroys it). A receiver
   * that took everything is not reported. Absent in binaries built before it.
   */
  writeMany?(bytes: Uint8Array, slots: Uint32Array, count: number, results: Int32Array): number
  /** Ends our side once the queue is sent: 1 when the connection closed now. */
  end(slot: number): number
  destroy(slot: number): void
  pause(slot: number): void
  resume(slot: number): void
  /** The peer's address (getpeername, read when asked), or undefined; absent in binaries built before it. */
  remoteAddress?(slot: number): string | undefined
  /** Open connections in this process. */
  openCount(): number
  /** Bytes of one connection's native record. */
  readonly connSize: number
  /** True when the binary calls `turnEnd` after a batch that answered true; absent in older ones. */
  readonly turnEnds?: boolean
}

const binaryName = `twinport-${process.platform}-${process.arch}.node`

/** Where a binary may be: the override, then `native/build/` seen from lib/native and from dist/lib/native. */
export const nativeBinaryPaths = (): readonly string[] => {
  const override = process.env.TWINPORT_NATIVE_BINARY
  if (override !== undefined && override !== '') return [resolve(override)]
  return ['../../native/build/', '../../../native/build/'].map((dir) => fileURLToPath(new URL(`${dir}${binaryName}`, import.meta.url)))
}

let loaded: E.Either<string, NativeBinding> | undefined

const load = (): E.Either<string, NativeBinding> => {
  if (process.platform !== 'linux') return E.left(`the native transport is built for Linux first; this is ${process.platform}`)
  const paths = nativeBinaryPaths()
  const path = paths.find((candidate) => existsSync(candidate))
  if (path === undefined) return E.left(`no native binary at ${paths[0] ?? binaryName} (build it with \`make -C native\`)`)
  try {
    const binding = createRequire(import.meta.url)(path) as NativeBinding
    return typeof binding.listen === 'function' ? E.right(binding) : E.left(`${path} is not twinport's native transport`)
  } catch (error) {
    return E.left(`${path} failed to load: ${(error as Error).message}`)
  }
}

/**
 * The addon, or the reason it is unavailable (the same answer for the life of the process).
 *
 * @example
 * const native = loadNativeBinding()
 * if (native._tag === 'Left') console.log(`node:net it is: ${native.left}`)
 */
export const loadNativeBinding = (): E.Either<string, NativeBinding> => (loaded ??= load())
