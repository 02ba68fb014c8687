import type { WorkerMemory } from './worker-memory.js';

/**
 * Consecutive reports a worker's memory must stay over the limit before it is retired: one large render
 * takes memory that the next collection gives back, and must not cost a worker.
 */
export const SUSTAINED_REPORTS = 16;

/** When a worker is retired: after `tasks` tasks, or once it holds over `bytes` for SUSTAINED_REPORTS reports; 0 turns either off. */
export interface RecyclePolicy {
  tasks: number;
  bytes: number;
}

/**
 * The backstop against whatever memory a worker keeps that its own renewals (wasm/reloadable.ts) do not give
 * back: reads the report each worker sends with every task, keeps the latest per worker for the ping, and
 * says when a worker is due to be replaced. The pool (pool.ts) does the replacing.
 */
export class Recycler {
  private readonly latest = new Map<number, WorkerMemory>();
  private readonly overFor = new Map<number, number>();

  constructor(private readonly policy: RecyclePolicy) {}

  /** Records a worker's report; true when that worker is due. */
  note(m: WorkerMemory): boolean {
    this.latest.set(m.threadId, m);
    const held = m.heapTotalBytes + m.externalBytes;
    const over = this.policy.bytes > 0 && held > this.policy.bytes ? (this.overFor.get(m.threadId) ?? 0) + 1 : 0;
    this.overFor.set(m.threadId, over);
    return (this.policy.tasks > 0 && m.tasks >= this.policy.tasks) || over >= SUSTAINED_REPORTS;
  }

  /** Whether every one of these workers has reported, so each has finished starting. */
  allReported(threadIds: number[]): boolean {
    return threadIds.every((id) => this.latest.has(id));
  }

  /** The latest report of each of these workers (the live ones); the others' are dropped. */
  reports(threadIds: number[]): WorkerMemory[] {
    for (const id of this.latest.keys()) {
      if (!threadIds.includes(id)) {
        this.latest.delete(id);
        this.overFor.delete(id);
      }
    }
    return threadIds.flatMap((id) => this.latest.get(id) ?? []);
  }
}
