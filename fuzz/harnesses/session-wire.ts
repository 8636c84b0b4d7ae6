/**
 * Harness `session-wire`: the session wire's upgrade query (`readSessionQuery`). On any query
 * it answers a session request or `undefined` (no opt-in), never a throw; a request holds only
 * well-formed values (an id of 1-64 URL-safe characters, a safe non-negative last number, a
 * batch limit of at least 64); a request written back as a query reads back the same; opting
 * in is exactly `tp_v=1` in the query.
 */
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { readSessionQuery } from '../../lib/core/ws/session-wire.js'
import { expect, latin1, plainBytes, same, utf8 } from '../support/contract.js'

const checkQuery = (raw: string): void => {
  const request = readSessionQuery(raw)
  expect((request !== undefined) === (parseQuery(raw)['tp_v'] === '1'), 'opted in exactly with tp_v=1')
  if (request === undefined) return
  const { resume, batch } = request
  if (resume !== undefined) {
    expect(/^[A-Za-z0-9_-]{1,64}$/.test(resume.sid), 'sid')
    expect(Number.isSafeInteger(resume.lastSeq) && resume.lastSeq >= 0, 'lastSeq')
  }
  expect(batch === undefined || (Number.isSafeInteger(batch) && batch >= 64), 'batch')
  const written = ['tp_v=1', ...(resume === undefined ? [] : [`tp_sid=${resume.sid}`, `tp_last=${resume.lastSeq}`]), ...(batch === undefined ? [] : [`tp_b=${batch}`])].join('&')
  same(readSessionQuery(written), request, 'readSessionQuery(write(request))')
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  checkQuery(latin1(data))
  checkQuery(utf8(data))
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
