/**
 * Compares two V8 heap snapshots of a soak server (`bench/soak.ts --heap-dir`): object counts
 * and bytes by constructor, what grew most from the first to the second, and the largest
 * `Map`s, `Set`s and arrays of each with what holds them (owner constructor and property), so
 * a collection that grows per client, session, request or publish shows by name.
 *
 *   node --import tsx bench/soak/heap-diff.ts B-warm.heapsnapshot B-end.heapsnapshot [top]
 *
 * Node only (node:fs); reads the snapshot JSON whole (a few hundred MB of memory).
 */
import { readFileSync } from 'node:fs'

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[], ...unknown[]]; readonly edge_fields: string[]; readonly edge_types: [string[], ...unknown[]] } }
  readonly nodes: number[]
  readonly edges: number[]
  readonly strings: string[]
}

/** Counts and bytes by constructor, and the collections with their element counts and owners. */
interface Summary {
  readonly byName: Map<string, { count: number; bytes: number }>
  readonly collections: Map<string, { count: number; entries: number; biggest: number }>
}

const summarise = (file: string): Summary => {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
  const meta = heap.snapshot.meta
  const nf = meta.node_fields.length
  const ef = meta.edge_fields.length
  const [TYPE, NAME, SIZE, EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number]
  const [ETYPE, ENAME, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number]
  const nodeTypes = meta.node_types[0]
  const edgeTypes = meta.edge_types[0]
  const { nodes, edges, strings } = heap
  const count = nodes.length / nf
  const firstEdge = new Uint32Array(count + 1)
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e
    e += nodes[i * nf + EDGES]! * ef
    firstEdge[i + 1] = e
  }
  const typeOf = (i: number): string => nodeTypes[nodes[i * nf + TYPE]!]!
  const nameOf = (i: number): string => strings[nodes[i * nf + NAME]!]!
  const byName = new Map<string, { count: number; bytes: number }>()
  for (let i = 0; i < count; i++) {
    const type = typeOf(i)
    if (type !== 'object' && type !== 'closure' && type !== 'array' && type !== 'string' && type !== 'native') continue
    const key = type === 'object' ? nameOf(i) : type === 'closure' ? `${nameOf(i) || '(anonymous)'}()` : `(${type})`
    const entry = byName.get(key) ?? { count: 0, bytes: 0 }
    entry.count++
    entry.bytes += nodes[i * nf + SIZE]!
    byName.set(key, entry)
  }
  // A Map's or Set's entries live in its internal `table` array; an Array's in `elements`.
  const elementsOf = (i: number): number => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef) {
      if (edgeTypes[edges[e + ETYPE]!] !== 'internal') continue
      const edgeName = strings[edges[e + ENAME]!]
      if (edgeName === 'table' || edgeName === 'elements') return nodes[edges[e + ETO]! + SIZE]! / 8
    }
    return 0
  }
  const collections = new Map<string, { count: number; entries: number; biggest: number }>()
  for (let i = 0; i < count; i++) {
    if (typeOf(i) === 'hidden' || typeOf(i) === 'synthetic') continue
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef) {
      const kind = edgeTypes[edges[e + ETYPE]!]
      if (kind !== 'property' && kind !== 'context') continue
      const to = edges[e + ETO]! / nf
      const target = nameOf(to)
      if (typeOf(to) !== 'object' || (target !== 'Map' && target !== 'Set' && target !== 'Array')) continue
      const key = `${typeOf(i) === 'closure' ? `${nameOf(i) || '(anonymous)'}()` : nameOf(i)}.${strings[edges[e + ENAME]!]} (${target})`
      const size = elementsOf(to)
      const entry = collections.get(key) ?? { count: 0, entries: 0, biggest: 0 }
      entry.count++
      entry.entries += size
      entry.biggest = Math.max(entry.biggest, size)
      collections.set(key, entry)
    }
  }
  return { byName, collections }
}

const [first, second, topText] = process.argv.slice(2)
if (first === undefined || second === undefined) {
  console.error('usage: heap-diff.ts <first.heapsnapshot> <second.heapsnapshot> [top]')
  process.exit(2)
}
const top = Number(topText ?? 30)
const a = summarise(first)
const b = summarise(second)
const total = (s: Summary): { count: number; bytes: number } => [...s.byName.values()].reduce((t, e) => ({ count: t.count + e.count, bytes: t.bytes + e.bytes }), { count: 0, bytes: 0 })
const ta = total(a)
const tb = total(b)
console.log(`objects ${ta.count} -> ${tb.count}, self bytes ${(ta.bytes / 2 ** 20).toFixed(1)} -> ${(tb.bytes / 2 ** 20).toFixed(1)} MB`)
console.log(`\n## constructors that grew most (count), top ${top}`)
console.log('| constructor | count before | count after | Δ count | Δ KB |')
console.log('|---|--:|--:|--:|--:|')
const names = new Set([...a.byName.keys(), ...b.byName.keys()])
const rows = [...names].map((name) => {
  const x = a.byName.get(name) ?? { count: 0, bytes: 0 }
  const y = b.byName.get(name) ?? { count: 0, bytes: 0 }
  return { name, x, y, dc: y.count - x.count, db: y.bytes - x.bytes }
})
for (const r of rows.sort((p, q) => q.dc - p.dc).slice(0, top)) console.log(`| ${r.name.slice(0, 60)} | ${r.x.count} | ${r.y.count} | ${r.dc} | ${(r.db / 1024).toFixed(0)} |`)
console.log(`\n## collections (owner.property) whose entries grew most, top ${top} (entries: table/elements slots, all instances)`)
console.log('| owner.property (kind) | instances before → after | slots before → after | biggest before → after |')
console.log('|---|--:|--:|--:|')
const keys = new Set([...a.collections.keys(), ...b.collections.keys()])
const grown = [...keys].map((key) => {
  const x = a.collections.get(key) ?? { count: 0, entries: 0, biggest: 0 }
  const y = b.collections.get(key) ?? { count: 0, entries: 0, biggest: 0 }
  return { key, x, y, d: y.entries - x.entries }
})
for (const g of grown.sort((p, q) => q.d - p.d).slice(0, top)) console.log(`| ${g.key.slice(0, 80)} | ${g.x.count} → ${g.y.count} | ${g.x.entries.toFixed(0)} → ${g.y.entries.toFixed(0)} | ${g.x.biggest.toFixed(0)} → ${g.y.biggest.toFixed(0)} |`)
