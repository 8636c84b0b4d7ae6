/**
 * Structural checks of generated OpenAPI 3.1 and AsyncAPI 3.0 documents, for the specs
 * (the real validators, @readme/openapi-parser and @asyncapi/parser, are not dev
 * dependencies yet): the required fields, every `$ref` resolving, path templates matched by
 * path parameters, operations tied to their channel's messages. Each returns the problems found.
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

const refsIn = (node: Node, at: string, into: { at: string; ref: string }[]): void => {
  if (Array.isArray(node)) node.forEach((item, i) => refsIn(item, `${at}/${i}`, into))
  else if (isRecord(node)) {
    if (typeof node['$ref'] === 'string') into.push({ at, ref: node['$ref'] })
    for (const [key, value] of Object.entries(node)) refsIn(value, `${at}/${key}`, into)
  }
}

const deref = (doc: Node, node: Node): Node => (isRecord(node) && typeof node['$ref'] === 'string' ? resolvePointer(doc, node['$ref']) : node)

const unresolved = (doc: Node): string[] => {
  const refs: { at: string; ref: string }[] = []
  refsIn(doc, '#', refs)
  return refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined).map(({ at, ref }) => `${at}: $ref ${ref} does not resolve`)
}

const info = (doc: Record<string, unknown>): string[] =>
  isRecord(doc['info']) && typeof doc['info']['title'] === 'string' && typeof doc['info']['version'] === 'string' ? [] : ['info needs title and version']

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Problems of an OpenAPI 3.1 document. */
export const checkOpenApi = (doc: Node): string[] => {
  if (!isRecord(doc)) return ['not an object']
  const problems = [...info(doc), ...unresolved(doc)]
  if (typeof doc['openapi'] !== 'string' || !/^3\.1\.\d+$/.test(doc['openapi'])) problems.push('openapi must be 3.1.x')
  if (!isRecord(doc['paths'])) return [...problems, 'paths must be an object']
  for (const [path, item] of Object.entries(doc['paths'])) {
    if (!path.startsWith('/')) problems.push(`${path}: a path starts with /`)
    if (!isRecord(item)) continue
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) problems.push(`${path}: ${method} is no method field`)
      if (!isRecord(op)) continue
      const where = `${method.toUpperCase()} ${path}`
      if (!isRecord(op['responses']) || Object.keys(op['responses']).length === 0) problems.push(`${where}: responses required`)
      else
        for (const [status, response] of Object.entries(op['responses'])) {
          if (!/^(default|[1-5](\d\d|XX))$/.test(status)) problems.push(`${where}: response key ${status}`)
          const resolved = deref(doc, response)
          if (!isRecord(resolved) || typeof resolved['description'] !== 'string') problems.push(`${where}: response ${status} needs a description`)
        }
      const parameters = Array.isArray(op['parameters']) ? op['parameters'].map((p) => deref(doc, p)).filter(isRecord) : []
      const seen = new Set<string>()
      for (const p of parameters) {
        const key = `${String(p['in'])}:${String(p['name'])}`
        if (seen.has(key)) problems.push(`${where}: parameter ${key} twice`)
        seen.add(key)
        if (!['path', 'query', 'header', 'cookie'].includes(String(p['in']))) problems.push(`${where}: parameter ${key}: bad in`)
        if (!('schema' in p) && !('content' in p)) problems.push(`${where}: parameter ${key} needs a schema`)
        if (p['in'] === 'path' && (p['required'] !== true || !templated.includes(String(p['name'])))) problems.push(`${where}: path parameter ${key} must be required and templated`)
      }
      for (const name of templated) if (!seen.has(`path:${name}`)) problems.push(`${where}: {${name}} has no path parameter`)
      if (op['requestBody'] !== undefined) {
        const body = deref(doc, op['requestBody'])
        if (!isRecord(body) || !isRecord(body['content'])) problems.push(`${where}: requestBody needs content`)
      }
    }
  }
  return problems
}

const KEY = /^[A-Za-z0-9.\-_]+$/

/** Problems of an AsyncAPI 3.0 document. */
export const checkAsyncApi = (doc: Node): string[] => {
  if (!isRecord(doc)) return ['not an object']
  const problems = [...info(doc), ...unresolved(doc)]
  if (doc['asyncapi'] !== '3.0.0') problems.push('asyncapi must be 3.0.0')
  const channels = isRecord(doc['channels']) ? doc['channels'] : {}
  for (const [key, channel] of Object.entries(channels)) {
    if (!KEY.test(key)) problems.push(`channel key ${key}`)
    if (!isRecord(channel)) continue
    if (!(typeof channel['address'] === 'string' || channel['address'] === null || channel['address'] === undefined)) problems.push(`${key}: address`)
    for (const [name, message] of Object.entries(isRecord(channel['messages']) ? channel['messages'] : {})) {
      if (!KEY.test(name)) problems.push(`${key}: message key ${name}`)
      const resolved = deref(doc, message)
      if (!isRecord(resolved) || !('payload' in resolved)) problems.push(`${key}/${name}: a message needs a payload`)
    }
  }
  for (const [key, op] of Object.entries(isRecord(doc['operations']) ? doc['operations'] : {})) {
    if (!KEY.test(key)) problems.push(`operation key ${key}`)
    if (!isRecord(op)) continue
    if (op['action'] !== 'send' && op['action'] !== 'receive') problems.push(`${key}: action must be send or receive`)
    const check = (owner: Node, where: string): void => {
      if (!isRecord(owner)) return
      const channelRef = isRecord(owner['channel']) ? owner['channel']['$ref'] : undefined
      if (typeof channelRef !== 'string' || !channelRef.startsWith('#/channels/')) return void problems.push(`${where}: channel must $ref a channel`)
      // AsyncAPI 3.0 §Operation: the messages must be messages of the operation's channel.
      for (const m of Array.isArray(owner['messages']) ? owner['messages'] : []) {
        const ref = isRecord(m) ? m['$ref'] : undefined
        if (typeof ref !== 'string' || !ref.startsWith(`${channelRef}/messages/`)) problems.push(`${where}: message ${String(ref)} is not of ${channelRef}`)
      }
    }
    check(op, key)
    if (op['reply'] !== undefined) check(op['reply'], `${key}.reply`)
  }
  return problems
}
