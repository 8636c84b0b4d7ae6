// The chat page, an ES module: events and acknowledged requests go through twinport/client
// (`/twinport-client.js`, the bundle of lib/client/), which also reconnects with backoff,
// queues what is sent while offline and resumes the server session (rooms, missed messages).
// Everything a user typed is shown with textContent, never parsed as markup. Who you are
// and your rooms are kept in sessionStorage, so a reload resumes you within the server's
// grace period without the room seeing you leave and come back.
import { connect, RequestError, sseFallback } from '/twinport-client.js'

const $ = (id) => document.getElementById(id)
const el = (tag, className, text) => {
  const node = document.createElement(tag)
  if (className) node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

const ui = {
  status: $('status'), nameForm: $('name-form'), name: $('name'), whoami: $('whoami'),
  joinForm: $('join-form'), room: $('room'), roomList: $('room-list'), tabs: $('tabs'),
  title: $('room-title'), members: $('members'), leave: $('leave'), logs: $('logs'), online: $('online'),
  sendForm: $('send-form'), message: $('message'), offline: $('offline'),
  // Each error is shown beside what caused it: the name, the room, or the message field.
  errors: { name: $('name-error'), join: $('join-error'), send: $('error') },
}

const state = {
  name: null, token: null, active: null,
  rooms: new Map(), // room -> { log, members: string[], unread: number, seen: Set of message keys }
}

// One client for the page's life, on the page's own origin. It connects in the background;
// what is sent before it is open, or while it is away, waits in its queue. Where a proxy
// refuses WebSocket, the same client goes on over Server-Sent Events and posts to `/events`
// (and back to WebSocket once it works): nothing below notices.
const client = connect('/', { fallback: sseFallback({ path: '/events' }) })

// --- this tab's session: name, resume token, rooms --------------------------------------
const SESSION = 'twinport-chat'
const save = () => {
  const unread = Object.fromEntries([...state.rooms].map(([room, entry]) => [room, entry.unread]))
  const session = { name: state.name, token: state.token, rooms: [...state.rooms.keys()], active: state.active, unread }
  try {
    sessionStorage.setItem(SESSION, JSON.stringify(session))
  } catch {
    // Storage refused (private mode, quota): the page still works, without resuming.
  }
}
const restore = () => {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION) ?? 'null')
  } catch {
    return null
  }
}

// --- what the user sees -----------------------------------------------------------------
const setStatus = (text, kind) => {
  ui.status.textContent = text
  ui.status.dataset.state = kind
}
// `where`: 'name', 'join' or 'send' (the default); an empty text clears every error.
const showError = (text, where = 'send') => {
  for (const [place, node] of Object.entries(ui.errors)) {
    node.textContent = place === where ? text : ''
    node.hidden = place !== where || text === ''
  }
}
// Data the server's codecs refused comes back as developer text; say it for people.
const HINTS = {
  hello: 'A name is 1 to 32 characters.',
  join: 'A room name is 1 to 32 letters, digits, _ or -.',
  message: 'Type a message first (at most 500 characters).',
}
const explain = (event, reply) => (reply.error === 'invalid_payload' ? HINTS[event] : reply.message) ?? 'Something went wrong.'
const enable = (form, on) => {
  for (const control of form.elements) control.disabled = !on
}

// What a failed request means for people, by the client's `failure._tag`.
const FAILED = {
  Timeout: 'No answer from the server.',
  Closed: 'Not connected.',
  Offline: 'Not connected.',
  QueueFull: 'Not connected, and too much is waiting to be sent: try again later.',
}

// Sends a request and resolves with the ack's data, or `{ ok: false, error, message }`.
const request = (event, data, options) =>
  client.request(event, data, options).catch((error) => {
    if (!(error instanceof RequestError)) return { ok: false, error: 'unknown', message: String(error) }
    const failure = error.failure
    if (failure._tag === 'ServerError') return { ok: false, error: failure.code, message: failure.message }
    return { ok: false, error: failure._tag, message: FAILED[failure._tag] }
  })

const time = (iso) => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
}

// `unread`: the line counts as unread in a room not shown (a message from someone else that
// came live; not a notice, not your own line, not history a join brought).
const addLine = (room, node, unread) => {
  const entry = state.rooms.get(room)
  if (entry === undefined) return
  entry.log.append(node)
  if (room === state.active) {
    ui.logs.scrollTop = ui.logs.scrollHeight
  } else if (unread) {
    entry.unread += 1
    renderTabs()
    save()
  }
}

const notice = (room, text) => addLine(room, el('div', 'notice', text), false)

// A message is shown once: it may come live, again in a join's history (after a drop), or
// replayed by the session. Ids restart with the server, so the key adds the time.
const addMessage = (msg, live) => {
  const entry = state.rooms.get(msg.room)
  const key = `${msg.id}|${msg.at}`
  if (entry === undefined || entry.seen.has(key)) return
  entry.seen.add(key)
  const mine = msg.name === state.name && msg.via === 'ws'
  const line = el('div', mine ? 'msg mine' : 'msg')
  line.dataset.id = String(msg.id)
  const head = el('div', 'msg-head')
  head.append(el('span', 'msg-name', msg.name), el('time', 'msg-time', time(msg.at)))
  head.lastChild.dateTime = msg.at
  if (msg.via === 'http') head.append(el('span', 'msg-via', 'via API'))
  line.append(head, el('span', 'msg-text', msg.text))
  addLine(msg.room, line, live && !mine)
}

const renderTabs = () => {
  const buttons = [...state.rooms.entries()].map(([room, entry]) => {
    const tab = el('button')
    tab.append(el('span', 'tab-name', `#${room}`))
    tab.type = 'button'
    tab.dataset.room = room
    tab.title = `#${room}`
    tab.setAttribute('aria-current', String(room === state.active))
    if (entry.unread > 0) {
      const badge = el('span', 'unread', String(entry.unread))
      badge.setAttribute('aria-label', `${entry.unread} unread`)
      tab.append(badge)
    }
    tab.addEventListener('click', () => activate(room))
    return tab
  })
  ui.tabs.replaceChildren(...buttons)
}

const renderHead = () => {
  const entry = state.active === null ? undefined : state.rooms.get(state.active)
  ui.title.textContent = entry === undefined ? 'Not in a room' : `#${state.active}`
  ui.members.textContent = entry === undefined ? '' : `${entry.members.length} here: ${entry.members.join(', ')}`
  ui.members.title = ui.members.textContent
  ui.leave.hidden = entry === undefined
  renderOnline(entry)
  // Open or not: while the client is away, what you send waits in its queue.
  enable(ui.sendForm, entry !== undefined)
}

// The sidebar's list of who is online in the room shown (wide screens; a phone has the line).
const renderOnline = (entry) => {
  const heading = $('online-heading')
  heading.textContent = entry === undefined ? 'Online' : `Online here · ${entry.members.length}`
  if (entry === undefined) return ui.online.replaceChildren(el('li', 'hint', 'Join a room to see who is here.'))
  ui.online.replaceChildren(
    ...entry.members.map((name) => {
      const item = el('li', '', name)
      item.title = name
      if (name === state.name) item.append(el('span', 'you', '(you)'))
      return item
    }),
  )
}

const emptyText = () => (state.name === null ? 'Pick a name, then join a room or pick an open one.' : 'Join a room, or pick an open one, to start chatting.')

const activate = (room) => {
  const entry = room === null ? undefined : state.rooms.get(room)
  state.active = entry === undefined ? null : room
  if (entry === undefined) {
    ui.logs.replaceChildren(el('p', 'hint empty', emptyText()))
  } else {
    entry.unread = 0
    ui.logs.replaceChildren(entry.log)
    ui.logs.scrollTop = ui.logs.scrollHeight
  }
  renderTabs()
  renderHead()
  save()
}

const renderRoomList = (rooms) => {
  if (rooms.length === 0) return ui.roomList.replaceChildren(el('li', 'hint', 'none yet'))
  ui.roomList.replaceChildren(
    ...rooms.map(({ room, members }) => {
      const button = el('button')
      button.type = 'button'
      button.title = `join #${room}`
      button.append(el('span', 'room-name', `#${room}`), el('span', 'count', `${members} online`))
      button.addEventListener('click', () => join(room))
      const item = el('li')
      item.append(button)
      return item
    }),
  )
}

const refreshRoomList = () =>
  fetch('/api/rooms')
    .then((res) => res.json())
    .then((body) => renderRoomList(body.rooms))
    .catch(() => undefined)

// --- actions ----------------------------------------------------------------------------
const named = (reply) => {
  state.name = reply.name
  state.token = reply.token
  ui.whoami.textContent = `You are ${reply.name}.`
  ui.name.value = reply.name
  enable(ui.joinForm, true)
  if (state.active === null) ui.logs.replaceChildren(el('p', 'hint empty', emptyText()))
  save()
}

// A request sent before a drop and not answered goes again first on the next connection,
// ahead of the hello and joins that `announce` queued (the client's order, docs/client.md
// "The offline queue"). On a server that kept nothing (it restarted, or the session expired)
// it finds us nameless and in no room, and is refused: it is asked again once the announce is
// done. `since` is the `epoch` the request was made in; `again` asks it again.
let epoch = 0
// Unread counts kept over a reload, taken by the rooms as their joins are answered.
const unreadAfterReload = new Map()
let rejoining = Promise.resolve()
const afterRejoin = async (since, reply, again) => {
  if (reply.ok || since === epoch || (reply.error !== 'not_in_room' && reply.error !== 'name_required')) return reply
  await rejoining
  return again()
}

// Who is online in a room is the server's presence of it (twinport's `presence(room)`, the
// same on every server of a cluster): the join's answer lists the names, then every change
// comes as `presence:<room>`, a diff whose `joined`/`left` are names that came or went.
const byName = (a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })
const applyPresence = (names, diff) => {
  const online = new Set(names)
  for (const name of diff.left ?? []) online.delete(name)
  for (const name of diff.joined ?? []) online.add(name)
  return [...online].sort(byName)
}

// Joins out, each with the presence diffs of its room that came before its answer. The
// server answers once the join's handler has run: another member's join or leave can get in
// between, and its diff comes first; the answer's member list may be older than that diff.
const joinsOut = new Set() // { room, diffs: diff[] }

// Each room's presence diffs, listened to from before its join is sent until it is left.
const watching = new Map() // room -> stop listening
const watch = (room) => {
  if (watching.has(room)) return
  watching.set(
    room,
    client.on(`presence:${room}`, (diff) => {
      for (const out of joinsOut) if (out.room === room) out.diffs.push(diff)
      const entry = state.rooms.get(room)
      if (entry === undefined) return
      entry.members = applyPresence(entry.members, diff)
      if (room === state.active) renderHead()
    }),
  )
}
const unwatch = (room) => {
  watching.get(room)?.()
  watching.delete(room)
}

// Joins `room` (or confirms we are in it), keeps its members and shows the history not yet seen.
const enter = async (room, options) => {
  const out = { room, diffs: [] }
  joinsOut.add(out)
  watch(room)
  const reply = await request('join', { room }, options).finally(() => joinsOut.delete(out))
  if (!reply.ok) {
    if (!state.rooms.has(room)) unwatch(room)
    return reply
  }
  // Diffs the answer may predate, applied again (each is the same when applied twice).
  const members = out.diffs.reduce(applyPresence, [...reply.members].sort(byName))
  const entry = state.rooms.get(reply.room)
  if (entry !== undefined) entry.members = members
  else state.rooms.set(reply.room, { log: el('div', 'log'), members, unread: unreadAfterReload.get(reply.room) ?? 0, seen: new Set() })
  unreadAfterReload.delete(reply.room)
  // History is not unread: it is what the room said before (or what this tab saw already).
  for (const msg of reply.history) addMessage(msg, false)
  return reply
}

const join = async (room) => {
  showError('')
  const since = epoch
  const reply = await afterRejoin(since, await enter(room), () => enter(room))
  if (!reply.ok) return showError(explain('join', reply), 'join')
  activate(reply.room)
  ui.message.focus()
}

const leave = async (room) => {
  showError('')
  const reply = await request('leave', { room })
  if (!reply.ok) showError(explain('leave', reply))
  state.rooms.delete(room)
  unwatch(room)
  activate(state.rooms.keys().next().value ?? null)
}

// Who we are, told again: the same name with the resume token, then the same rooms, all
// sent at once so that they wait in the client's queue ahead of anything typed later. On a
// connection whose session was recovered they change nothing (same name, already in the
// rooms); on a fresh session (`recovered: false`: the server restarted, or the window passed)
// they bring back the name and the rooms. Within the chat's grace period this is silent;
// after it, the room sees us join again. No time-out: they wait for the connection.
const announce = (rooms, active) => {
  epoch += 1
  rejoining = reannounce(rooms, active)
  return rejoining
}
const reannounce = async (rooms, active) => {
  const hello = request('hello', { name: state.name, ...(state.token ? { resume: state.token } : {}) }, { timeout: 0 })
  const joins = rooms.map((room) => enter(room, { timeout: 0 }))
  const reply = await hello
  if (!reply.ok) {
    state.name = state.token = null
    for (const room of state.rooms.keys()) unwatch(room)
    state.rooms.clear()
    activate(null)
    ui.whoami.textContent = 'Pick a name to join rooms.'
    enable(ui.joinForm, false)
    await Promise.all(joins)
    return showError(explain('hello', reply), 'name')
  }
  named(reply)
  await Promise.all(joins)
  const want = state.active ?? active
  activate(state.rooms.has(want) ? want : (state.rooms.keys().next().value ?? null))
}

// Lines sent and not yet answered, to tell whether one reached the room before its answer was
// lost with a server: the room's broadcast of it came back to us. (Two identical lines in flight
// count one echo each; a server that died between broadcasting to the others and to us leaves
// the line sent twice, the best a restarted server with no memory allows.)
const unanswered = new Set() // { room, text, echoed }
const echo = (msg) => {
  if (msg.name !== state.name || msg.via !== 'ws') return
  for (const line of unanswered) {
    if (!line.echoed && line.room === msg.room && line.text === msg.text) return void (line.echoed = true)
  }
}

// Says `text` in `room`; resolves with the reply. Typed while the connection is away, it waits
// in the client's queue: give it a minute.
const sayLine = async (room, text) => {
  const line = { room, text: text.trim(), echoed: false }
  unanswered.add(line)
  const send = () => request('message', { room, text }, { timeout: 60000 })
  const since = epoch
  try {
    // Refused on a fresh session though it reached the room before: done. Otherwise, again.
    return await afterRejoin(since, await send(), () => (line.echoed ? { ok: true } : send()))
  } finally {
    unanswered.delete(line)
  }
}

// Notices in the log; the member line follows the room's presence (above).
for (const event of ['joined', 'left', 'renamed']) {
  client.on(event, (data) => {
    if (!state.rooms.has(data.room)) return
    notice(data.room, event === 'renamed' ? `${data.from} is now ${data.to}` : `${data.name} ${event} #${data.room}`)
  })
}
client.on('message', (msg) => {
  echo(msg)
  addMessage(msg, true)
})
client.on('rooms', (data) => renderRoomList(data.rooms))
// An error event for no request of ours (e.g. refused data sent without an id).
client.on('error', (problem) => {
  if (problem._tag === 'ServerError') showError(problem.message)
})

// --- the connection, as the client reports it ---------------------------------------------
const online = () => {
  away = false
  setStatus('connected', 'open')
  ui.offline.hidden = true
  enable(ui.joinForm, state.name !== null)
  renderHead()
  refreshRoomList()
}
// True from a drop until the next open; the start-up counts as away (see the end).
let away = true
client.on('open', online)
client.on('reconnected', online)
client.on('close', ({ reconnect }) => {
  setStatus(reconnect ? 'reconnecting…' : 'disconnected', 'closed')
  ui.offline.textContent = reconnect ? 'Connection lost, reconnecting… What you send now goes out once it is back.' : 'Disconnected. Reload the page to chat again.'
  ui.offline.hidden = false
})
client.on('reconnecting', () => {
  if (away) return
  away = true
  if (state.name !== null) void announce([...state.rooms.keys()], state.active)
})
// Leaving the page is a departure (close 1000): the server ends the session, and the chat's
// grace period lets the next page of this tab resume the name with its token.
addEventListener('pagehide', () => client.close())

// Any new input or action replaces the last error.
document.addEventListener('input', () => showError(''))

ui.nameForm.addEventListener('submit', async (e) => {
  e.preventDefault()
  showError('')
  const reply = await request('hello', { name: ui.name.value })
  if (!reply.ok) {
    ui.name.focus()
    return showError(explain('hello', reply), 'name')
  }
  named(reply)
  ui.room.focus()
})

ui.joinForm.addEventListener('submit', (e) => {
  e.preventDefault()
  void join(ui.room.value.trim()).then(() => {
    ui.room.value = ''
  })
})

ui.sendForm.addEventListener('submit', async (e) => {
  e.preventDefault()
  if (state.active === null) return
  showError('')
  // The field is free for the next line at once; a refused text comes back if it is still empty.
  const text = ui.message.value
  ui.message.value = ''
  const reply = await sayLine(state.active, text)
  if (reply.ok) return
  if (ui.message.value === '') ui.message.value = text
  showError(explain('message', reply))
})

ui.leave.addEventListener('click', () => {
  if (state.active !== null) void leave(state.active)
})

// A reload in this tab: come back as the same person, in the same rooms.
const saved = restore()
if (typeof saved?.name === 'string') {
  state.name = saved.name
  state.token = typeof saved.token === 'string' ? saved.token : null
  for (const [room, count] of Object.entries(saved.unread ?? {})) if (Number.isInteger(count) && count > 0) unreadAfterReload.set(room, count)
  const rooms = Array.isArray(saved.rooms) ? saved.rooms.filter((room) => typeof room === 'string') : []
  void announce(rooms, typeof saved.active === 'string' ? saved.active : null)
}
