/**
 * `SpanSlots`: the spans a tracer has open, by the small number the engine carries as the
 * token between a `…Started` call and its end (docs/architecture.md, "The instrumentation
 * interface"). Slots are reused, so the table stays as large as the most spans open at once.
 * Imports `@opentelemetry/api` types only; never `node:*`.
 */
import type { Span } from '@opentelemetry/api'

export class SpanSlots {
  private readonly spans: (Span | undefined)[] = []
  private readonly free: number[] = []

  /** Keeps `span`; answers its slot. */
  open(span: Span): number {
    const slot = this.free.length > 0 ? (this.free.pop() as number) : this.spans.length
    this.spans[slot] = span
    return slot
  }

  /** The span of `slot`, still open. */
  get(slot: number): Span | undefined {
    return this.spans[slot]
  }

  /** The span of `slot`, forgotten (the caller ends it). */
  close(slot: number): Span | undefined {
    const span = this.spans[slot]
    if (span === undefined) return undefined
    this.spans[slot] = undefined
    this.free.push(slot)
    return span
  }

  /** How many spans are open. */
  get size(): number {
    return this.spans.length - this.free.length
  }
}
