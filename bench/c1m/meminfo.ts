/**
 * Machine memory for bench/c1m: the fields of `/proc/meminfo` the harness needs (total,
 * available, kernel slab), the TCP socket-buffer pages of `/proc/net/sockstat`, the open-file
 * limit of `/proc/self/limits` and the ListenOverflows counter of `/proc/net/netstat`. The
 * parsers are pure; the reader does synchronous file reads. Linux only.
 */
import { readFileSync } from 'node:fs'

/** Bytes, from /proc/meminfo and /proc/net/sockstat. */
export interface MemInfo {
  readonly total: number
  readonly available: number
  /** kernel slab memory (all), and its unreclaimable part */
  readonly slab: number
  readonly sunreclaim: number
  /** TCP socket buffers (`TCP: ... mem <pages>` of sockstat), in bytes */
  readonly tcpMem: number
}

const kib = (text: string, field: string): number => {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text)
  return m?.[1] === undefined ? 0 : Number(m[1]) * 1024
}

/** The figures of `/proc/meminfo`'s text and `/proc/net/sockstat`'s (4 KiB pages). */
export const parseMemInfo = (meminfo: string, sockstat: string): MemInfo => {
  const pages = /^TCP:.*\bmem (\d+)/m.exec(sockstat)?.[1]
  return {
    total: kib(meminfo, 'MemTotal'),
    available: kib(meminfo, 'MemAvailable'),
    slab: kib(meminfo, 'Slab'),
    sunreclaim: kib(meminfo, 'SUnreclaim'),
    tcpMem: pages === undefined ? 0 : Number(pages) * 4096,
  }
}

/** The machine's memory now. */
export const readMemInfo = (): MemInfo => {
  const read = (p: string): string => {
    try {
      return readFileSync(p, 'utf8')
    } catch {
      return ''
    }
  }
  return parseMemInfo(read('/proc/meminfo'), read('/proc/net/sockstat'))
}

/** The soft open-file limit in `/proc/self/limits`' text (`Max open files`), or `undefined`. */
export const parseOpenFileLimit = (limits: string): number | undefined => {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits)
  if (m?.[1] === undefined) return undefined
  return m[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(m[1])
}

/** `ListenOverflows` of `/proc/net/netstat`'s text (TcpExt: a header line, then a value line). */
export const parseListenOverflows = (netstat: string): number => {
  const lines = netstat.split('\n').filter((l) => l.startsWith('TcpExt:'))
  const names = lines[0]?.split(/\s+/) ?? []
  const values = lines[1]?.split(/\s+/) ?? []
  const at = names.indexOf('ListenOverflows')
  return at < 0 ? 0 : Number(values[at] ?? 0)
}

/** The kernel's ListenOverflows counter now (this network namespace). */
export const readListenOverflows = (): number => {
  try {
    return parseListenOverflows(readFileSync('/proc/net/netstat', 'utf8'))
  } catch {
    return 0
  }
}
