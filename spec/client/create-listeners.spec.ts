import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createListeners } from '../../lib/client/create-listeners.js'

const test = suite('createListeners')

test('createListeners :: emit calls the listeners of the event in order', () => {
  const l = createListeners(() => undefined)
  const got: string[] = []
  l.on('m', (x: string) => got.push(`a${x}`))
  l.on('m', (x: string) => got.push(`b${x}`))
  l.on('other', () => got.push('no'))
  l.emit('m', '1')
  assert.equal(got, ['a1', 'b1'])
  l.emit('none', 1)
  assert.equal(got, ['a1', 'b1'])
})

test('createListeners :: the unsubscribe answered by on removes that registration only', () => {
  const l = createListeners(() => undefined)
  const got: number[] = []
  const fn = (x: number): void => void got.push(x)
  const off1 = l.on('m', fn)
  l.on('m', fn)
  off1()
  l.emit('m', 1)
  assert.equal(got, [1])
  off1()
  l.emit('m', 2)
  assert.equal(got, [1, 2])
})

test('createListeners :: off removes the first registration of a function', () => {
  const l = createListeners(() => undefined)
  const got: number[] = []
  const fn = (x: number): void => void got.push(x)
  l.on('m', fn)
  l.off('m', fn)
  l.off('m', fn)
  l.off('never', fn)
  l.emit('m', 1)
  assert.equal(got, [])
})

test('createListeners :: a once listener runs once, even when emit re-enters', () => {
  const l = createListeners(() => undefined)
  const got: number[] = []
  l.on(
    'm',
    (x: number) => {
      got.push(x)
      if (x === 1) l.emit('m', 2)
    },
    true,
  )
  l.emit('m', 1)
  l.emit('m', 3)
  assert.equal(got, [1])
})

test('createListeners :: off also removes a once listener', () => {
  const l = createListeners(() => undefined)
  const fn = (): void => assert.unreachable('removed')
  l.on('m', fn, true)
  l.off('m', fn)
  l.emit('m', 1)
})

test('createListeners :: listeners added or removed during emit take effect from the next emit', () => {
  const l = createListeners(() => undefined)
  const got: string[] = []
  const late = (): void => void got.push('late')
  let offB = (): void => undefined
  l.on('m', () => {
    got.push('a')
    l.on('m', late)
    offB()
  })
  offB = l.on('m', () => void got.push('b'))
  l.emit('m', 0)
  assert.equal(got, ['a', 'b'])
  l.emit('m', 0)
  assert.equal(got, ['a', 'b', 'a', 'late'])
})

test('createListeners :: a listener that throws is reported and the others still run', () => {
  const thrown: [string, unknown][] = []
  const l = createListeners((event, error) => thrown.push([event, error]))
  const boom = new Error('boom')
  const got: number[] = []
  l.on('m', () => {
    throw boom
  })
  l.on('m', (x: number) => void got.push(x))
  l.emit('m', 7)
  assert.equal(got, [7])
  assert.equal(thrown, [['m', boom]])
})

test.run()
