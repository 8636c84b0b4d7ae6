/**
 * `tlsFromEnv` and `reloadTlsOnHangup` (examples/tls-from-env.ts) in process: which
 * environment turns TLS on, what a half-set or unreadable one says, and a SIGHUP that
 * reloads the certificate of a running server (or logs why it did not).
 */
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reloadTlsOnHangup, tlsFromEnv } from '../../examples/tls-from-env.js'
import { eventually, startServer } from '../support/server.js'
import { type Issued, makeTestCa, type TestCa } from '../support/test-certificates.js'
import { secureConnect } from '../support/tls-clients.js'

interface Ctx {
  ca: TestCa
  first: Issued
  second: Issued
}

const FromEnv = suite<Ctx>('examples/tls-from-env', {} as Ctx)

FromEnv.before((ctx) => {
  ctx.ca = makeTestCa()
  ctx.first = ctx.ca.issue('env-1')
  ctx.second = ctx.ca.issue('env-2')
})

FromEnv.after((ctx) => ctx.ca.remove())

FromEnv('tlsFromEnv :: neither set: plain HTTP; both set: the files, as read', ({ first }) => {
  assert.is(tlsFromEnv({}), undefined)
  assert.is(tlsFromEnv({ TLS_KEY: ' ', TLS_CERT: '' }), undefined)
  const tls = tlsFromEnv({ TLS_KEY: first.keyPath, TLS_CERT: first.certPath })
  assert.is(Buffer.from(tls?.key as Uint8Array).toString(), first.key)
  assert.is(Buffer.from(tls?.cert as Uint8Array).toString(), first.cert)
})

FromEnv('tlsFromEnv :: one of the two, or a file that cannot be read, is an error saying which', ({ first }) => {
  assert.throws(() => tlsFromEnv({ TLS_CERT: first.certPath }), /TLS needs both TLS_KEY and TLS_CERT \(files in PEM\); TLS_KEY is not set/)
  assert.throws(() => tlsFromEnv({ TLS_KEY: first.keyPath }), /TLS_CERT is not set/)
  assert.throws(() => tlsFromEnv({ TLS_KEY: '/nonexistent/key.pem', TLS_CERT: first.certPath }), /^TLS_KEY=\/nonexistent\/key\.pem: cannot read it \(ENOENT/)
})

FromEnv('reloadTlsOnHangup :: SIGHUP serves the files as they are now; a bad state is a warning and changes nothing', async (ctx) => {
  const keyPath = join(ctx.ca.dir, 'hup.key')
  const certPath = join(ctx.ca.dir, 'hup.pem')
  copyFileSync(ctx.first.keyPath, keyPath)
  copyFileSync(ctx.first.certPath, certPath)
  const env: Record<string, string | undefined> = { TLS_KEY: keyPath, TLS_CERT: certPath }
  const { server, port, records } = await startServer({ tls: tlsFromEnv(env) })
  const stop = reloadTlsOnHangup(server, env)
  try {
    copyFileSync(ctx.second.keyPath, keyPath)
    copyFileSync(ctx.second.certPath, certPath)
    process.emit('SIGHUP', 'SIGHUP')
    await eventually(() => records.some((r) => r.message.startsWith('SIGHUP: new connections')), 2000, 'the reload')
    assert.is((await secureConnect(port, ctx.ca.ca)).servedName, 'env-2')

    copyFileSync(ctx.first.keyPath, keyPath) // the key no longer matches the certificate
    process.emit('SIGHUP', 'SIGHUP')
    await eventually(() => records.some((r) => r.level === 'warning'), 2000, 'the warning')
    assert.match(records.find((r) => r.level === 'warning')?.context.error as string, /does not belong to tls\.key/)
    delete env.TLS_KEY
    delete env.TLS_CERT
    process.emit('SIGHUP', 'SIGHUP')
    await eventually(() => records.filter((r) => r.level === 'warning').length === 2, 2000, 'the second warning')
    assert.match(records.filter((r) => r.level === 'warning')[1]?.context.error as string, /no longer set/)
    assert.is((await secureConnect(port, ctx.ca.ca)).servedName, 'env-2')
  } finally {
    stop()
    await server.close()
  }
  assert.is(process.listenerCount('SIGHUP'), 0)
})

FromEnv.run()
