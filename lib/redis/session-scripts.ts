/**
 * The Lua scripts of the Redis recovery store. Each runs atomically on the shard of one
 * session (its state and its frames share a hash tag), so a session's messages and its
 * state after them are written together, and a node that no longer holds a session cannot
 * write over the node that took it.
 */

/**
 * SAVE_PROGRESS_SCRIPT: KEYS[1] the state, KEYS[2] the frames stream; ARGV[1] the record as
 * JSON, ARGV[2] this node, ARGV[3] '1' to claim the session, ARGV[4] when it expires (ms
 * since the epoch), ARGV[5] frames kept, ARGV[6] the record's last number, then pairs of
 * number and frame. Returns 0 (nothing written) when the stored record names another node
 * and this is no claim. A claim also drops frames numbered after the record's last (the old
 * node's, written after the client left it) so the new holder numbers on from there.
 */
export const SAVE_PROGRESS_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current and ARGV[3] ~= '1' then
  local ok, rec = pcall(cjson.decode, current)
  if ok and type(rec) == 'table' and type(rec.node) == 'string' and rec.node ~= ARGV[2] then
    return 0
  end
end
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then
  local extra = redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[6], '+')
  for _, entry in ipairs(extra) do
    redis.call('XDEL', KEYS[2], entry[1])
  end
  redis.call('XSETID', KEYS[2], '0-' .. ARGV[6])
end
for i = 7, #ARGV, 2 do
  redis.pcall('XADD', KEYS[2], 'MAXLEN', ARGV[5], '0-' .. ARGV[i], 'f', ARGV[i + 1])
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('PEXPIREAT', KEYS[2], ARGV[4])
end
return 1
`

/**
 * DELETE_SESSION_SCRIPT: KEYS[1] the state, KEYS[2] the frames; ARGV[1] the node, or '' for
 * any. Deletes both unless the record names another node. Returns 1 when deleted.
 */
export const DELETE_SESSION_SCRIPT = `
if ARGV[1] ~= '' then
  local current = redis.call('GET', KEYS[1])
  if current then
    local ok, rec = pcall(cjson.decode, current)
    if ok and type(rec) == 'table' and type(rec.node) == 'string' and rec.node ~= ARGV[1] then
      return 0
    end
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`

/**
 * READ_TARGET_SCRIPT: what a resuming node needs to know of one target's log, read at one
 * instant (a broadcast numbered between two separate reads would make them disagree).
 * KEYS[1] the target's stream, KEYS[2] its counter (lua-scripts.ts, PUBLISH_SCRIPT); ARGV[1]
 * the cursor's epoch, ARGV[2] its number. Returns the entries after the cursor (as XRANGE
 * gives them), the counter's `e`, `n`, `pe`, `pn` (nil when unset), and 1 when the entry at
 * the cursor itself is still in the stream (0 otherwise).
 */
export const READ_TARGET_SCRIPT = `
local at = ARGV[1] .. '-' .. ARGV[2]
local rows = redis.call('XRANGE', KEYS[1], '(' .. at, '+')
local counter = redis.call('HMGET', KEYS[2], 'e', 'n', 'pe', 'pn')
local here = redis.call('XRANGE', KEYS[1], at, at)
return { rows, counter, #here }
`

/**
 * LOAD_SESSION_SCRIPT: a session's record and its frames after a number, read at one instant
 * (lib/engine/recovery/load-session.ts checks that they fit together; read apart, the old node's last
 * journal write could land between them: the record from before it, the frames from after,
 * and a resume that would have fit either way got `gap`). KEYS[1] the state, KEYS[2] the
 * frames; ARGV[1] the number after which frames are read, ARGV[2] '1' to return the record
 * itself ('0': only whether it exists). Returns the record (nil when none; '' when not
 * asked for), the frames after ARGV[1] (as XRANGE gives them), and, when there are none,
 * the last id the stream ever gave (nil when no stream): frames after ARGV[1] that existed
 * and are gone show there.
 */
export const LOAD_SESSION_SCRIPT = `
local state = redis.call('GET', KEYS[1])
if not state then
  return { false, {}, false }
end
if ARGV[2] ~= '1' then
  state = ''
end
local rows = redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[1], '+')
local last = false
if #rows == 0 and redis.call('EXISTS', KEYS[2]) == 1 then
  local info = redis.call('XINFO', 'STREAM', KEYS[2])
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then
      last = info[i + 1]
    end
  end
end
return { state, rows, last }
`
