/**
 * The admin page's three files as text: the markup (`adminHtml`, told where its WebSocket is
 * through data attributes: the page runs no inline script), the style (`ADMIN_CSS`: no
 * framework, one column on a 390-px phone) and the script (`ADMIN_SCRIPT`: asks `tp:admin`
 * over `twinport/client`, turns two snapshots into rates, writes everything as text, never as
 * markup). Pure and portable: no node:* imports.
 */

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * The page at `path`, its WebSocket at `<path>/ws`, a snapshot asked every `refreshMs`.
 *
 * @example
 * adminHtml('/admin', 1000).includes('data-ws="/admin/ws"') // true
 */
export const adminHtml = (path: string, refreshMs: number): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>twinport admin</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeAttribute(path)}/admin.css">
<script type="module" src="${escapeAttribute(path)}/admin.js"></script>
</head>
<body data-ws="${escapeAttribute(path)}/ws" data-refresh="${refreshMs}">
<header>
  <h1>twinport <span>admin</span></h1>
  <p id="status" data-state="connecting">connecting…</p>
</header>
<main>
  <section class="cards" aria-label="Totals">
    <div class="card"><span class="label">Nodes</span><span class="value" id="total-nodes">–</span></div>
    <div class="card"><span class="label">WebSocket</span><span class="value" id="total-ws">–</span></div>
    <div class="card"><span class="label">Event streams</span><span class="value" id="total-sse">–</span></div>
    <div class="card"><span class="label">HTTP</span><span class="value" id="total-http">–</span></div>
    <div class="card"><span class="label">Messages in /s</span><span class="value" id="rate-in">–</span></div>
    <div class="card"><span class="label">Messages out /s</span><span class="value" id="rate-out">–</span></div>
    <div class="card"><span class="label">Errors /s</span><span class="value" id="rate-errors">–</span></div>
    <div class="card"><span class="label">Slow consumers</span><span class="value" id="total-slow">–</span></div>
  </section>
  <section aria-labelledby="nodes-title">
    <h2 id="nodes-title">Nodes</h2>
    <div class="scroll"><table id="nodes">
      <thead><tr><th>Node</th><th>Link</th><th class="n">WS</th><th class="n">SSE</th><th class="n">HTTP</th><th class="n">In /s</th><th class="n">Out /s</th><th class="n">Err /s</th><th class="n">Slow</th><th class="n">Backlog</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>
  <section aria-labelledby="rooms-title">
    <h2 id="rooms-title">Rooms</h2>
    <div class="scroll"><table id="rooms">
      <thead><tr><th>Room</th><th>Namespace</th><th class="n">Members</th><th>Nodes</th></tr></thead>
      <tbody></tbody>
    </table></div>
    <p class="empty" id="rooms-empty" hidden>No rooms.</p>
  </section>
  <section aria-labelledby="errors-title">
    <h2 id="errors-title">Last errors</h2>
    <ol id="errors"></ol>
    <p class="empty" id="errors-empty" hidden>No errors.</p>
  </section>
</main>
<footer><span id="updated">–</span></footer>
</body>
</html>
`

/** The page's style: system fonts, one column, tables that scroll inside their box on a phone. */
export const ADMIN_CSS = `:root { color-scheme: light dark; --bg: #f6f7f9; --fg: #1b1f24; --muted: #5c6570; --card: #fff; --line: #dde1e6; --accent: #2463eb; --bad: #c62828; --ok: #2e7d32; }
@media (prefers-color-scheme: dark) { :root { --bg: #111418; --fg: #e8eaed; --muted: #9aa3ad; --card: #1b2027; --line: #2c333c; --accent: #6d9bff; --bad: #ff7b72; --ok: #6fcf77; } }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; padding: 12px 16px; background: var(--card); border-bottom: 1px solid var(--line); }
h1 { margin: 0; font-size: 18px; }
h1 span { color: var(--muted); font-weight: 400; }
h2 { margin: 0 0 8px; font-size: 15px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
#status { margin: 0; padding: 2px 10px; border-radius: 999px; font-size: 13px; border: 1px solid var(--line); }
#status[data-state="open"] { color: var(--ok); border-color: currentColor; }
#status[data-state="refused"], #status[data-state="closed"] { color: var(--bad); border-color: currentColor; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 20px; }
main > section { min-width: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 10px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; display: flex; flex-direction: column; min-width: 0; }
.card .label { font-size: 12px; color: var(--muted); }
.card .value { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 7px 10px; text-align: left; border-bottom: 1px solid var(--line); white-space: nowrap; }
tbody tr:last-child td { border-bottom: 0; }
th { font-size: 12px; font-weight: 600; color: var(--muted); }
.n { text-align: right; }
td.room { white-space: normal; overflow-wrap: anywhere; min-width: 8em; font-weight: 600; }
tr.missing td { color: var(--bad); }
.link-up { color: var(--ok); }
.link-down, .link-closed { color: var(--bad); }
#errors { list-style: none; margin: 0; padding: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; max-height: 320px; overflow-y: auto; }
#errors li { padding: 7px 10px; border-bottom: 1px solid var(--line); display: grid; grid-template-columns: auto auto 1fr; gap: 4px 10px; align-items: baseline; }
#errors li:last-child { border-bottom: 0; }
#errors:empty { display: none; }
#errors .when, #errors .where { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; }
#errors .what { overflow-wrap: anywhere; min-width: 0; }
#errors .kind-event .what { color: var(--accent); }
#errors .kind-error .what { color: var(--bad); }
.empty { margin: 0; color: var(--muted); }
footer { padding: 8px 16px 20px; color: var(--muted); font-size: 12px; text-align: center; }
@media (max-width: 520px) {
  main { padding: 10px; gap: 16px; }
  .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
  .card .value { font-size: 19px; }
  #errors li { grid-template-columns: auto 1fr; }
  #errors .what { grid-column: 1 / -1; }
}
`

/** The page's script (an ES module importing `./client.js`, the bundled `twinport/client`). */
export const ADMIN_SCRIPT = `// The twinport admin page: asks tp:admin over the server's own WebSocket, renders as text.
import { connect } from './client.js'

const body = document.body
const refreshMs = Number(body.dataset.refresh) || 1000
const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
// The page's own query (a token, say) goes with the upgrade: the same hook decides both.
const query = () => Object.fromEntries(new URLSearchParams(location.search))
const client = connect(scheme + '://' + location.host + body.dataset.ws, { auth: query })
const $ = (id) => document.getElementById(id)
const status = $('status')
const setStatus = (state, text) => { status.dataset.state = state; status.textContent = text }

client.on('open', () => { setStatus('open', 'live'); ask() })
client.on('reconnecting', () => setStatus('connecting', 'reconnecting…'))
client.on('close', (e) => { if (!e.reconnect) setStatus('closed', 'closed (' + e.code + ')') })
client.on('refused', (e) => setStatus('refused', 'refused (' + e.code + (e.reason ? ': ' + e.reason : '') + ')'))
client.on('kicked', (e) => setStatus('refused', 'refused (' + e.code + (e.reason ? ': ' + e.reason : '') + ')'))

const fmt = (n) => n === undefined ? '–' : n >= 100 ? String(Math.round(n)) : n >= 10 ? n.toFixed(1) : n.toFixed(2).replace(/\\.?0+$/, '') || '0'
const bytes = (n) => n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KiB' : (n / 1048576).toFixed(1) + ' MiB'
const cell = (text, cls) => { const td = document.createElement('td'); td.textContent = String(text); if (cls) td.className = cls; return td }
const row = (cells, attrs) => { const tr = document.createElement('tr'); for (const [k, v] of Object.entries(attrs || {})) tr.setAttribute(k, v); tr.append(...cells); return tr }

// Rates from the previous snapshot of each node: (total now - total then) / seconds between.
const previous = new Map()
const ratesOf = (node) => {
  const before = previous.get(node.node)
  previous.set(node.node, node)
  if (!node.totals || !before || !before.totals || node.at <= before.at) return undefined
  const s = (node.at - before.at) / 1000
  const per = (k) => Math.max(0, node.totals[k] - before.totals[k]) / s
  return { in: per('received'), out: per('sent'), errors: per('errors') }
}

const render = (snap) => {
  const nodes = [...snap.nodes].sort((a, b) => a.node.localeCompare(b.node))
  const sum = (f) => nodes.reduce((acc, n) => acc + f(n), 0)
  const rates = new Map(nodes.map((n) => [n.node, ratesOf(n)]))
  const rateSum = (k) => { const known = [...rates.values()].filter(Boolean); return known.length === 0 ? undefined : known.reduce((a, r) => a + r[k], 0) }
  $('total-nodes').textContent = String(nodes.length) + (snap.missingNodes.length ? ' (+' + snap.missingNodes.length + ' silent)' : '')
  $('total-ws').textContent = String(sum((n) => n.connections.ws))
  $('total-sse').textContent = String(sum((n) => n.connections.sse))
  $('total-http').textContent = String(sum((n) => n.connections.http))
  $('rate-in').textContent = fmt(rateSum('in'))
  $('rate-out').textContent = fmt(rateSum('out'))
  $('rate-errors').textContent = fmt(rateSum('errors'))
  $('total-slow').textContent = String(sum((n) => n.totals ? n.totals.slowConsumers : 0))

  const nodeRows = nodes.map((n) => {
    const r = rates.get(n.node)
    return row([
      cell(n.node + (n.node === snap.node ? ' (this)' : '')), cell(n.draining ? 'draining' : n.cluster, 'link-' + n.cluster),
      cell(n.connections.ws, 'n'), cell(n.connections.sse, 'n'), cell(n.connections.http, 'n'),
      cell(fmt(r && r.in), 'n'), cell(fmt(r && r.out), 'n'), cell(fmt(r && r.errors), 'n'),
      cell(n.totals ? n.totals.slowConsumers : '–', 'n'), cell(bytes(n.sendBacklog), 'n'),
    ], { 'data-node': n.node })
  })
  for (const id of snap.missingNodes) nodeRows.push(row([cell(id), cell('no answer'), ...Array.from({ length: 8 }, () => cell('–', 'n'))], { 'data-node': id, class: 'missing' }))
  $('nodes').tBodies[0].replaceChildren(...nodeRows)

  const rooms = new Map()
  for (const n of nodes) for (const r of n.rooms) {
    const key = r.namespace + ' ' + r.room
    const seen = rooms.get(key) || { namespace: r.namespace, room: r.room, members: 0, nodes: [] }
    seen.members += r.members
    seen.nodes.push(n.node)
    rooms.set(key, seen)
  }
  const roomRows = [...rooms.values()].sort((a, b) => b.members - a.members || a.room.localeCompare(b.room)).map((r) =>
    row([cell(r.room, 'room'), cell(r.namespace), cell(r.members, 'n members'), cell(r.nodes.join(', '))], { 'data-room': r.room, 'data-namespace': r.namespace }))
  $('rooms').tBodies[0].replaceChildren(...roomRows)
  $('rooms-empty').hidden = roomRows.length > 0

  const errors = nodes.flatMap((n) => n.lastErrors.map((e) => ({ ...e, node: n.node }))).sort((a, b) => b.at - a.at).slice(0, 50)
  $('errors').replaceChildren(...errors.map((e) => {
    const li = document.createElement('li')
    li.className = 'kind-' + e.kind
    const part = (cls, text) => { const s = document.createElement('span'); s.className = cls; s.textContent = text; return s }
    li.append(part('when', new Date(e.at).toLocaleTimeString()), part('where', e.node + ' · ' + e.kind), part('what', e.message))
    return li
  }))
  $('errors-empty').hidden = errors.length > 0
  $('updated').textContent = 'updated ' + new Date().toLocaleTimeString() + ' · every ' + refreshMs / 1000 + ' s'
}

let timer
const ask = async () => {
  clearTimeout(timer)
  if (client.state === 'open') {
    try {
      const snap = await client.request('tp:admin', undefined, { timeout: Math.max(5000, refreshMs * 3) })
      if (snap && Array.isArray(snap.nodes)) render(snap)
      else if (snap && snap.error) setStatus('refused', 'refused (' + snap.error + ')')
    } catch (error) {
      if (client.state === 'open') setStatus('open', 'live (' + String(error && error.message || error) + ')')
    }
  }
  if (status.dataset.state !== 'refused') timer = setTimeout(ask, refreshMs)
}
`
