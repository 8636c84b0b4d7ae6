/**
 * A logger that throws does not stop the server: the app (spec/integration/fixtures/logger.ts) is
 * served by the runtime TWINPORT_TARGET names, and Node's `fetch` asks it.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'

// The engine guards whatever logger it is given (lib/engine/options/guard-logger.ts).
test('runServer :: a server whose logger throws keeps serving', async () => {
  const { server, url } = await serve('logger', 'broken')
  try {
    assert.is((await fetch(`${url}/boom`)).status, 500)
    assert.is(await (await fetch(`${url}/ok`)).json(), 'fine')
  } finally {
    await server.close()
  }
})

test.run()
