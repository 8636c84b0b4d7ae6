/**
 * The requests a node has asked and not yet fully answered: each waits for the nodes that
 * were alive when it was asked, and settles when all of them have answered or its time
 * bound runs out, naming those that did not. Answers that come late are dropped.
 */
import type { ClusterReplies, ClusterReply } from '../engine/cluster/cluster-adapter.js'
import type { TimerId, Timers } from '../engine/platform.js'

interface Waiting {
  readonly expected: ReadonlySet<string>
  readonly replies: ClusterReply[]
  readonly timer: TimerId
  readonly resolve: (replies: ClusterReplies) => void
}

export class RequestTracker {
  private readonly waiting = new Map<number, Waiting>()
  private nextId = 1

  constructor(private readonly timers: Timers) {}

  /** A new request id (u32, wrapping) and the promise of its answers. */
  open(expected: readonly string[], timeoutMs: number): { readonly id: number; readonly answers: Promise<ClusterReplies> } {
    const id = this.nextId
    this.nextId = this.nextId >= 0xffff_ffff ? 1 : this.nextId + 1
    const answers = new Promise<ClusterReplies>((resolve) => {
      const timer = this.timers.setTimeout(() => this.settle(id), timeoutMs)
      this.waiting.set(id, { expected: new Set(expected), replies: [], timer, resolve })
    })
    return { id, answers }
  }

  /** An answer from `node`. */
  reply(id: number, node: string, body: unknown): void {
    const entry = this.waiting.get(id)
    if (entry === undefined || entry.replies.some((r) => r.node === node)) return
    entry.replies.push({ node, body })
    if ([...entry.expected].every((n) => entry.replies.some((r) => r.node === n))) this.settle(id)
  }

  /** Settles a request now with what it has (time is up, or it could not be sent). */
  settle(id: number): void {
    const entry = this.waiting.get(id)
    if (entry === undefined) return
    this.waiting.delete(id)
    this.timers.clearTimeout(entry.timer)
    const answered = new Set(entry.replies.map((r) => r.node))
    entry.resolve({ replies: entry.replies, missingNodes: [...entry.expected].filter((n) => !answered.has(n)) })
  }

  /** Settles every request (the node is closing). */
  settleAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id)
  }
}
