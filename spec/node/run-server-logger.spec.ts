import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeLogger } from '../../lib/core/log/make-logger.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { startServer } from '../support/server.js'

// The engine guards whatever logger it is given (lib/engine/guard-logger.ts).
const broken = () => makeLogger(() => {
  throw new Error('sink down')
})

test('runServer :: a server whose logger throws keeps serving', async () => {
  const logger = broken()
  const { server, url } = await startServer({
    logger,
    routes: [httpRoute('GET', '/boom', () => { throw new Error('handler') }), httpRoute('GET', '/ok', () => 'fine')],
  })
  try {
    assert.is((await fetch(`${url}/boom`)).status, 500)
    assert.is(await (await fetch(`${url}/ok`)).json(), 'fine')
  } finally {
    await server.close()
  }
})

test.run()
