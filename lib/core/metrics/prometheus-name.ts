/**
 * `prometheusName`: an OpenTelemetry metric name and unit as Prometheus names it, after the
 * OpenTelemetry specification's "Prometheus and OpenMetrics Compatibility" rules: characters
 * outside `[a-zA-Z0-9_:]` become `_`, the unit is spelled out and appended (`s` → `seconds`,
 * `By` → `bytes`; `{…}` annotations dropped; `1` → `ratio` on gauges), counters end in
 * `_total`. Pure and portable: no node:* imports.
 */
import type { InstrumentKind } from './instrument.js'

const UNITS: Readonly<Record<string, string>> = Object.freeze({
  d: 'days', h: 'hours', min: 'minutes', s: 'seconds', ms: 'milliseconds', us: 'microseconds', ns: 'nanoseconds',
  By: 'bytes', KiBy: 'kibibytes', MiBy: 'mebibytes', GiBy: 'gibibytes', KBy: 'kilobytes', MBy: 'megabytes', GBy: 'gigabytes',
  m: 'meters', V: 'volts', A: 'amperes', J: 'joules', W: 'watts', g: 'grams', Cel: 'celsius', Hz: 'hertz', '%': 'percent',
})

/** A label or metric name with every character Prometheus does not take replaced by `_`. */
export const prometheusLabel = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, '_').replace(/_+/g, '_')
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned
}

// The unit's words: annotations dropped, `a/b` as `a_per_b`.
const unitWords = (unit: string, kind: InstrumentKind): string => {
  const bare = unit.replace(/\{[^}]*\}/g, '').trim()
  if (bare === '') return ''
  if (bare === '1') return kind === 'gauge' ? 'ratio' : ''
  const [per, by] = bare.split('/')
  const spell = (u: string): string => UNITS[u] ?? prometheusLabel(u)
  return by === undefined ? spell(per as string) : `${per === '' ? '' : `${spell(per as string)}_`}per_${UNITS[by] === 'seconds' ? 'second' : spell(by)}`
}

/**
 * The Prometheus name of an instrument.
 *
 * @example
 * prometheusName('http.server.request.duration', 's', 'histogram') // 'http_server_request_duration_seconds'
 * prometheusName('twinport.ws.messages.received', '{message}', 'counter') // 'twinport_ws_messages_received_total'
 */
export const prometheusName = (name: string, unit: string, kind: InstrumentKind): string => {
  let out = prometheusLabel(name).replace(/^_+|_+$/g, '')
  const words = unitWords(unit, kind)
  if (words !== '' && !out.endsWith(`_${words}`)) out = `${out}_${words}`
  if (kind === 'counter' && !out.endsWith('_total')) out = `${out}_total`
  return out
}
