/**
 * The pure core runs unchanged in a browser: `core-smoke.ts` is bundled for the browser
 * platform (esbuild, no Node polyfills) and run in headless Chromium (Debian package
 * `chromium`, driven by playwright-core). Skipped with a reason when Chromium is missing
 * and `CI` is not set; with `CI` set a missing Chromium fails. Large masked frames go through
 * WebAssembly SIMD in the page, and through the JavaScript fallback with SIMD switched off.
 */
import { existsSync } from 'node:fs'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SmokeReport } from './core-smoke.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const NAME = 'core :: runs unchanged in a browser (Chromium, no Node globals)'
const inCi = (process.env.CI ?? '') !== ''

if (!existsSync(CHROMIUM) && !inCi) {
  console.log(`core-in-browser.spec: skipped: ${CHROMIUM} not found (install the Debian package "chromium"; with CI set this fails)`)
  test.skip(NAME, () => undefined)
} else {
  test(NAME, async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} not found, and CI is set: .ci/run must install the Debian package "chromium"`)
    const bundle = await build({
      entryPoints: ['spec/browser/core-smoke.ts'],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'twinportSmoke',
      platform: 'browser',
      logLevel: 'silent',
    })
    const code = bundle.outputFiles[0]?.text ?? ''
    assert.ok(code.length > 0, 'bundled')
    assert.not.match(code, /require\("node:/, 'the bundle asks for no node:* module')
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 })
    try {
      const page = await browser.newPage()
      page.setDefaultTimeout(10_000)
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.setContent('<!doctype html><title>core</title>')
      await page.addScriptTag({ content: code })
      const report = await page.evaluate(() => (globalThis as unknown as { twinportSmoke: { run(): SmokeReport } }).twinportSmoke.run())
      console.log(`core-in-browser.spec: masking path for payloads over 64 bytes in Chromium: ${report.maskPath}`)
      assert.equal(report.failures, [])
      // Chromium has had WebAssembly SIMD since version 91: the fast path must be the one taken.
      assert.is(report.maskPath, 'simd', 'Chromium masks large payloads through WebAssembly SIMD')
      assert.equal(errors, [])
    } finally {
      await browser.close()
    }
  })
}

test.run()
