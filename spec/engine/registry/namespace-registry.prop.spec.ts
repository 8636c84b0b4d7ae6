/**
 * The namespace registry against a model (lib/engine/registry/namespace-registry.ts): a client's
 * rooms are held as one key or a set of keys, and a key is the room's shared string; for any
 * sequence of joins and leaves, each client's rooms (in the order it joined them), each
 * room's members and the room list read back as sets of their own would. Portable (Node,
 * Bun, Deno).
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'

type Step = readonly ['join' | 'leave', number, string, string] | readonly ['leaveAll', number]

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.tuple(fc.constantFrom('join' as const, 'leave' as const), fc.integer({ min: 1, max: 4 }), fc.constantFrom('a', 'b', 'c'), fc.constantFrom('/', '/chat')),
  fc.tuple(fc.constant('leaveAll' as const), fc.integer({ min: 1, max: 4 })),
)

test('NamespaceRegistry :: rooms of a client and members of a room read back as a model of sets', () => {
  fc.assert(
    fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
      const registry = createNamespaceRegistry()
      // client -> its rooms as `namespace room`, in joining order (a Set keeps insertion order).
      const model = new Map<number, Set<string>>()
      for (const step of steps) {
        if (step[0] === 'leaveAll') {
          registry.leaveAllRooms(step[1])
          model.delete(step[1])
          continue
        }
        const [op, client, room, namespace] = step
        const mine = model.get(client) ?? new Set<string>()
        if (op === 'join') {
          registry.joinRoom(client, room, namespace)
          mine.add(`${namespace} ${room}`)
        } else {
          registry.leaveRoom(client, room, namespace)
          mine.delete(`${namespace} ${room}`)
        }
        if (mine.size === 0) model.delete(client)
        else model.set(client, mine)
      }
      for (let client = 1; client <= 4; client++) {
        const rooms = registry.roomsOfClient(client).map((r) => `${r.namespace} ${r.room}`)
        assert.equal(rooms, [...(model.get(client) ?? [])])
      }
      for (const namespace of ['/', '/chat']) {
        for (const room of ['a', 'b', 'c']) {
          const expected = [...model].filter(([, rooms]) => rooms.has(`${namespace} ${room}`)).map(([client]) => client)
          assert.equal([...registry.clientsInRoom(room, namespace)].sort(), expected.sort())
        }
      }
      const listed = registry.listRooms().map((r) => `${r.namespace} ${r.room} ${r.members}`).sort()
      const counts = new Map<string, number>()
      for (const rooms of model.values()) for (const key of rooms) counts.set(key, (counts.get(key) ?? 0) + 1)
      assert.equal(listed, [...counts].map(([key, n]) => `${key} ${n}`).sort())
    }),
    { numRuns: 400 },
  )
})

test.run()
