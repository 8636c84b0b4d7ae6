/**
 * `resolvePointer`: the value at a local JSON pointer of a generated document, for the specs.
 * (The documents themselves are checked by real validators: spec/support/validate-documents.ts.)
 */

type Node = unknown

const isRecord = (v: Node): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The value at a local JSON pointer (`#/a/b`), or undefined. */
export const resolvePointer = (doc: Node, pointer: string): Node => {
  if (!pointer.startsWith('#/')) return undefined
  let at: Node = doc
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isRecord(at) && !Array.isArray(at)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}
