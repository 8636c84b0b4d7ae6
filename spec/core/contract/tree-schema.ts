/**
 * A Zod schema that refers to itself (a tree of named nodes), for the document specs: both
 * the OpenAPI and the AsyncAPI one check that such a schema gets a place in components.
 */
import { z } from 'zod'

export interface Tree {
  readonly name: string
  readonly children: readonly Tree[]
}

export const Tree: z.ZodType<Tree> = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree)
  },
})
