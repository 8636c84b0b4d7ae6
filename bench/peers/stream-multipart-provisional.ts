/**
 * PROVISIONAL: a minimal streaming `multipart/form-data` splitter for the streaming bench's
 * twinport upload server (`stream-twinport.ts`), standing in for the core's
 * `readMultipart(req, limits)` (lib/core/http/multipart/, issue 22) until it lands; then
 * `stream-twinport.ts` switches to it and this file goes. Enough for the bodies the bench
 * sends (and for browsers' and curl's): the delimiter is searched with `Buffer.indexOf` in
 * each chunk as it comes, file data is handed on as views of the chunks, and only a chunk's
 * last bytes that may start a delimiter are carried (copied) into the next. No transport
 * padding after a boundary, no `filename*`, no limits but the field size: not a parser to
 * ship. Node only (Buffer); imports nothing of twinport.
 */

/** One part, in body order. A file's `data` must be read (or is skipped) before the next part. */
export type ProvisionalPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly data: AsyncIterable<Uint8Array> }

const CRLF = Buffer.from('\r\n')
const HEAD_END = Buffer.from('\r\n\r\n')
const MAX_HEAD = 16 * 1024
const MAX_FIELD = 1024 * 1024

const view = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength))

/** The boundary of a `multipart/form-data` Content-Type, or `undefined`. */
export const boundaryOfProvisional = (contentType: string | undefined): string | undefined => {
  const m = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '')
  return m?.[1] ?? m?.[2]
}

/**
 * The parts of a multipart body read from `body` as it arrives; throws an `Error` whose
 * message starts with `multipart:` on a body it cannot read.
 */
export async function* readMultipartProvisional(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<ProvisionalPart> {
  const it = body[Symbol.asyncIterator]()
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  // The body is read as if a CRLF came first, so the first boundary is found like the others.
  let cur: Buffer = CRLF
  const pull = async (): Promise<Buffer> => {
    const next = await it.next()
    if (next.done === true) throw new Error('multipart: body ended before the close delimiter')
    return view(next.value)
  }
  // How many of `buf`'s last bytes are a proper start of the delimiter (these are carried).
  const partialAtEnd = (buf: Buffer): number => {
    for (let keep = Math.min(buf.length, delimiter.length - 1); keep > 0; keep--) {
      if (buf[buf.length - keep] === 0x0d && buf.subarray(buf.length - keep).equals(delimiter.subarray(0, keep))) return keep
    }
    return 0
  }
  // Data up to the next delimiter, as views; `cur` is then what follows the delimiter.
  async function* untilDelimiter(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const at = cur.indexOf(delimiter)
      if (at >= 0) {
        if (at > 0) yield cur.subarray(0, at)
        cur = cur.subarray(at + delimiter.length)
        return
      }
      const keep = partialAtEnd(cur)
      if (cur.length > keep) yield cur.subarray(0, cur.length - keep)
      const tail = keep > 0 ? Buffer.from(cur.subarray(cur.length - keep)) : undefined
      const next = await pull()
      cur = tail === undefined ? next : Buffer.concat([tail, next])
    }
  }
  // Skips the preamble.
  for await (const _ of untilDelimiter()) void _
  for (;;) {
    while (cur.length < 2) cur = Buffer.concat([cur, await pull()])
    if (cur[0] === 0x2d && cur[1] === 0x2d) return // close delimiter: the epilogue is ignored
    let end = cur.indexOf(HEAD_END)
    while (end < 0) {
      if (cur.length > MAX_HEAD) throw new Error('multipart: part header too large')
      cur = Buffer.concat([cur, await pull()])
      end = cur.indexOf(HEAD_END)
    }
    if (cur[0] !== 0x0d || cur[1] !== 0x0a) throw new Error('multipart: no line end after the boundary')
    const head = cur.subarray(2, end).toString('latin1')
    cur = cur.subarray(end + HEAD_END.length)
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? ''
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1]
    if (name === undefined) throw new Error('multipart: a part without a form-data name')
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1]
    if (filename === undefined) {
      const pieces: Buffer[] = []
      let size = 0
      for await (const piece of untilDelimiter()) {
        size += piece.length
        if (size > MAX_FIELD) throw new Error('multipart: field too large')
        pieces.push(Buffer.from(piece))
      }
      yield { kind: 'field', name, value: Buffer.concat(pieces).toString('utf8') }
    } else {
      const data = untilDelimiter()
      yield { kind: 'file', name, filename, data }
      // What the consumer left unread is skipped.
      for await (const _ of data) void _
    }
  }
}
