import { logWarn } from '../observe/log.js';
import PgBoss from 'pg-boss';
import type { BatchSettings } from '../config.js';
import type { Db } from '../store/index.js';

/** The pg-boss queue every engine takes chunks of bulk items from. */
const QUEUE = 'qr-batch';
/** Key of the advisory lock an engine holds while it installs the queue (the store's migrations use another). */
const QUEUE_INSTALL_LOCK = 0x71_72_62_71; // "qrbq"

/** An item as queued: its row, the file it becomes, and its own fields (content and overrides). */
export interface QueuedItem {
  row: number;
  filename: string;
  fields: Record<string, unknown>;
}

/** What one queue task carries: some items of one job (its design is in the store, once). */
export interface Chunk {
  jobId: string;
  items: QueuedItem[];
}

export interface TakenChunk {
  /** The queue's id of the task, to complete it. */
  id: string;
  chunk: Chunk;
}

/**
 * pg-boss's SQL through the store's connection: on PGlite (one connection, in this process) and PostgreSQL
 * alike. Its multi-statement scripts (schema creation and maintenance, each wrapped in BEGIN … COMMIT under
 * an advisory lock) go through `exec`, which runs several statements; everything else, parameterised, through
 * `query`.
 */
function bossDb(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (/^\s*BEGIN\b/i.test(text)) {
        await db.exec(text);
        return { rows: [] };
      }
      return db.query(text, values);
    },
  };
}

/**
 * The bulk queue on pg-boss (README, "Bulk jobs": why pg-boss rather than BullMQ), in its own schema of the
 * store: `batch_queue`, or `<schema>_queue` beside a PostgreSQL schema. A chunk an engine took is its own
 * (pg-boss's fetch: FOR UPDATE SKIP LOCKED) until it completes it or `chunkExpireSeconds` pass: then pg-boss's
 * maintenance, run by every engine, fails it and it is taken again, by any engine.
 */
export class BatchQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly chunkItems: number,
  ) {}

  static async open(db: Db, schema: string | undefined, settings: BatchSettings): Promise<BatchQueue> {
    const boss = new PgBoss({
      db: bossDb(db),
      schema: schema === undefined ? 'batch_queue' : `${schema}_queue`,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: Math.max(1, Math.min(120, Math.ceil(settings.chunkExpireSeconds / 2))),
    });
    boss.on('error', (e: Error) => logWarn(`bulk queue: ${e.message}`));
    const install = async () => {
      await boss.start();
      await boss.createQueue(QUEUE, {
        name: QUEUE,
        expireInSeconds: settings.chunkExpireSeconds,
        // An engine dying with a chunk is an attempt; so many deaths in a row mean the chunk itself is at fault.
        retryLimit: 10,
        retryDelay: 0,
        retentionSeconds: settings.keepHours * 3600,
      });
    };
    // Engines starting together on one PostgreSQL would each find pg-boss's schema missing and create it:
    // its own advisory lock does not stop the second CREATE SCHEMA IF NOT EXISTS from failing on the
    // catalog's unique index. One engine at a time installs (this lock, held on a connection of its own
    // while pg-boss works on others); the next finds it installed. PGlite is one process's alone.
    if (db.kind === 'postgres') {
      await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_INSTALL_LOCK]);
        await install();
      });
    } else {
      await install();
    }
    return new BatchQueue(boss, settings.chunkItems);
  }

  /** Queues a job's items in chunks, in row order. */
  async enqueue(jobId: string, items: readonly QueuedItem[]): Promise<void> {
    const jobs: PgBoss.JobInsert<Chunk>[] = [];
    for (let i = 0; i < items.length; i += this.chunkItems)
      jobs.push({
        name: QUEUE,
        data: { jobId, items: items.slice(i, i + this.chunkItems) },
      } as PgBoss.JobInsert<Chunk>);
    // Inserted a few hundred at a time: one statement's parameters stay small.
    for (let i = 0; i < jobs.length; i += 200) await this.boss.insert(jobs.slice(i, i + 200));
  }

  /** The next chunk, now this engine's; undefined when none waits. */
  async take(): Promise<TakenChunk | undefined> {
    const [job] = await this.boss.fetch<Chunk>(QUEUE, { batchSize: 1 });
    return job === undefined ? undefined : { id: job.id, chunk: job.data };
  }

  /** A chunk whose every item is settled (or whose job has ended). */
  async complete(id: string): Promise<void> {
    await this.boss.complete(QUEUE, id);
  }

  /** Stops the maintenance; chunks taken and not completed are taken again once they expire. */
  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: false });
  }
}
