/**
 * The generated documents through real validators, for the specs: `@readme/openapi-parser`
 * (the OpenAPI 3.1 schema, plus its rules: unique operation ids, path parameters matching the
 * templates, …) and `@asyncapi/parser` (the AsyncAPI 3.0 schema and its Spectral rules: every
 * `$ref` resolving, an operation's messages being its channel's, …). Each answers the
 * problems found, one line each: errors and warnings (an AsyncAPI "information" or "hint",
 * such as "3.1.0 is out", is not a problem). Runs in Node, Bun and Deno.
 */
import { Parser } from '@asyncapi/parser'
import { validate } from '@readme/openapi-parser'

type OpenApiInput = Exclude<Parameters<typeof validate>[0], string>

/** The errors and warnings of an OpenAPI document (none: `[]`). */
export const openApiProblems = async (doc: unknown): Promise<string[]> => {
  // The validator dereferences the document it is given, in place: it gets a copy. A string
  // would be read as a file name, so the copy is an object.
  const result = await validate(JSON.parse(JSON.stringify(doc)) as OpenApiInput)
  const warnings = result.warnings.map((w) => `warning: ${w.message}`)
  return result.valid ? warnings : [...result.errors.map((e) => e.message), ...warnings]
}

// Spectral's DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint.
const WARNING = 1

/** The errors and warnings of an AsyncAPI document (none: `[]`); `parser` is made once per spec file (it is slow to build). */
export const asyncApiProblems = async (parser: Parser, doc: unknown): Promise<string[]> => {
  const diagnostics = await parser.validate(JSON.stringify(doc))
  return diagnostics.filter((d) => d.severity <= WARNING).map((d) => `${d.code} at ${d.path.join('/')}: ${d.message}`)
}

export { Parser as AsyncApiParser }
