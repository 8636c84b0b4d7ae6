import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createNamespaceRegistry, DEFAULT_NAMESPACE } from '../../../lib/engine/registry/namespace-registry.js'

test('namespaceRegistry :: a room named without a namespace lives in "/"', () => {
  const reg = createNamespaceRegistry()
  reg.joinRoom(1, 'lobby')
  assert.equal(reg.clientsInRoom('lobby'), [1])
  assert.equal(reg.clientsInRoom('lobby', DEFAULT_NAMESPACE), [1])
  assert.equal(reg.clientsInRoom('lobby', '/admin'), [])
  assert.equal(reg.roomsOfClient(1), [{ namespace: '/', room: 'lobby' }])
})

test('namespaceRegistry :: same room name in two namespaces is two rooms', () => {
  const reg = createNamespaceRegistry()
  reg.joinRoom(1, 'r', '/a')
  reg.joinRoom(2, 'r', '/b')
  assert.equal(reg.clientsInRoom('r', '/a'), [1])
  assert.equal(reg.clientsInRoom('r', '/b'), [2])
  assert.equal(reg.listRooms('/a'), [{ namespace: '/a', room: 'r', members: 1 }])
  assert.is(reg.listRooms().length, 2)
})

test('namespaceRegistry :: empty rooms disappear', () => {
  const reg = createNamespaceRegistry()
  reg.joinRoom(1, 'r')
  reg.joinRoom(2, 'r')
  reg.leaveRoom(1, 'r')
  assert.equal(reg.listRooms(), [{ namespace: '/', room: 'r', members: 1 }])
  reg.leaveRoom(2, 'r')
  assert.equal(reg.listRooms(), [])
  assert.is(reg.roomMembers('r'), undefined)
  reg.leaveRoom(2, 'r') // leaving twice is harmless
  assert.equal(reg.roomsOfClient(2), [])
})

test('namespaceRegistry :: leaveNamespace cleans every room of the client', () => {
  const reg = createNamespaceRegistry()
  reg.joinNamespace(7)
  reg.joinRoom(7, 'a')
  reg.joinRoom(7, 'b', '/x')
  reg.joinRoom(8, 'a')
  assert.equal(reg.clientsInNamespace(), [7])
  assert.is(reg.namespaceOf(7), '/')
  reg.leaveNamespace(7)
  assert.equal(reg.roomsOfClient(7), [])
  assert.equal(reg.clientsInRoom('a'), [8])
  assert.equal(reg.clientsInNamespace(), [])
  assert.is(reg.namespaceOf(7), undefined)
  assert.is(reg.namespaceMembers(), undefined)
  reg.leaveNamespace(7)
})

test('namespaceRegistry :: switching namespace leaves the old one', () => {
  const reg = createNamespaceRegistry()
  reg.joinNamespace(1, '/a')
  reg.joinNamespace(1, '/a')
  reg.joinNamespace(2, '/a')
  reg.joinNamespace(1, '/b')
  assert.equal(reg.clientsInNamespace('/a'), [2])
  assert.equal(reg.clientsInNamespace('/b'), [1])
  assert.ok(reg.namespaceMembers('/b')?.has(1))
})

test('namespaceRegistry :: a client moves between the default namespace and others, and leaves from any', () => {
  const reg = createNamespaceRegistry()
  assert.is(reg.namespaceOf(1), undefined)
  reg.joinNamespace(1)
  reg.joinNamespace(2)
  assert.is(reg.namespaceOf(1), DEFAULT_NAMESPACE)
  reg.joinNamespace(1, '/a')
  assert.is(reg.namespaceOf(1), '/a')
  assert.equal(reg.clientsInNamespace(), [2])
  reg.joinNamespace(1, DEFAULT_NAMESPACE)
  assert.is(reg.namespaceOf(1), DEFAULT_NAMESPACE)
  assert.equal(reg.clientsInNamespace('/a'), [])
  assert.equal(reg.clientsInNamespace(), [2, 1])
  reg.joinNamespace(2, '/b')
  reg.leaveNamespace(1)
  reg.leaveNamespace(2)
  assert.equal([reg.namespaceOf(1), reg.namespaceOf(2)], [undefined, undefined])
  assert.equal([reg.clientsInNamespace(), reg.clientsInNamespace('/b')], [[], []])
  reg.leaveNamespace(3)
  assert.is(reg.namespaceOf(3), undefined)
})

test('namespaceRegistry :: leaveAllRooms keeps the namespace', () => {
  const reg = createNamespaceRegistry()
  reg.joinNamespace(1)
  reg.joinRoom(1, 'a')
  reg.joinRoom(1, 'b')
  reg.leaveAllRooms(1)
  reg.leaveAllRooms(1)
  assert.equal(reg.roomsOfClient(1), [])
  assert.equal(reg.clientsInNamespace(), [1])
})


test('namespaceRegistry :: tells its listener when a room or namespace gets its first member and loses its last', () => {
  const told: string[] = []
  const reg = createNamespaceRegistry({
    roomOpened: (ns, room) => told.push(`+room ${ns} ${room}`),
    roomClosed: (ns, room) => told.push(`-room ${ns} ${room}`),
    namespaceOpened: (ns) => told.push(`+ns ${ns}`),
    namespaceClosed: (ns) => told.push(`-ns ${ns}`),
  })
  reg.joinNamespace(1)
  reg.joinNamespace(2)
  reg.joinRoom(1, 'a')
  reg.joinRoom(2, 'a')
  reg.joinRoom(2, 'b', '/x')
  reg.leaveRoom(1, 'a')
  reg.leaveRoom(1, 'a') // not a member any more: nothing
  reg.leaveNamespace(2) // leaves a and b: both rooms close
  reg.joinNamespace(1, '/y') // moves: / loses its last member
  assert.equal(told, ['+ns /', '+room / a', '+room /x b', '-room / a', '-room /x b', '-ns /', '+ns /y'])
})

test.run()
