/**
 * `npm start`: the chat demo on HOST/PORT (defaults `0.0.0.0` and `6001`). `CHAT_ORIGINS`
 * (comma-separated) lists other sites' origins trusted to use it; `DEBUG=1` logs more;
 * `TLS_KEY` and `TLS_CERT` (PEM files) serve it over `https://` and `wss://`, and SIGHUP then
 * reloads the certificate. `REDIS_URL` joins the other chat processes using that Redis
 * (twinport/redis; without it nothing of Redis is loaded). SIGINT/SIGTERM close it
 * gracefully (WebSocket clients get 1001, HTTP answers finish), logging the start and the
 * end of the drain.
 */
import { reloadTlsOnHangup, tlsFromEnv } from '../tls-from-env.js'
import { shutDown } from './shut-down.js'
import { startChat } from './start-chat.js'

const origins = (process.env.CHAT_ORIGINS ?? '')
  .split(',')
  .map((o) => o.trim())
  .filter((o) => o !== '')

const tls = tlsFromEnv()
const chat = await startChat({
  host: process.env.HOST ?? '0.0.0.0',
  port: Number(process.env.PORT ?? 6001),
  origins,
  debug: process.env.DEBUG === '1',
  ...(tls === undefined ? {} : { tls }),
  ...(process.env.REDIS_URL === undefined || process.env.REDIS_URL === ''
    ? {}
    : { cluster: (await import('../../lib/redis/index.js')).redisAdapter({ url: process.env.REDIS_URL }) }),
})
chat.logger.info('chat demo: open {scheme}://{host}:{port}/ in a browser', {
  scheme: tls === undefined ? 'http' : 'https',
  host: chat.address.host === '0.0.0.0' ? 'localhost' : chat.address.host,
  port: chat.address.port,
})
const stopReloading = tls === undefined ? () => undefined : reloadTlsOnHangup(chat)

const stop = (signal: NodeJS.Signals): void => {
  stopReloading()
  void shutDown(chat, signal).then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
