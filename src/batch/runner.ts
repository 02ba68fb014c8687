import { logWarn } from '../observe/log.js';
import { prepareGenerate } from '../api/generate.js';
import { isApiError } from '../errors.js';
import type { Service } from '../service.js';
import type { Db } from '../store/index.js';
import { designOf, removeExpiredJobs, type SettledItem, settleItems, settledRows } from './jobs.js';
import type { BatchQueue, Chunk, QueuedItem } from './queue.js';

/** Chunks an engine works on at once: while one finishes its last items, the next fills the workers. */
const LANES = 2;
/** Items stored in one statement: fewer round trips to the store, whose driver may share the main thread (PGlite). */
const SETTLE_BATCH = 8;
/** How often an engine removes jobs past their time (every engine does; the statement is idempotent). */
const CLEANUP_MS = 10 * 60_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Renders one item through the same preparation and pool as a single request, as a bulk item (its share of
 * the workers, RenderOptions.batch); its outcome, a refusal included, is what the manifest says.
 */
export async function renderItem(
  service: Service,
  design: Record<string, unknown>,
  item: QueuedItem,
  signal: AbortSignal,
): Promise<SettledItem> {
  const { filename: _, ...fields } = item.fields;
  const content = typeof fields.content === 'string' ? fields.content : '';
  const base = { row: item.row, filename: item.filename, content };
  try {
    const { prepared, assets } = await prepareGenerate(service, { ...design, ...fields }, {}, signal);
    const result = await service.pool.render({ config: prepared.config, assets }, signal, { batch: true });
    return {
      ...base,
      ok: true,
      verified: result.verification.decodedAt ?? 'no',
      scanScore: result.verification.scanScore,
      corrections: prepared.corrections.length + result.corrections.length,
      bytes: result.bytes,
    };
  } catch (e) {
    if (signal.aborted) throw e;
    if (isApiError(e)) return { ...base, ok: false, errorCode: e.code, errorMessage: e.message };
    return { ...base, ok: false, errorCode: 'QR_GENERATION_FAILED', errorMessage: 'The rendering engine failed.' };
  }
}

/**
 * Each engine's taker of bulk chunks: LANES loops, each taking a chunk from the queue, rendering its items
 * that are not settled yet (a chunk taken again after an engine died) as many at once as there are workers,
 * storing each as it comes, and completing the chunk. A cancelled or removed job's chunk is completed as it
 * is. An idle loop asks the queue again after `pollMs`, or at once when this engine queues a job (`wake`).
 */
export class BatchRunner {
  private readonly stop = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private wakers: (() => void)[] = [];
  private readonly cleanup: NodeJS.Timeout;

  constructor(
    private readonly service: Service,
    private readonly db: Db,
    private readonly queue: BatchQueue,
    private readonly pollMs: number,
  ) {
    for (let i = 0; i < LANES; i++) this.loops.push(this.loop());
    this.cleanup = setInterval(() => {
      removeExpiredJobs(db, new Date()).catch((e: Error) => logWarn(`removing expired bulk jobs: ${e.message}`));
    }, CLEANUP_MS);
    this.cleanup.unref();
  }

  /** Work has been queued: idle loops look at once. */
  wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => resolve();
      this.wakers.push(done);
      void sleep(this.pollMs, this.stop.signal).then(done);
    });
  }

  private async loop(): Promise<void> {
    const { signal } = this.stop;
    while (!signal.aborted) {
      try {
        const taken = await this.queue.take();
        if (taken === undefined) {
          await this.idle();
          continue;
        }
        await this.run(taken.chunk);
        if (!signal.aborted) await this.queue.complete(taken.id);
      } catch (e) {
        if (signal.aborted) return;
        logWarn(`bulk chunk failed: ${(e as Error).message}`);
        await sleep(this.pollMs, signal);
      }
    }
  }

  private async run(chunk: Chunk): Promise<void> {
    const job = await designOf(this.db, chunk.jobId);
    if (job === null || !job.active) return;
    const settled = await settledRows(
      this.db,
      chunk.jobId,
      chunk.items.map((i) => i.row),
    );
    const todo = chunk.items.filter((i) => !settled.has(i.row));
    // Twice the workers in flight, so a worker that finishes finds the next item already waiting in the pool's
    // bulk line while this thread stores the last one.
    const parallel = 2 * Math.max(1, this.service.config.workers);
    const pending: SettledItem[] = [];
    // Stores run one after another, beside the renders; a failed one fails the chunk (taken again later).
    let stored = Promise.resolve();
    const store = () => {
      const batch = pending.splice(0);
      if (batch.length > 0) stored = stored.then(() => settleItems(this.db, chunk.jobId, batch));
      return stored;
    };
    let next = 0;
    const worker = async () => {
      while (next < todo.length && !this.stop.signal.aborted) {
        const item = todo[next++]!;
        pending.push(await renderItem(this.service, job.design, item, this.stop.signal));
        if (pending.length >= SETTLE_BATCH) void store().catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, todo.length) }, worker));
    await store();
  }

  /** Stops taking chunks; those in hand are left to expire and be taken again. */
  async close(): Promise<void> {
    clearInterval(this.cleanup);
    this.stop.abort();
    this.wake();
    await Promise.allSettled(this.loops);
  }
}
