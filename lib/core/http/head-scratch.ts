/**
 * `createHeadScratch`: the record a server reads request heads with. The plain-head scan
 * (`scanPlainHead`) writes what it read into it, keeps its memos there (the last target and
 * Host value, the line memo, the interning tables, the last word view) and `readRequest`
 * says where the request ended. Reading never calls out, so one record serves every
 * connection of a server; two servers, or a core embedded elsewhere, each make their own and
 * share nothing. Every memo holds what a fresh one would compute from the same bytes, so a
 * fresh record per call gives the same answers, only slower.
 *
 * Pure and portable: no node:* imports. Imports the memos' own modules only.
 */
import { createInternTables, type InternTables } from './intern-ascii.js'
import { createLineMemo, type LineMemo } from './line-memo.js'
import type { Header } from './types.js'
import { createWordViews, type WordViews } from './word-view.js'

/** What the last `scanPlainHead` read (overwritten by the next call: read it at once). */
export interface PlainHead {
  method: string
  /** The request-target as received. */
  target: string
  /** Index of the target's first `?`, -1 when none. */
  query: number
  /** Offset of the target from the start of the head (for errors). */
  targetOffset: number
  protocol: 'HTTP/1.0' | 'HTTP/1.1'
  headers: Header[]
  /** Host field lines seen; `hostChecked`: the value of the last one is a plain valid Host. */
  hosts: number
  hostChecked: boolean
  /**
   * No field is Content-Length, Transfer-Encoding, Connection or Expect, but for a 1.1
   * request's `Connection: keep-alive` (what 1.1 does anyway: RFC 9112 §9.3).
   */
  plain: boolean
  /** Some field is named Upgrade (only then can the request ask for a WebSocket). */
  upgrade: boolean
  /** After `SCAN`: bytes searched, and the offset of the request line's LF (both from `start`). */
  searched: number
  lineEnd: number
}

/** The most bytes of a target or Host value the one-string memos compare with. */
export const MEMO = 128

/** A server's scratch for reading request heads (see the file header). */
export interface HeadScratch {
  /** What the last scan read. */
  readonly head: PlainHead
  /** Set when `readRequest` answers: the offset just after the request. */
  end: number
  /** Set when `readRequest` answers: some field is named Upgrade (only then can it be a WebSocket handshake). */
  upgrade: boolean
  // The last request-target and the last plain Host value, each with its bytes (up to `MEMO`
  // of them): a memo string and its bytes always change together.
  readonly targetBytes: Uint8Array
  targetMemo: string
  readonly hostBytes: Uint8Array
  hostMemo: string
  /** Field offsets of the head being read (`scan-plain-head.ts`). */
  readonly offsets: number[]
  readonly lines: LineMemo
  readonly intern: InternTables
  readonly words: WordViews
}

/**
 * A fresh scratch record: no memo kept yet.
 *
 * @example
 * const scratch = createHeadScratch()
 * readRequest(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), 0, DEFAULT_HTTP_LIMITS, scratch) // the request; scratch.end === 27
 */
export const createHeadScratch = (): HeadScratch => {
  const words = createWordViews()
  return {
    head: {
      method: '', target: '', query: -1, targetOffset: 0, protocol: 'HTTP/1.1', headers: [],
      hosts: 0, hostChecked: false, plain: true, upgrade: false, searched: 0, lineEnd: -1,
    },
    end: 0,
    upgrade: false,
    targetBytes: new Uint8Array(MEMO),
    targetMemo: '',
    hostBytes: new Uint8Array(MEMO),
    hostMemo: '',
    offsets: [],
    lines: createLineMemo(words),
    intern: createInternTables(words),
    words,
  }
}
