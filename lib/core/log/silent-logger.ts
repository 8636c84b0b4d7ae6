/** `silentLogger`: a Logger that drops everything, for tests and embedding. Pure and portable. */
import type { Logger } from './logger.js'
import { makeLogger } from './make-logger.js'

/** Drops every entry. */
export const silentLogger: Logger = makeLogger(() => undefined, 'emergency')
