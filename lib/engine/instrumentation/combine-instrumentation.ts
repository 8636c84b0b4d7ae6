/**
 * `combineInstrumentation`: two implementations of the engine's `Instrumentation` as one (the
 * server's metrics and the application's tracer), each call made on both. A `…Started` call
 * answers a slot of its own holding both tokens (kept in two arrays and reused: nothing is
 * allocated per call); its end call hands each side its token back and frees the slot. Must
 * not import `node:*`, Buffer or process.
 */
import type { Instrumentation } from './instrumentation.js'

/**
 * Both `first` and `second` (either alone when the other is inactive).
 *
 * @example
 * const both = combineInstrumentation(metricsSide, tracer) // what the engine calls when both are on
 */
export const combineInstrumentation = (first: Instrumentation, second: Instrumentation): Instrumentation => {
  if (!second.active) return first
  if (!first.active) return second
  const firsts: number[] = []
  const seconds: number[] = []
  const free: number[] = []
  let used = 0
  const open = (a: number, b: number): number => {
    const slot = free.length > 0 ? (free.pop() as number) : used++
    firsts[slot] = a
    seconds[slot] = b
    return slot
  }
  const tracer = first.tracing ? first : second.tracing ? second : undefined
  return {
    active: true,
    tracing: tracer !== undefined,
    bind: (server) => {
      first.bind?.(server)
      second.bind?.(server)
    },
    requestStarted: (method, now, request) => open(first.requestStarted(method, now, request), second.requestStarted(method, now, request)),
    requestAnswered: (method, route, status, slot, ended) => {
      first.requestAnswered(method, route, status, firsts[slot] as number, ended)
      second.requestAnswered(method, route, status, seconds[slot] as number, ended)
      free.push(slot)
    },
    settle: () => {
      first.settle()
      second.settle()
    },
    eventStarted: (event, parent) => open(first.eventStarted(event, parent), second.eventStarted(event, parent)),
    eventSettled: (event, end, code, slot) => {
      first.eventSettled(event, end, code, firsts[slot] as number)
      second.eventSettled(event, end, code, seconds[slot] as number)
      free.push(slot)
    },
    inputRejected: (code) => {
      first.inputRejected(code)
      second.inputRejected(code)
    },
    eventSent: (event) => {
      first.eventSent(event)
      second.eventSent(event)
    },
    slowConsumer: () => {
      first.slowConsumer()
      second.slowConsumer()
    },
    sessionResume: (outcome) => {
      first.sessionResume(outcome)
      second.sessionResume(outcome)
    },
    clusterPublished: () => {
      first.clusterPublished()
      second.clusterPublished()
    },
    clusterReceived: () => {
      first.clusterReceived()
      second.clusterReceived()
    },
    traceOf: (slot) => (tracer === first ? first.traceOf(firsts[slot] as number) : tracer === second ? second.traceOf(seconds[slot] as number) : undefined),
    clusterRequestStarted: (query, parent) => open(first.clusterRequestStarted(query, parent), second.clusterRequestStarted(query, parent)),
    clusterRequestEnded: (answered, missing, slot) => {
      first.clusterRequestEnded(answered, missing, firsts[slot] as number)
      second.clusterRequestEnded(answered, missing, seconds[slot] as number)
      free.push(slot)
    },
    clusterAnswerStarted: (query, from, parent) => open(first.clusterAnswerStarted(query, from, parent), second.clusterAnswerStarted(query, from, parent)),
    clusterAnswerEnded: (error, slot) => {
      first.clusterAnswerEnded(error, firsts[slot] as number)
      second.clusterAnswerEnded(error, seconds[slot] as number)
      free.push(slot)
    },
  }
}
