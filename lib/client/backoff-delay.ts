/** `backoffDelay`: how long the client waits before a reconnection attempt. Pure. */

/**
 * The wait before attempt `attempt` (1 for the first retry): uniformly random in
 * `[minDelay, min(maxDelay, minDelay · 2^attempt)]`. The window doubles with each attempt up
 * to `maxDelay`, and the whole window is random ("full jitter" above the floor `minDelay`), so
 * clients dropped together by a restart spread out instead of returning in one wave.
 * `random` gives a number in `[0, 1)`.
 *
 * @example
 * backoffDelay(1, 500, 10_000, () => 0) // 500
 * backoffDelay(1, 500, 10_000, () => 0.5) // 750 (window 500..1000)
 * backoffDelay(9, 500, 10_000, () => 0.5) // 5250 (window 500..10000)
 */
export const backoffDelay = (attempt: number, minDelay: number, maxDelay: number, random: () => number): number => {
  const ceiling = Math.max(minDelay, Math.min(maxDelay, minDelay * 2 ** attempt))
  return Math.round(minDelay + random() * (ceiling - minDelay))
}
