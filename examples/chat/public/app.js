// The chat page: one WebSocket to the same origin, events as {"event","data","id"} JSON.
// Everything a user typed is shown with textContent, never parsed as markup.
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
    ws: null, name: null, active: null, nextId: 1, retry: 500,
    pending: new Map(), // ack id -> { resolve, timer }
    rooms: new Map(), // room -> { log, tab, members: string[], unread: number }
  }

  const setStatus = (text, kind) => {
    ui.status.textContent = text
    ui.status.dataset.state = kind
  }
  const showError = (text) => {
    ui.error.textContent = text
    ui.error.hidden = text === ''
  }
  const enable = (form, on) => {
    for (const control of form.elements) control.disabled = !on
  }

  // Sends an event with an id and resolves with the ack's data (or a refusal after 10 s).
  const request = (event, data) =>
    new Promise((resolve) => {
      const ws = state.ws
      if (ws === null || ws.readyState !== WebSocket.OPEN) return resolve({ ok: false, message: 'not connected' })
      const id = state.nextId++
      const timer = setTimeout(() => {
        state.pending.delete(id)
        resolve({ ok: false, message: 'no answer from the server' })
      }, 10000)
      state.pending.set(id, { resolve, timer })
      ws.send(JSON.stringify({ event, data, id }))
    })

  const time = (iso) => {
    const d = new Date(iso)
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  }

  const scrollDown = (entry) => {
    if (entry.log === ui.logs.firstElementChild) ui.logs.scrollTop = ui.logs.scrollHeight
  }

  const addLine = (room, node) => {
    const entry = state.rooms.get(room)
    if (entry === undefined) return
    entry.log.append(node)
    if (room !== state.active) {
      entry.unread += 1
      renderTabs()
    }
    scrollDown(entry)
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
    state.active = room
    const entry = state.rooms.get(room)
    if (entry === undefined) {
      ui.logs.replaceChildren(el('p', 'hint empty', 'Join a room to start chatting.'))
    } else {
      entry.unread = 0
      ui.logs.replaceChildren(entry.log)
      ui.logs.scrollTop = ui.logs.scrollHeight
    }
    renderTabs()
    renderHead()
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

  const join = async (room) => {
    showError('')
    const reply = await request('join', { room })
    if (!reply.ok) return showError(reply.message)
    if (!state.rooms.has(reply.room)) {
      const entry = { log: el('div', 'log'), members: reply.members, unread: 0 }
      state.rooms.set(reply.room, entry)
      for (const msg of reply.history) addMessage(msg)
    }
    activate(reply.room)
    ui.message.focus()
  }

  const leave = async (room) => {
    const reply = await request('leave', { room })
    if (!reply.ok) showError(reply.message)
    state.rooms.delete(room)
    activate(state.rooms.keys().next().value ?? null)
  }

  const onEvent = ({ event, data, id }) => {
    switch (event) {
      case 'ack': {
        const waiting = state.pending.get(id)
        if (waiting === undefined) return
        state.pending.delete(id)
        clearTimeout(waiting.timer)
        return waiting.resolve(data)
      }
      case 'message':
        return addMessage(data)
      case 'joined':
      case 'left': {
        const entry = state.rooms.get(data.room)
        if (entry === undefined) return
        if (event === 'joined' && !entry.members.includes(data.name)) entry.members.push(data.name)
        if (event === 'left') {
          const at = entry.members.indexOf(data.name)
          if (at >= 0) entry.members.splice(at, 1)
        }
        notice(data.room, `${data.name} ${event} #${data.room}`)
        if (data.room === state.active) renderHead()
        return
      }
      case 'renamed':
        return notice(data.room, `${data.from} is now ${data.to}`)
      case 'rooms':
        return renderRoomList(data.rooms)
      case 'error': {
        const waiting = id === undefined ? undefined : state.pending.get(id)
        if (waiting !== undefined) {
          state.pending.delete(id)
          clearTimeout(waiting.timer)
          return waiting.resolve({ ok: false, message: data.message })
        }
        return showError(data.message)
      }
    }
  }

  const connect = () => {
    setStatus('connecting…', 'connecting')
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`)
    ws.addEventListener('open', async () => {
      state.ws = ws
      state.retry = 500
      setStatus('connected', 'open')
      // After a reconnect, say who we are again and go back to our rooms.
      if (state.name !== null) {
        await request('hello', { name: state.name })
        for (const room of state.rooms.keys()) void request('join', { room })
      }
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

  ui.nameForm.addEventListener('submit', async (e) => {
    e.preventDefault()
    showError('')
    const reply = await request('hello', { name: ui.name.value })
    if (!reply.ok) return showError(reply.message)
    state.name = reply.name
    ui.whoami.textContent = `You are ${reply.name}.`
    enable(ui.joinForm, true)
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
    const reply = await request('message', { room: state.active, text: ui.message.value })
    if (!reply.ok) return showError(reply.message)
    showError('')
    ui.message.value = ''
  })

  ui.leave.addEventListener('click', () => {
    if (state.active !== null) void leave(state.active)
  })

  connect()
})()
