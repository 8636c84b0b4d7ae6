/**
 * Waiting on a child process in specs that start an example as a process: for a line it
 * prints, and for its exit. Every wait is bounded, so a broken example fails the spec
 * instead of hanging the suite.
 */
import type { ChildProcess } from 'node:child_process'

/** How long a process may take to print or to exit. */
export const WAIT_MS = 15_000

/** Resolves with the first match of `pattern` in what the process prints (stdout and stderr). */
export const waitForOutput = (child: ChildProcess, pattern: RegExp, ms = WAIT_MS): Promise<RegExpExecArray> =>
  new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms; printed: ${seen}`)), ms)
    const look = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const match = pattern.exec(seen)
      if (match === null) return
      clearTimeout(timer)
      resolve(match)
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
  })

/** Resolves with the exit code once the process has exited. */
export const exitCodeOf = (child: ChildProcess, ms = WAIT_MS): Promise<number | null> =>
  new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    const timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })
