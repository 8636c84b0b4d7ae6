/**
 * A free 127.0.0.1 port, and whether (or once) a port accepts connections: for the servers the
 * harness starts (start-server.ts) and for those it does not start that way
 * (bench/static/start-nginx.ts's nginx).
 */
import { connect } from 'node:net'

/** A port free now on 127.0.0.1 (the kernel's pick): the specs' helper, one definition. */
export { freePort } from '../../spec/support/redis.js'

/** Whether `port` accepts a connection now. */
export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port })
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })

/** Whether `port` accepts a connection within `timeoutMs`, tried every 100 ms. */
export const waitForPort = async (port: number, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await accepts(port)) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}
