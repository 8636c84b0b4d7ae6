/**
 * twinport attached to an existing Express app (DESIGN §8): Express keeps its own routes
 * (`GET /legacy` answers `text/plain` `legacy`), and twinport serves the echo app's routes
 * (`examples/echo-routes.ts`: `GET /hello`, `POST /echo`, `GET /stream`, `POST /upload`) and
 * its WebSocket echo (and the `/bcast` room) on the same port.
 *
 * Run: `npm run example:attach` (HOST and PORT from the environment, default 0.0.0.0:6001).
 */
import express from 'express'
import { attach } from '../lib/index.js'
import { echoOptions, echoRoutes } from './echo-routes.js'

const app = express()
app.get('/legacy', (_req, res) => void res.type('text/plain').send('legacy'))

const host = process.env.HOST ?? '0.0.0.0'
const port = Number(process.env.PORT ?? 6001)
const server = app.listen(port, host, () => {
  const bound = server.address()
  console.log(`express with twinport attached, listening on ${host}:${typeof bound === 'object' && bound !== null ? bound.port : port}`)
})
// twinport answers its routes and every WebSocket upgrade; Express answers the rest.
const twin = attach(server, { routes: echoRoutes, ...echoOptions, http: true })

const stop = (): void => {
  void twin.close().then(() => server.close(() => process.exit(0)))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
