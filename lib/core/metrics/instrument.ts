/**
 * What every instrument of a `MetricsRegistry` is: its OpenTelemetry-style name, unit and
 * description, its label names, and how many label sets it keeps at most. Types only. Pure
 * and portable: no node:* imports, nothing of OpenTelemetry itself.
 */

/** The three kinds of instrument the registry keeps. */
export type InstrumentKind = 'counter' | 'gauge' | 'histogram'

/** How an instrument is declared (`registry.counter(spec)`, `gauge`, `histogram`). */
export interface InstrumentSpec {
  /** The OpenTelemetry name, dotted (`http.server.request.duration`). */
  readonly name: string
  /** What it measures, one line (the Prometheus `# HELP`). */
  readonly description: string
  /** A UCUM unit as OpenTelemetry writes them: `s`, `By`, `1`, `{connection}`… */
  readonly unit: string
  /** The label (attribute) names, in order; each series gives a value for each. */
  readonly labels?: readonly string[]
  /**
   * The most label sets kept (default 256). Past it, observations go to one overflow series
   * whose every label is `_other`: a bug that labels by id cannot grow memory without bound.
   */
  readonly maxSeries?: number
}

/** The label value every label of the overflow series has. */
export const OVERFLOW_LABEL = '_other'

/** The default bound on label sets per instrument. */
export const DEFAULT_MAX_SERIES = 256
