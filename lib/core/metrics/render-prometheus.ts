/**
 * `renderPrometheus`: a registry as the Prometheus text exposition format 0.0.4 (which
 * OpenMetrics scrapers read too): `# HELP` and `# TYPE` per family, one line per series,
 * histograms as cumulative `_bucket{le=…}` lines with `_sum` and `_count`. Names follow
 * `prometheusName`; the registry's constant labels (`node`) are on every line. Pure and
 * portable: no node:* imports.
 */
import type { Histogram } from './histogram.js'
import type { MetricsRegistry } from './metrics-registry.js'
import { prometheusLabel, prometheusName } from './prometheus-name.js'

/** The content type of the text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const escapeValue = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
const escapeHelp = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

// A number as the format writes it: `+Inf`, `-Inf`, `NaN`, or the shortest decimal.
const num = (n: number): string => (n === Infinity ? '+Inf' : n === -Infinity ? '-Inf' : Number.isNaN(n) ? 'NaN' : String(n))

// `{a="x",b="y"}` (empty when there are no labels).
const labelText = (names: readonly string[], values: readonly string[], constant: string, extra?: string): string => {
  const parts: string[] = []
  if (constant !== '') parts.push(constant)
  for (let i = 0; i < names.length; i++) parts.push(`${names[i]}="${escapeValue(values[i] ?? '')}"`)
  if (extra !== undefined) parts.push(extra)
  return parts.length === 0 ? '' : `{${parts.join(',')}}`
}

const histogramLines = (h: Histogram, name: string, names: readonly string[], constant: string, out: string[]): void => {
  for (const s of h.all()) {
    let cumulative = 0
    for (let i = 0; i < h.buckets.length; i++) {
      cumulative += s.counts[i] as number
      out.push(`${name}_bucket${labelText(names, s.values, constant, `le="${num(h.buckets[i] as number)}"`)} ${cumulative}`)
    }
    out.push(`${name}_bucket${labelText(names, s.values, constant, 'le="+Inf"')} ${s.count}`)
    out.push(`${name}_sum${labelText(names, s.values, constant)} ${num(s.sum)}`)
    out.push(`${name}_count${labelText(names, s.values, constant)} ${s.count}`)
  }
}

/**
 * The registry's every series as Prometheus text (observed gauges are read now).
 *
 * @example
 * const body = renderPrometheus(metrics) // '# HELP http_server_request_duration_seconds …'
 */
export const renderPrometheus = (registry: MetricsRegistry): string => {
  const constant = Object.entries(registry.constLabels)
    .map(([k, v]) => `${prometheusLabel(k)}="${escapeValue(v)}"`)
    .join(',')
  const out: string[] = []
  for (const instrument of registry.instruments()) {
    const { spec } = instrument
    const name = prometheusName(spec.name, spec.unit, instrument.kind)
    const names = (spec.labels ?? []).map(prometheusLabel)
    out.push(`# HELP ${name} ${escapeHelp(spec.description)}`)
    out.push(`# TYPE ${name} ${instrument.kind}`)
    if (instrument.kind === 'histogram') histogramLines(instrument, name, names, constant, out)
    else for (const s of instrument.all()) out.push(`${name}${labelText(names, s.values, constant)} ${num(s.value)}`)
  }
  out.push('')
  return out.join('\n')
}
