/**
 * `startChat`: the chat demo as a running server (see `chat-server-options.ts` for what it
 * is made of and its origin rules). `server.ts` calls it for `npm start`; tests call it on
 * port 0 in-process.
 */
import type { ServerHandle } from '../../lib/index.js'
import { runServer } from '../run-anywhere.js'
import { type ChatOptions, chatServerOptions } from './chat-server-options.js'

export type { ChatOptions } from './chat-server-options.js'

/**
 * Starts the chat and answers the running server.
 *
 * @example
 * const chat = await startChat({ host: '127.0.0.1', port: 0 })
 * console.log(`http://127.0.0.1:${chat.address.port}/`)
 * await chat.close()
 */
export const startChat = (options: ChatOptions = {}): Promise<ServerHandle> => runServer(chatServerOptions(options))
