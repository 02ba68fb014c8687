import { randomUUID } from 'node:crypto';
import type { BatchSettings } from '../config.js';
import type { Service } from '../service.js';
import type { Db } from '../store/index.js';
import { checkBatch } from './items.js';
import { cancelJob, createJob, failJob, type JobRow, jobOf } from './jobs.js';
import type { BatchInput } from './parse.js';
import { BatchQueue } from './queue.js';
import { BatchRunner } from './runner.js';
import { zipOfJob } from './zip.js';

export type { JobRow, JobStatus } from './jobs.js';
export { parseBatch } from './parse.js';
export { batchRoutes } from './routes.js';

/** Bulk jobs on an engine: submitting, following, cancelling, and the result; and the engine's share of the work. */
export interface BatchJobs {
  /** Queues a checked batch for `owner`; its job as it starts (done at once when every row was refused). */
  submit(owner: string, input: BatchInput): Promise<JobRow>;
  /** The owner's job; null for anyone else's or one removed. */
  job(id: string, owner: string): Promise<JobRow | null>;
  /** Cancels the owner's job if it is queued or running; its status afterwards, null when not theirs. */
  cancel(id: string, owner: string): Promise<JobRow | null>;
  /** The job's ZIP, made as it is read. */
  zip(id: string): AsyncGenerator<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Opens the bulk queue on the engine's store (PostgreSQL shared by every engine, or this engine's PGlite) and
 * starts taking chunks of any engine's jobs.
 */
export async function openBatchJobs(
  service: Service,
  db: Db,
  schema: string | undefined,
  settings: BatchSettings,
): Promise<BatchJobs> {
  const queue = await BatchQueue.open(db, schema, settings);
  const runner = new BatchRunner(service, db, queue, settings.pollMs);
  return {
    async submit(owner, input) {
      const { design, items, refused } = checkBatch(input);
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + settings.keepHours * 3600_000);
      await createJob(db, { id, owner, total: input.rows.length, design, expiresAt, refused });
      try {
        await queue.enqueue(id, items);
      } catch (e) {
        // Chunks queued before the failure find the job ended and are completed as they are.
        await failJob(db, id).catch(() => undefined);
        throw e;
      }
      runner.wake();
      return (await jobOf(db, id, owner))!;
    },
    job: (id, owner) => jobOf(db, id, owner),
    cancel: (id, owner) => cancelJob(db, id, owner),
    zip: (id) => zipOfJob(db, id),
    async close() {
      await runner.close();
      await queue.close();
    },
  };
}
