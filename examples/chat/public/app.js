// The chat page: one WebSocket to the same origin, events as {"event","data","id"} JSON.
// Everything a user typed is shown with textContent, never parsed as markup. Who you are
// and your rooms are kept in sessionStorage, so a reload (or a lost connection) resumes you
// within the server's grace period without the room seeing you leave and come back.
'use strict'
;(() => {
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
    title: $('room-title'), members: $('members'), leave: $('leave'), logs: $('logs'),
    sendForm: $('send-form'), message: $('message'), error: $('error'),
  }

  const state = {
    ws: null, name: null, token: null, active: null, nextId: 1, retry: 500,
    pending: new Map(), // ack id -> { resolve, timer }
    rooms: new Map(), // room -> { log, members: string[], unread: number }
  }

  // --- this tab's session: name, resume token, rooms --------------------------------------
  const SESSION = 'twinport-chat'
  const save = () => {
    const session = { name: state.name, token: state.token, rooms: [...state.rooms.keys()], active: state.active }
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
  const showError = (text) => {
    ui.error.textContent = text
    ui.error.hidden = text === ''
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

  // Sends an event with an id and resolves with the ack's data, or `{ ok: false, error, message }`.
  const request = (event, data) =>
    new Promise((resolve) => {
      const ws = state.ws
      if (ws === null || ws.readyState !== WebSocket.OPEN) return resolve({ ok: false, message: 'Not connected.' })
      const id = state.nextId++
      const timer = setTimeout(() => {
        state.pending.delete(id)
        resolve({ ok: false, message: 'No answer from the server.' })
      }, 10000)
      state.pending.set(id, { resolve, timer })
      ws.send(JSON.stringify({ event, data, id }))
    })
  const answer = (id, data) => {
    const waiting = state.pending.get(id)
    if (waiting === undefined) return false
    state.pending.delete(id)
    clearTimeout(waiting.timer)
    waiting.resolve(data)
    return true
  }

  const time = (iso) => {
    const d = new Date(iso)
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  }

  const addLine = (room, node) => {
    const entry = state.rooms.get(room)
    if (entry === undefined) return
    entry.log.append(node)
    if (room !== state.active) {
      entry.unread += 1
      renderTabs()
    } else {
      ui.logs.scrollTop = ui.logs.scrollHeight
    }
  }

  const notice = (room, text) => addLine(room, el('div', 'notice', text))

  const addMessage = (msg) => {
    const line = el('div', msg.name === state.name && msg.via === 'ws' ? 'msg mine' : 'msg')
    line.dataset.id = String(msg.id)
    line.append(el('span', 'msg-name', msg.name), el('span', 'msg-text', msg.text), el('span', 'msg-time', time(msg.at)))
    if (msg.via === 'http') line.append(el('span', 'msg-via', 'via API'))
    addLine(msg.room, line)
  }

  const renderTabs = () => {
    const buttons = [...state.rooms.entries()].map(([room, entry]) => {
      const tab = el('button', '', `#${room}`)
      tab.type = 'button'
      tab.dataset.room = room
      tab.setAttribute('aria-current', String(room === state.active))
      if (entry.unread > 0) tab.append(el('span', 'unread', String(entry.unread)))
      tab.addEventListener('click', () => activate(room))
      return tab
    })
    ui.tabs.replaceChildren(...buttons)
  }

  const renderHead = () => {
    const entry = state.active === null ? undefined : state.rooms.get(state.active)
    ui.title.textContent = entry === undefined ? 'Not in a room' : `#${state.active}`
    ui.members.textContent = entry === undefined ? '' : `${entry.members.length} here: ${entry.members.join(', ')}`
    ui.leave.hidden = entry === undefined
    enable(ui.sendForm, entry !== undefined && state.ws !== null)
  }

  const activate = (room) => {
    const entry = room === null ? undefined : state.rooms.get(room)
    state.active = entry === undefined ? null : room
    if (entry === undefined) {
      ui.logs.replaceChildren(el('p', 'hint empty', 'Join a room to start chatting.'))
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
        button.append(el('span', '', `#${room}`), el('span', 'count', String(members)))
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
    save()
  }

  // Joins `room` (or confirms we are in it) and keeps its members; history only for a new tab.
  const enter = async (room) => {
    const reply = await request('join', { room })
    if (!reply.ok) return reply
    const entry = state.rooms.get(reply.room)
    if (entry !== undefined) entry.members = reply.members
    else {
      state.rooms.set(reply.room, { log: el('div', 'log'), members: reply.members, unread: 0 })
      for (const msg of reply.history) addMessage(msg)
    }
    return reply
  }

  const join = async (room) => {
    showError('')
    const reply = await enter(room)
    if (!reply.ok) return showError(explain('join', reply))
    activate(reply.room)
    ui.message.focus()
  }

  const leave = async (room) => {
    showError('')
    const reply = await request('leave', { room })
    if (!reply.ok) showError(explain('leave', reply))
    state.rooms.delete(room)
    activate(state.rooms.keys().next().value ?? null)
  }

  // On a new connection: the same name with the resume token, then the same rooms. Within
  // the server's grace period this is silent; after it, the room sees us join again.
  const resume = async (rooms, active) => {
    const reply = await request('hello', { name: state.name, ...(state.token ? { resume: state.token } : {}) })
    if (!reply.ok) {
      state.name = state.token = null
      state.rooms.clear()
      activate(null)
      ui.whoami.textContent = 'Pick a name to join rooms.'
      return showError(explain('hello', reply))
    }
    named(reply)
    for (const room of rooms) await enter(room)
    activate(state.rooms.has(active) ? active : (state.rooms.keys().next().value ?? null))
  }

  // How each notice changes a room's member line.
  const MEMBERS = {
    joined: (names, { name }) => [...names.filter((n) => n !== name), name],
    left: (names, { name }) => names.filter((n) => n !== name),
    renamed: (names, { from, to }) => names.map((n) => (n === from ? to : n)),
  }

  const onEvent = ({ event, data, id }) => {
    switch (event) {
      case 'ack':
        return void answer(id, data)
      case 'error':
        if (id !== undefined && answer(id, { ok: false, error: data.error, message: data.message })) return
        return showError(data.message)
      case 'message':
        return addMessage(data)
      case 'joined':
      case 'left':
      case 'renamed': {
        const entry = state.rooms.get(data.room)
        if (entry === undefined) return
        entry.members = MEMBERS[event](entry.members, data)
        notice(data.room, event === 'renamed' ? `${data.from} is now ${data.to}` : `${data.name} ${event} #${data.room}`)
        if (data.room === state.active) renderHead()
        return
      }
      case 'rooms':
        return renderRoomList(data.rooms)
    }
  }

  const connect = () => {
    setStatus('connecting…', 'connecting')
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`)
    ws.addEventListener('open', async () => {
      state.ws = ws
      state.retry = 500
      if (state.name !== null) await resume([...new Set([...state.rooms.keys(), ...rejoin.rooms])], state.active ?? rejoin.active)
      rejoin = { rooms: [], active: null }
      setStatus('connected', 'open')
      enable(ui.joinForm, state.name !== null)
      renderHead()
      refreshRoomList()
    })
    ws.addEventListener('message', (e) => {
      try {
        onEvent(JSON.parse(e.data))
      } catch {
        // Not an event: ignore it.
      }
    })
    ws.addEventListener('close', () => {
      if (state.ws === ws) state.ws = null
      setStatus('disconnected, retrying…', 'closed')
      enable(ui.joinForm, false)
      renderHead()
      setTimeout(connect, state.retry)
      state.retry = Math.min(state.retry * 2, 10000)
    })
  }

  // Any new input or action replaces the last error.
  document.addEventListener('input', () => showError(''))

  ui.nameForm.addEventListener('submit', async (e) => {
    e.preventDefault()
    showError('')
    const reply = await request('hello', { name: ui.name.value })
    if (!reply.ok) return showError(explain('hello', reply))
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
    const reply = await request('message', { room: state.active, text })
    if (reply.ok) return
    if (ui.message.value === '') ui.message.value = text
    showError(explain('message', reply))
  })

  ui.leave.addEventListener('click', () => {
    if (state.active !== null) void leave(state.active)
  })

  // A reload in this tab: come back as the same person, in the same rooms.
  const saved = restore()
  let rejoin = { rooms: [], active: null }
  if (typeof saved?.name === 'string') {
    state.name = saved.name
    state.token = typeof saved.token === 'string' ? saved.token : null
    rejoin = { rooms: Array.isArray(saved.rooms) ? saved.rooms : [], active: saved.active ?? null }
  }
  connect()
})()
