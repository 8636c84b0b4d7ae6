/**
 * Writes the seed inputs of each harness into fuzz/corpus/<name>/ (named seed-<n>), taken
 * from the spec fixtures' cases. Run once when a harness is added (`node --import tsx
 * fuzz/seed.ts [name]`); `npm run fuzz -- --minimise` then folds them into a minimal corpus.
 * Node only.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { type ClusterMessage, UNSEQUENCED } from '../lib/core/cluster/cluster-message.js'
import { encodeClusterMessage } from '../lib/core/cluster/encode-cluster-message.js'
import { FUZZ_DIR } from './harness-names.js'

const b = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const hex = (h: string): Uint8Array => Uint8Array.from(h.replace(/\s+/g, '').match(/../g) ?? [], (x) => parseInt(x, 16))

// The cluster codec's seeds are encoded messages of each kind (spec/core/cluster's cases).
const CLUSTER: readonly ClusterMessage[] = [
  { _tag: 'Broadcast', origin: 'n1', seq: UNSEQUENCED, room: 'lobby', frame: Uint8Array.of(0x81, 0x02, 0x68, 0x69) },
  { _tag: 'Broadcast', origin: 'n2', seq: { epoch: 3, n: 9 }, namespace: '/chat', envelope: true, frame: Uint8Array.of(0x81, 0x00) },
  { _tag: 'Direct', origin: 'n1', seq: UNSEQUENCED, node: 'n2', clientId: 42, frame: Uint8Array.of(0x82, 0x01, 0xff) },
  { _tag: 'Request', origin: 'n1', seq: UNSEQUENCED, requestId: 7, node: 'n3', body: '{"q":1}' },
  { _tag: 'Reply', origin: 'n3', seq: UNSEQUENCED, requestId: 7, node: 'n1', body: '"ok"' },
] as unknown as readonly ClusterMessage[]

const SEEDS: Record<string, readonly Uint8Array[]> = {
  'cluster-message': CLUSTER.map((m) => E.getOrElse((): Uint8Array => new Uint8Array(0))(encodeClusterMessage(m))),
  'http-request': [
    b('GET / HTTP/1.1\r\nHost: a\r\n\r\n'),
    b('GET /a?b=1&c=%20 HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\nGET'),
    b('POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello'),
    b('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: v\r\n\r\n'),
    b('\r\nGET / HTTP/1.0\r\n\r\n'),
    b('GET / HTTP/1.1\r\nHost: [::1]:6001\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nExpect: 100-continue\r\n\r\n'),
    b('GET http://h.example/p HTTP/1.1\r\nHost: h.example\r\nContent-Length: 1, 1\r\n\r\nx'),
    b('OPTIONS * HTTP/1.1\r\nHost: a\r\nX: \t v \t\r\n folded\r\n\r\n'),
  ],
  'http-text': [
    b('example.com:8080'), b('[::1]:6001'), b('[v1.fe:x]'), b('192.168.0.1'), b('a%20b'), b('[::ffff:1.2.3.4]'),
    b('tag=x&tag=y&q=a+b'), b('a=%E2%82%AC&b&&c=%zz&__proto__=1'), b('%f0%9f%98%80+%'), b('Accept:a\naccept: b\nX:y'),
  ],
  'ws-frame': [
    hex('81 85 37 fa 21 3d 7f 9f 4d 51 58'), hex('01 03 48 65 6c 80 02 6c 6f'), hex('89 05 48 65 6c 6c 6f'),
    hex('82 fe 00 80 00 00 00 00') , hex('88 82 12 34 56 78 11 dc'), hex('c1 80 00 00 00 00'), hex('82 ff 00 00 00 00 00 01 00 00'),
    hex('81 83 00 00 00 00 ce bb 41'),
  ],
  chunked: [
    b('3\r\nabc\r\n0\r\n\r\n'),
    b('3;x=y\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nT: v\r\nU:w\r\n\r\nGET'),
    b('A ; name="v"\r\n0123456789\r\n00\r\n\r\n'),
    b('0\r\n\r\n'),
    b('ffffffffffffffff\r\n'),
  ],
}

const only = process.argv[2]
for (const [name, inputs] of Object.entries(SEEDS)) {
  if (only !== undefined && name !== only) continue
  const dir = join(FUZZ_DIR, 'corpus', name)
  mkdirSync(dir, { recursive: true })
  inputs.forEach((input, i) => writeFileSync(join(dir, `seed-${i}`), input))
  console.log(`${name}: ${inputs.length} seeds`)
}
