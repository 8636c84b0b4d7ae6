/**
 * `ChatMessage`, what every member of a room receives for one line of chat (over the
 * WebSocket as the `message` event, and as the body of the REST answer), and
 * `messageFactory`, which numbers and stamps them. The clock is an argument so tests
 * can fix it. No node:* imports.
 */

/** One chat line as members see it. */
// A type alias (not an interface) so a message is plainly `Json` for the REST answer.
export type ChatMessage = {
  /** Increasing per server, starting at 1. */
  readonly id: number
  readonly room: string
  /** The sender's name, as they chose it (display it as text, never as markup). */
  readonly name: string
  readonly text: string
  /** When the server accepted it, ISO 8601 UTC. */
  readonly at: string
  /** How it arrived: a WebSocket event or the REST API. */
  readonly via: 'ws' | 'http'
}

/** What a message needs besides its number and time. */
export type MessageInput = Pick<ChatMessage, 'room' | 'name' | 'text' | 'via'>

/**
 * A function that turns inputs into numbered, time-stamped messages.
 *
 * @example
 * const make = messageFactory(() => new Date(0))
 * make({ room: 'lobby', name: 'ana', text: 'hi', via: 'ws' }).id // 1
 */
export const messageFactory = (now: () => Date = () => new Date()): ((input: MessageInput) => ChatMessage) => {
  let last = 0
  return (input) => {
    last += 1
    return { id: last, room: input.room, name: input.name, text: input.text, at: now().toISOString(), via: input.via }
  }
}
