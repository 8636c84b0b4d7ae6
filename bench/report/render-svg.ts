/**
 * Writes bench/ratios.svg: for each workload, one horizontal bar per contender
 * showing how many times better than its reference it is (log2 axis; right of 1
 * is better, whichever direction "better" is), with twinport's targets marked,
 * for the whole group or per bar. Plain SVG text, no image service. Pure.
 */

/** One bar. */
export interface Bar {
  readonly label: string
  /** advantage over the reference (1 = same). */
  readonly advantage: number
  readonly twinport: boolean
  /** this bar's target on the same scale; NaN or absent when none. */
  readonly target?: number
}

/** One group of bars: a workload. */
export interface BarGroup {
  readonly title: string
  readonly reference: string
  /** twinport's target on the same scale; NaN when none. */
  readonly target: number
  readonly bars: readonly Bar[]
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const MIN = 1 / 8
const MAX = 32
const LEFT = 230
const WIDTH = 460
const BAR = 16
const log2 = (x: number): number => Math.log(x) / Math.LN2
const xOf = (v: number): number =>
  LEFT + ((log2(Math.min(MAX, Math.max(MIN, v))) - log2(MIN)) / (log2(MAX) - log2(MIN))) * WIDTH

/** The whole SVG document. */
export const renderSvg = (title: string, groups: readonly BarGroup[]): string => {
  const out: string[] = []
  let y = 48
  const ticks = [0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32]
  const body: string[] = []
  for (const g of groups) {
    body.push(`<text x="8" y="${y + 12}" font-weight="bold">${esc(g.title)} (vs ${esc(g.reference)})</text>`)
    y += 20
    const top = y
    for (const b of g.bars) {
      const known = Number.isFinite(b.advantage)
      const x1 = xOf(1)
      const x2 = known ? xOf(b.advantage) : x1
      const fill = b.twinport ? '#2b6cb0' : '#a0aec0'
      body.push(`<text x="${LEFT - 6}" y="${y + 12}" text-anchor="end">${esc(b.label)}</text>`)
      if (known) {
        body.push(`<rect x="${Math.min(x1, x2).toFixed(1)}" y="${y + 2}" width="${Math.max(1, Math.abs(x2 - x1)).toFixed(1)}" height="${BAR - 4}" fill="${fill}"/>`)
        body.push(`<text x="${(Math.max(x1, x2) + 4).toFixed(1)}" y="${y + 12}">${b.advantage.toFixed(2)}×</text>`)
      } else body.push(`<text x="${x1 + 4}" y="${y + 12}" fill="#718096">not available</text>`)
      if (b.target !== undefined && Number.isFinite(b.target)) {
        const tx = xOf(b.target).toFixed(1)
        body.push(`<line x1="${tx}" y1="${y}" x2="${tx}" y2="${y + BAR}" stroke="#c53030" stroke-width="2"/>`)
      }
      y += BAR
    }
    if (Number.isFinite(g.target)) {
      const tx = xOf(g.target).toFixed(1)
      body.push(`<line x1="${tx}" y1="${top}" x2="${tx}" y2="${y}" stroke="#c53030" stroke-width="2" stroke-dasharray="4 2"/>`)
    }
    y += 10
  }
  const height = y + 30
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${LEFT + WIDTH + 80}" height="${height}" font-family="sans-serif" font-size="12">`)
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`)
  out.push(`<text x="8" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`)
  out.push(`<text x="8" y="36" fill="#4a5568">times better than the reference (log scale, right is better); red: twinport's target</text>`)
  for (const t of ticks) {
    const x = xOf(t).toFixed(1)
    out.push(`<line x1="${x}" y1="44" x2="${x}" y2="${y}" stroke="${t === 1 ? '#2d3748' : '#e2e8f0'}"/>`)
    out.push(`<text x="${x}" y="${y + 16}" text-anchor="middle" fill="#4a5568">${t < 1 ? `1/${1 / t}` : t}×</text>`)
  }
  out.push(...body)
  out.push('</svg>')
  return `${out.join('\n')}\n`
}
