/**
 * `SeriesTable`: the label sets of one instrument, each resolved once to its series (a small
 * mutable record the hot path keeps and updates), bounded by `maxSeries` with one overflow
 * series past it. Pure and portable: no node:* imports; state belongs to the registry that
 * made it (one per server).
 */
import { OVERFLOW_LABEL } from './instrument.js'

/** One series: its label values and whatever the instrument counts for it. */
export interface Labelled {
  readonly values: readonly string[]
}

export class SeriesTable<T extends Labelled> {
  private readonly byKey = new Map<string, T>()
  private overflow: T | undefined = undefined

  constructor(
    private readonly arity: number,
    private readonly maxSeries: number,
    private readonly make: (values: readonly string[]) => T,
  ) {}

  /**
   * The series of these label values, made on first use. A lookup joins the values into a
   * key (one label: the value itself), so hot paths resolve their series once and keep it.
   */
  get(values: readonly string[]): T {
    const key = values.length === 1 ? (values[0] as string) : values.join('\u0000')
    const found = this.byKey.get(key)
    if (found !== undefined) return found
    if (values.length !== this.arity) throw new Error(`expected ${this.arity} label values, got ${values.length}`)
    if (this.byKey.size >= this.maxSeries) return (this.overflow ??= this.make(Array.from({ length: this.arity }, () => OVERFLOW_LABEL)))
    const made = this.make([...values])
    this.byKey.set(key, made)
    return made
  }

  /** The series of a one-label instrument: `get([value])` without the array. */
  one(value: string): T {
    return this.byKey.get(value) ?? this.get([value])
  }

  /** Every series, the overflow one last. */
  all(): T[] {
    const all = [...this.byKey.values()]
    if (this.overflow !== undefined) all.push(this.overflow)
    return all
  }
}
