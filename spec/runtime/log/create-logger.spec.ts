import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { colorize } from '../../../lib/runtime/log/ansi-colors.js'
import { createLogger, type ConsoleStream } from '../../../lib/runtime/log/create-logger.js'

interface Sink extends ConsoleStream {
  readonly lines: string[]
}

const sink = (isTTY?: boolean): Sink => {
  const lines: string[] = []
  return { lines, isTTY, write: (text: string) => lines.push(text) }
}

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'twinport-log-'))

const clock = (...isos: string[]) => {
  let i = 0
  return (): Date => new Date(isos[Math.min(i++, isos.length - 1)] as string)
}

test('createLogger :: console lines, error and above on stderr, no colours off a TTY', () => {
  const stdout = sink(false)
  const stderr = sink(undefined)
  const logger = createLogger({ stdout, stderr, now: clock('2024-05-01T12:00:00.000Z') })
  logger.info('hello {who}', { who: 'ada' })
  logger.debug('detail')
  logger.error('bad')
  logger.emergency('worse')
  assert.equal(stdout.lines, ['[2024-05-01T12:00:00.000Z] INFO: hello ada {"who":"ada"}\n', '[2024-05-01T12:00:00.000Z] DEBUG: detail\n'])
  assert.equal(stderr.lines, ['[2024-05-01T12:00:00.000Z] ERROR: bad\n', '[2024-05-01T12:00:00.000Z] EMERGENCY: worse\n'])
})

test('createLogger :: colours on a TTY, or when forced, and never when turned off', () => {
  const tty = sink(true)
  createLogger({ stdout: tty, stderr: tty, now: clock('2024-05-01T00:00:00.000Z') }).warning('w')
  assert.is(tty.lines[0], `${colorize('warning', '[2024-05-01T00:00:00.000Z] WARNING: w')}\n`)
  assert.ok(tty.lines[0]?.startsWith('\u001b[33m'))
  const forced = sink(false)
  createLogger({ stdout: forced, stderr: forced, colors: true }).info('i')
  assert.ok(forced.lines[0]?.startsWith('\u001b[32m'))
  const off = sink(true)
  createLogger({ stdout: off, stderr: off, colors: false }).info('i')
  assert.ok(!off.lines[0]?.includes('\u001b['))
})

test('createLogger :: the minimum level filters; console can be turned off', () => {
  const out = sink()
  const logger = createLogger({ stdout: out, stderr: out, minLevel: 'warning' })
  logger.info('dropped')
  logger.notice('dropped')
  logger.warning('kept')
  assert.is(out.lines.length, 1)
  const silent = sink()
  createLogger({ stdout: silent, stderr: silent, console: false }).error('x')
  assert.equal(silent.lines, [])
})

test('createLogger :: one file a day in the directory, appended', async () => {
  const dir = join(tempDir(), 'nested', 'logs')
  const out = sink()
  const logger = createLogger({ directory: dir, stdout: out, stderr: out, now: clock('2024-05-01T23:59:59.000Z', '2024-05-01T23:59:59.500Z', '2024-05-02T00:00:01.000Z') })
  logger.info('one')
  logger.exception(new Error('two'))
  logger.info('three')
  await logger.close()
  assert.equal(readdirSync(dir).sort(), ['2024-05-01.log', '2024-05-02.log'])
  const first = readFileSync(join(dir, '2024-05-01.log'), 'utf8')
  assert.ok(first.startsWith('[2024-05-01T23:59:59.000Z] INFO: one\n[2024-05-01T23:59:59.500Z] ERROR: two\nError: two\n'), first)
  assert.is(readFileSync(join(dir, '2024-05-02.log'), 'utf8'), '[2024-05-02T00:00:01.000Z] INFO: three\n')
  const again = createLogger({ directory: dir, console: false, now: clock('2024-05-02T08:00:00.000Z') })
  again.info('four')
  await again.close()
  assert.is(readFileSync(join(dir, '2024-05-02.log'), 'utf8'), '[2024-05-02T00:00:01.000Z] INFO: three\n[2024-05-02T08:00:00.000Z] INFO: four\n')
  rmSync(dir, { recursive: true, force: true })
})

test('createLogger :: separate files per level beside the daily file', async () => {
  const dir = tempDir()
  const logger = createLogger({ directory: dir, console: false, separateFiles: true, now: clock('2024-05-01T10:00:00.000Z') })
  logger.info('i')
  logger.error('e')
  logger.info('j')
  await logger.close()
  assert.equal(readdirSync(dir).sort(), ['2024-05-01.log', 'error-2024-05-01.log', 'info-2024-05-01.log'])
  assert.is(readFileSync(join(dir, 'info-2024-05-01.log'), 'utf8').split('\n').length, 3)
  assert.is(readFileSync(join(dir, '2024-05-01.log'), 'utf8').split('\n').length, 4)
  rmSync(dir, { recursive: true, force: true })
})

test('createLogger :: an unwritable file is reported once on stderr and logging goes on', async () => {
  const dir = tempDir()
  mkdirSync(join(dir, '2024-05-01.log'))
  const out = sink()
  const err = sink()
  const logger = createLogger({ directory: dir, stdout: out, stderr: err, now: clock('2024-05-01T10:00:00.000Z') })
  logger.info('a')
  // The open fails asynchronously; wait for its report (bounded, no clock involved).
  for (let i = 0; i < 10_000 && err.lines.length === 0; i++) await new Promise((resolve) => setImmediate(resolve))
  logger.info('b')
  await logger.close()
  assert.is(out.lines.length, 2)
  assert.is(err.lines.length, 1)
  assert.match(err.lines[0] ?? '', 'cannot write')
  rmSync(dir, { recursive: true, force: true })
})

test('createLogger :: defaults to the process streams and the real clock', () => {
  const logger = createLogger({ console: false })
  logger.info('nothing written anywhere')
  assert.type(logger.close, 'function')
})

test.run()
