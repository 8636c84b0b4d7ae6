/**
 * The chat page's copy of `twinport/client` and `twinport/client/fallback`
 * (`examples/chat/public/twinport-client.js`) is the bundle of `lib/client/` as it is now, holds
 * nothing from outside it but the core's two dependency-free readers, and is served.
 */
import { readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { silentLogger } from '../../../lib/index.js'
import { bundleClient, CLIENT_BUNDLE } from '../../../examples/chat/bundle-client.js'
import { startChat } from '../../../examples/chat/start-chat.js'

const bundle = suite('bundleClient')

bundle('bundleClient :: the committed file is the bundle of lib/client (run examples/chat/bundle-client.ts after a change)', async () => {
  const committed = readFileSync(CLIENT_BUNDLE, 'utf8')
  assert.ok(committed === (await bundleClient()), 'examples/chat/public/twinport-client.js is stale: run `npx tsx examples/chat/bundle-client.ts`')
})

bundle('bundleClient :: an ES module of lib/client and the core\'s dependency-free wire module and SSE reader alone, exporting connect, RequestError and sseFallback', async () => {
  const text = await bundleClient()
  const sources = [...text.matchAll(/^\/\/ (\S+\.ts)$/gm)].map((m) => m[1] as string)
  assert.ok(sources.length > 5, String(sources))
  assert.equal(
    // The envelope's wire rules are the server's own (lib/core/ws/envelope-wire.ts, no imports),
    // and so is the fallback's reader of event streams (lib/core/sse/read-sse-events.ts).
    sources.filter((s) => !s.startsWith('lib/client/') && s !== 'lib/core/ws/envelope-wire.ts' && s !== 'lib/core/sse/read-sse-events.ts'),
    [],
  )
  assert.not.match(text, /^import /m)
  assert.match(text, /export \{[^}]*\bconnect\b[^}]*\}/)
  assert.match(text, /export \{[^}]*\bRequestError\b[^}]*\}/)
  assert.match(text, /export \{[^}]*\bsseFallback\b[^}]*\}/)
})

bundle('chat routes :: GET /twinport-client.js serves the bundle as JavaScript', async () => {
  const chat = await startChat({ host: '127.0.0.1', port: 0, logger: silentLogger })
  try {
    const res = await fetch(`http://127.0.0.1:${chat.address.port}/twinport-client.js`, { signal: AbortSignal.timeout(5000) })
    assert.is(res.status, 200)
    assert.is(res.headers.get('content-type'), 'text/javascript; charset=utf-8')
    assert.is(await res.text(), readFileSync(CLIENT_BUNDLE, 'utf8'))
  } finally {
    await chat.close()
  }
})

bundle.run()
