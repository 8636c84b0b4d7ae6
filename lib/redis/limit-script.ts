/**
 * LIMIT_SCRIPT: one rate-limit check in Redis, the same GCRA as the core's `takeToken`
 * (lib/core/limit/take-token.ts): a bucket is one key holding its theoretical arrival time,
 * read, moved and given a time to live in one atomic script, so a check is one round trip and
 * no lock. The time is Redis' own (`TIME`), so the nodes' clocks may disagree.
 * KEYS[1] the bucket; ARGV[1] interval (ms per token), ARGV[2] burst (tokens).
 * Returns { allowed (1/0), retryAfterMs, remaining }.
 */
export const LIMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nxt = tat + interval
local allowAt = nxt - interval * burst
if now < allowAt then
  return { 0, math.ceil(allowAt - now), math.max(0, math.floor((now - (tat - interval * burst)) / interval)) }
end
redis.call('SET', KEYS[1], string.format('%.3f', nxt), 'PX', math.max(1, math.ceil(nxt - now)))
return { 1, 0, math.floor((now - allowAt) / interval + 1e-9) }
`
