/**
 * The Lua scripts the Redis adapter runs. Each runs atomically in Redis, so a target's
 * broadcasts get their numbers, enter the stream and are published in one order that every
 * node sees.
 */

/**
 * PUBLISH_SCRIPT: number, keep and publish one broadcast.
 * KEYS[1] stream, KEYS[2] counter hash; ARGV[1] the encoded message (its 20-byte sequence
 * trailer is replaced here), ARGV[2] stream length kept (approximate), ARGV[3] time to live
 * of stream and counter (ms), ARGV[4] this epoch if the target has none yet (ms), ARGV[5]
 * the channel, ARGV[6] '1' for SPUBLISH, '0' for PUBLISH, ARGV[7] '1' on a Redis Cluster,
 * ARGV[8] the origin node, ARGV[9] its publisher's run (random per start), ARGV[10] the
 * publish's number in that run. Returns the number, or 0 when this publish ran already.
 *
 * A publish is sent again when the link broke before its reply came, though Redis may have
 * run it (issue 29: the soak saw hundreds of broadcasts twice after a cut). So the counter
 * keeps, per origin node, its run and the number of the last publish it took (`o:<origin>`):
 * a node's publishes to a target run in the order it sent them, so one from the same run
 * numbered no higher ran already and is answered 0 without a second entry or message.
 *
 * On a Redis Cluster the counter remembers which master numbered last (`m`, its `CLUSTER
 * MYID`). Another master means a failover (or a slot moved): replication is asynchronous,
 * so the new master may have fewer numbers than the old one handed out, and numbering on
 * from its count would give used numbers to new broadcasts, which every node would drop as
 * duplicates. So the target starts a new epoch (later than the old one) and keeps where the
 * old epoch ended here (`pe`, `pn`): a node that delivered past that place counts what the
 * failover took back (docs/decisions.md "Redis Cluster failover").
 *
 * The trailer is epoch (u64) · n (u64) · CRC-32 of those 16 bytes (lib/core/cluster/cluster-wire.ts);
 * the CRC is computed here bit by bit (16 bytes, 128 steps) with Redis' `bit` library.
 */
export const PUBLISH_SCRIPT = `
local origin = 'o:' .. ARGV[8]
local last = redis.call('HGET', KEYS[2], origin)
if last then
  local run, id = string.match(last, '^(.*):(%d+)$')
  if run == ARGV[9] and tonumber(id) >= tonumber(ARGV[10]) then
    return 0
  end
end
local epoch = redis.call('HGET', KEYS[2], 'e')
if ARGV[7] == '1' then
  local me = redis.call('CLUSTER', 'MYID')
  local by = redis.call('HGET', KEYS[2], 'm')
  if by ~= me then
    if epoch and by then
      local fresh = math.max(tonumber(ARGV[4]), tonumber(epoch) + 1)
      redis.call('HSET', KEYS[2], 'pe', epoch, 'pn', redis.call('HGET', KEYS[2], 'n') or '0', 'e', string.format('%.0f', fresh), 'n', 0)
      epoch = string.format('%.0f', fresh)
    end
    redis.call('HSET', KEYS[2], 'm', me)
  end
end
if not epoch then
  epoch = ARGV[4]
  redis.call('HSET', KEYS[2], 'e', epoch)
end
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
local function u64(x)
  local high = math.floor(x / 4294967296)
  return struct.pack('>I4I4', high, x - high * 4294967296)
end
local seq = u64(tonumber(epoch)) .. u64(n)
local crc = -1
for i = 1, 16 do
  crc = bit.bxor(crc, string.byte(seq, i))
  for _ = 1, 8 do
    if bit.band(crc, 1) == 1 then
      crc = bit.bxor(bit.rshift(crc, 1), -306674912)
    else
      crc = bit.rshift(crc, 1)
    end
  end
end
crc = bit.bnot(crc)
local message = string.sub(ARGV[1], 1, #ARGV[1] - 20) .. seq .. struct.pack('>i4', crc)
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], epoch .. '-' .. n, 'm', message)
redis.call('HSET', KEYS[2], origin, ARGV[9] .. ':' .. ARGV[10])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if ARGV[6] == '1' then
  redis.call('SPUBLISH', ARGV[5], message)
else
  redis.call('PUBLISH', ARGV[5], message)
end
return n
`

/**
 * HEARTBEAT_SCRIPT: this node is alive (or leaving), by Redis' clock, so hosts whose clocks
 * differ agree. KEYS[1] the nodes' sorted set (score: when each runs out), KEYS[2] the hash
 * of their generations (a node's generation grows each time it comes back from losing Redis
 * and has sent what waited: the others then read their streams again); ARGV[1] node id,
 * ARGV[2] time to live (ms), ARGV[3] '1' alive, '0' leaving, ARGV[4] this node's
 * generation. Drops nodes whose time ran out; returns the live ones and their generations,
 * as one flat list: id, generation, id, generation, …
 */
export const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  redis.call('HDEL', KEYS[2], unpack(gone))
end
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local out = {}
for i, id in ipairs(ids) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or '0'
end
return out
`
