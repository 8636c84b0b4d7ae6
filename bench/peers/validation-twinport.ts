/**
 * The validation bench's twinport contender (bench/validation.ts): `POST /users` with a typed
 * JSON body, checked before the handler by the schema library `SCHEMA` names (`io-ts`, `zod`
 * or `valibot`), answering `{"ok":true,"name":…}` (422 for a body that does not fit).
 * HOST and PORT from the environment.
 */
import { httpRoute } from '../../lib/core/route/http-route.js'
import { runServer } from '../../lib/node/run-server.js'
import { IoTsUser, ValibotUser, ZodUser } from '../validation/user-body.js'

const env = process.env

const route = (): ReturnType<typeof httpRoute> => {
  switch (env['SCHEMA']) {
    case 'zod':
      return httpRoute('POST', '/users', { body: ZodUser }, (req) => ({ ok: true, name: req.input.body.name }))
    case 'valibot':
      return httpRoute('POST', '/users', { body: ValibotUser }, (req) => ({ ok: true, name: req.input.body.name }))
    default:
      return httpRoute('POST', '/users', { body: IoTsUser }, (req) => ({ ok: true, name: req.input.body.name }))
  }
}

await runServer({ host: env['HOST'] ?? '127.0.0.1', port: Number(env['PORT'] ?? 6001), routes: [route()], cors: false })
