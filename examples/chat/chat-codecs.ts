/**
 * The io-ts codecs of the chat demo: every WebSocket event and the REST body are
 * validated by one of these before a handler sees them, so handlers get typed, trimmed,
 * bounded values. Lengths are counted in UTF-16 code units (what `String.length` says),
 * which bounds memory whatever the script. Each carries the JSON Schema the demo's
 * `/openapi.json` and `/asyncapi.json` print for it. Imports io-ts and the core's
 * `describeCodec` only (no node:*).
 */
import * as t from 'io-ts'
import { describeCodec, type JsonSchema } from '../../lib/core/route/json-schema.js'

// C0/C1 controls, line and paragraph separators: a chat line is one visible line.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/**
 * A string that is trimmed, then checked: `1..max` code units, no control characters and,
 * when `pattern` is given, matching it. The decoded value is the trimmed string. `schema`
 * says what is sent (before the trimming), which JSON Schema can say only in part.
 */
const boundedText = (name: string, max: number, schema: JsonSchema, pattern?: RegExp): t.Type<string, string, unknown> => {
  const ok = (s: string): boolean => s.length >= 1 && s.length <= max && !CONTROL.test(s) && (pattern === undefined || pattern.test(s))
  const codec = new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && u === u.trim() && ok(u),
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c)
      const trimmed = u.trim()
      return ok(trimmed) ? t.success(trimmed) : t.failure(u, c)
    },
    t.identity,
  )
  return describeCodec(codec, schema)
}

// Leading and trailing white space (ECMAScript's \s, what `trim` removes) is allowed and dropped.
const text = (max: number): JsonSchema => ({
  type: 'string',
  minLength: 1,
  pattern: '\\S',
  description: `1-${max} characters once trimmed, one line (no control characters)`,
})

/** Longest room name, user name and message text, in UTF-16 code units. */
export const CHAT_LIMITS = { room: 32, name: 32, text: 500 } as const

/** A room name: 1–32 of `A-Z a-z 0-9 _ -`, so it is safe in a URL path as it is. */
export const RoomName = boundedText(
  `RoomName (1-${CHAT_LIMITS.room} of A-Z a-z 0-9 _ -)`,
  CHAT_LIMITS.room,
  { type: 'string', pattern: `^\\s*[A-Za-z0-9_-]{1,${CHAT_LIMITS.room}}\\s*$`, description: `1-${CHAT_LIMITS.room} of A-Z a-z 0-9 _ - once trimmed` },
  /^[A-Za-z0-9_-]+$/,
)

/**
 * A room name in a URL path (`POST /api/rooms/{room}/messages`): the same characters as
 * `RoomName`, taken exactly as written (a path is not trimmed: `%20lobby` is not `lobby`).
 */
export const RoomParam = describeCodec(
  new t.Type<string, string, unknown>(
    'RoomParam',
    (u): u is string => typeof u === 'string' && ROOM_IN_PATH.test(u),
    (u, c) => (typeof u === 'string' && ROOM_IN_PATH.test(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string', pattern: `^[A-Za-z0-9_-]{1,${CHAT_LIMITS.room}}$`, description: `1-${CHAT_LIMITS.room} of A-Z a-z 0-9 _ -` },
)
const ROOM_IN_PATH = new RegExp(`^[A-Za-z0-9_-]{1,${CHAT_LIMITS.room}}$`)

/** A user name: 1–32 characters after trimming, no control characters. */
export const UserName = boundedText(`UserName (1-${CHAT_LIMITS.name} characters)`, CHAT_LIMITS.name, text(CHAT_LIMITS.name))

/** A message text: 1–500 characters after trimming, one line. */
export const MessageText = boundedText(`MessageText (1-${CHAT_LIMITS.text} characters, one line)`, CHAT_LIMITS.text, text(CHAT_LIMITS.text))

/** A resume token, as `hello` answered it (see `chat-presence.ts`). */
export const ResumeToken = boundedText('ResumeToken (1-64 characters)', 64, text(64))

/**
 * `hello`: pick (or change) the user name; `resume` is the token of an earlier `hello`,
 * to come back as the same person after a reload or a lost connection. Unknown keys are dropped.
 */
// (`t.union` with undefined rather than `t.partial`, so failures name `name`, not `0.name`.)
export const HelloPayload = t.exact(t.type({ name: UserName, resume: t.union([ResumeToken, t.undefined]) }))
/** `join` and `leave`: the room. */
export const RoomPayload = t.exact(t.type({ room: RoomName }))
/** `message` over the WebSocket: the room and the text (the sender's name is known). */
export const SayPayload = t.exact(t.type({ room: RoomName, text: MessageText }))
/** `POST /api/rooms/{room}/messages`: who posts and what. */
export const PostPayload = t.exact(t.type({ name: UserName, text: MessageText }))

export type HelloPayload = t.TypeOf<typeof HelloPayload>
export type RoomPayload = t.TypeOf<typeof RoomPayload>
export type SayPayload = t.TypeOf<typeof SayPayload>
export type PostPayload = t.TypeOf<typeof PostPayload>
