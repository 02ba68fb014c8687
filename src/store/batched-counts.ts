import { OutageLog } from '../outage.js';

/** A row of counts and how many times it was counted since the last write. */
export interface Counted<R> {
  row: R;
  n: number;
}

export interface BatchedCountsOptions<R> {
  /** Adds the counts to the store, in one statement. */
  write: (batch: Counted<R>[]) => Promise<void>;
  flushMs: number;
  /** A flush starts early once this many rows wait. Default: only on the timer. */
  maxPending?: number;
  /** What is counted, for the failure line: "usage counts". */
  what: string;
  log: (message: string) => void;
}

/**
 * Counts kept in memory on the request path (one map lookup and an increment, not a write) and added to
 * the store in one statement every `flushMs`. A flush that fails keeps its counts for the next one,
 * added to those counted meanwhile, and is logged once per outage. What a crash loses is what was
 * counted since the last flush: these counts feed charts and exports, never money (credits and quotas
 * are exact in their own tables).
 */
export class BatchedCounts<R> {
  private pending = new Map<string, Counted<R>>();
  private readonly timer: NodeJS.Timeout;
  private readonly outage: OutageLog;
  private flushing: Promise<void> | undefined;

  constructor(private readonly options: BatchedCountsOptions<R>) {
    this.outage = new OutageLog(options.log);
    this.timer = setInterval(() => void this.flush(), options.flushMs);
    this.timer.unref();
  }

  /** `n` counts (one by default) of the row `key` names, made by `make` if it is not waiting; returns the row, to update. */
  count(key: string, make: () => R, n = 1): R {
    const entry = this.pending.get(key);
    if (entry !== undefined) {
      entry.n += n;
      return entry.row;
    }
    const row = make();
    this.pending.set(key, { row, n });
    if (this.options.maxPending !== undefined && this.pending.size >= this.options.maxPending) void this.flush();
    return row;
  }

  /** Writes what has been counted; resolves once it is in the store (or kept for the next flush). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.options.write([...batch.values()]);
    } catch (e) {
      for (const [key, kept] of batch) {
        const since = this.pending.get(key);
        if (since === undefined) this.pending.set(key, kept);
        else since.n += kept.n;
      }
      this.outage.failed(() => `${this.options.what} could not be written (kept, retried): ${(e as Error).message}`);
      return;
    }
    this.outage.succeeded();
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
