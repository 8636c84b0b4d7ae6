/**
 * A realistic JSON message for the compression workloads: an event carrying a roster of
 * users, as chat and presence servers send, of about the size asked. Compressible the way
 * real JSON is (repeated keys, similar values), not a run of one byte. Pure.
 */

/**
 * `{"event":"roster","data":[{"id":0,"name":"user-0",...},...]}`, at least `size` bytes.
 * `variant` changes the users and their values (not the shape), as successive messages of
 * one application differ.
 *
 * @example jsonPayload(4096).length // 4096 or a little more
 */
export const jsonPayload = (size: number, variant = 0): string => {
  const rows: string[] = []
  let length = 28
  for (let n = 0; length < size; n++) {
    const i = n + variant * 97
    const row = JSON.stringify({ id: i, name: `user-${i}`, status: (i + variant) % 3 === 0 ? 'online' : 'away', room: `room-${i % 7}`, since: 1_700_000_000 + i * 37 + variant })
    rows.push(row)
    length += row.length + 1
  }
  return `{"event":"roster","data":[${rows.join(',')}]}`
}
