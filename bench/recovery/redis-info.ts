/**
 * Reads what `bench/recovery-store.ts` needs from Redis' `INFO memory commandstats` text:
 * `used_memory` and the calls per command (`cmdstat_<name>:calls=N,…`), and the difference
 * of two readings. Pure; no `node:*` imports.
 */

/** One reading of INFO. */
export interface RedisInfo {
  /** `used_memory` in bytes (NaN when the text has no such line). */
  readonly usedMemory: number
  /** `used_memory_dataset`: the keys and values alone, without client buffers and other overhead (NaN when absent). */
  readonly dataset: number
  /** Calls per command name (lower case), as counted since Redis started; commands run inside scripts included. */
  readonly calls: ReadonlyMap<string, number>
}

/**
 * Parses the text of `INFO memory commandstats` (CRLF or LF lines; other sections ignored).
 *
 * @example
 * parseRedisInfo('used_memory:1024\r\ncmdstat_evalsha:calls=3,usec=90,usec_per_call=30.00\r\n')
 * // { usedMemory: 1024, dataset: NaN, calls: Map { 'evalsha' => 3 } }
 */
export const parseRedisInfo = (text: string): RedisInfo => {
  let usedMemory = Number.NaN
  let dataset = Number.NaN
  const calls = new Map<string, number>()
  for (const line of text.split(/\r?\n/)) {
    const memory = /^used_memory:(\d+)$/.exec(line)
    if (memory?.[1] !== undefined) usedMemory = Number(memory[1])
    const data = /^used_memory_dataset:(\d+)$/.exec(line)
    if (data?.[1] !== undefined) dataset = Number(data[1])
    const stat = /^cmdstat_([^:]+):calls=(\d+)/.exec(line)
    if (stat?.[1] !== undefined && stat[2] !== undefined) calls.set(stat[1].toLowerCase(), Number(stat[2]))
  }
  return { usedMemory, dataset, calls }
}

/** What changed between two readings: calls per command (only those that grew) and memory. */
export interface RedisDelta {
  readonly usedMemory: number
  readonly dataset: number
  readonly calls: ReadonlyMap<string, number>
  /** Every call but `ignore`'s (the readings' own INFO, by default). */
  readonly total: number
}

/**
 * The calls made between `before` and `after`, leaving out the commands in `ignore`.
 *
 * @example
 * redisDelta(parseRedisInfo('cmdstat_get:calls=1'), parseRedisInfo('cmdstat_get:calls=4\ncmdstat_info:calls=2')).total // 3
 */
export const redisDelta = (before: RedisInfo, after: RedisInfo, ignore: readonly string[] = ['info']): RedisDelta => {
  const calls = new Map<string, number>()
  let total = 0
  for (const [name, n] of after.calls) {
    const grew = n - (before.calls.get(name) ?? 0)
    if (grew <= 0 || ignore.includes(name)) continue
    calls.set(name, grew)
    total += grew
  }
  return { usedMemory: after.usedMemory - before.usedMemory, dataset: after.dataset - before.dataset, calls, total }
}
