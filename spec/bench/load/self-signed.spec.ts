import { X509Certificate } from 'node:crypto'
import { existsSync } from 'node:fs'
import { get } from 'node:https'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeSelfSigned } from '../../../bench/load/self-signed.js'
import { startServer } from '../../../bench/load/start-server.js'

test('makeSelfSigned :: a certificate for 127.0.0.1 and its key, in a directory remove() deletes', () => {
  const tls = makeSelfSigned()
  try {
    const cert = new X509Certificate(tls.cert)
    assert.is(cert.subjectAltName, 'IP Address:127.0.0.1')
    assert.ok(cert.checkIP('127.0.0.1') === '127.0.0.1')
    assert.ok(existsSync(tls.keyPath) && existsSync(tls.certPath))
  } finally {
    tls.remove()
  }
  assert.not.ok(existsSync(tls.certPath))
})

test('startServer :: env reaches the server: the node:http peer given TLS_KEY/TLS_CERT serves https', async () => {
  const tls = makeSelfSigned()
  const server = await startServer('bench/peers/node-http.ts', 20_000, [], { TLS_KEY: tls.keyPath, TLS_CERT: tls.certPath })
  try {
    if (typeof server === 'string') throw new Error(server)
    const answer = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port: server.port, path: '/hello', ca: tls.cert, agent: false }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve(`${res.statusCode} ${body}`))
      }).on('error', reject)
    })
    assert.is(answer, '200 {"hello":"world"}')
  } finally {
    if (typeof server !== 'string') await server.stop()
    tls.remove()
  }
})

test.run()
