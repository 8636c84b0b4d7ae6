import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Extension } from '../../../../lib/core/ws/extensions/extension.js'
import { formatExtension } from '../../../../lib/core/ws/extensions/format-extension.js'
import { parseExtensions } from '../../../../lib/core/ws/extensions/parse-extensions.js'

// RFC 9110 §5.6.2 token characters.
const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
const tokenArb = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 12 })

const extensionArb: fc.Arbitrary<Extension> = fc.record({
  name: tokenArb,
  params: fc.array(fc.record({ name: tokenArb, value: fc.option(tokenArb, { nil: undefined }) }).map((p) => ({ ...p })), { maxLength: 5 }),
}).map((e) => ({ ...e }))

const spaceArb = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 2 })

test('parseExtensions ∘ formatExtension :: any list of extensions comes back as it was', () => {
  fc.assert(
    fc.property(fc.array(extensionArb, { maxLength: 4 }), spaceArb, (extensions, space) => {
      const header = extensions.map(formatExtension).join(`${space},${space}`)
      assert.equal(parseExtensions(header), E.right(extensions))
    }),
    { numRuns: 300 },
  )
})

test('parseExtensions :: a token value and the same value quoted parse alike', () => {
  fc.assert(
    fc.property(tokenArb, tokenArb, (name, value) => {
      assert.equal(parseExtensions(`x; ${name}="${value}"`), parseExtensions(`x; ${name}=${value}`))
    }),
    { numRuns: 200 },
  )
})

test('parseExtensions :: any text gives a value or an error, never an exception', () => {
  const textArb = fc.string({ unit: fc.constantFrom(...'ab;=," \\\t\u0001\u00e9x-', ...TCHARS.slice(0, 5)), maxLength: 40 })
  fc.assert(
    fc.property(textArb, (text) => {
      const out = parseExtensions(text)
      if (E.isLeft(out)) assert.ok(out.left.offset >= 0 && out.left.offset <= text.length)
    }),
    { numRuns: 1000 },
  )
})

test.run()
