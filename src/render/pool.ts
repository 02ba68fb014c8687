import { logError } from '../observe/log.js';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { RenderConfig } from '../model/render-config.js';
import { type FileFormat, FORMAT_NAMES } from '../model/vocabulary.js';
import { versionFor } from '../qr/encode.js';
import { symbolSize } from '../qr/version.js';
import { designLayout } from './layout.js';
import { observeRender, poolWait, since } from '../observe/metrics.js';
import { Recycler } from './recycle.js';
import { newStopFlag, raiseStopFlag } from './stop-flag.js';
import { isWorkerReady, type RenderOutcome, type RenderSuccess, type RenderTask, type WorkerReply } from './types.js';
import type { WorkerMemory } from './worker-memory.js';

export type PoolOptions = Pick<
  Config,
  | 'workers'
  | 'maxQueue'
  | 'queueWaitMs'
  | 'taskTimeoutMs'
  | 'workerHeapMb'
  | 'workerYoungMb'
  | 'heavyPixels'
  | 'heavyConcurrency'
  | 'recycleTasks'
  | 'recycleMb'
> & { batchWorkerSharePercent?: number };

export interface PoolStats {
  workers: number;
  /** Workers that have loaded their modules and take renders: all of them, but for a replacement starting. */
  ready: number;
  /** Renders holding a worker. */
  running: number;
  /** Renders waiting for a free worker. */
  queued: number;
  /** High-resolution renders running or waiting. */
  heavy: number;
  /** The anonymous Studio's renders running or waiting. */
  visitors: number;
  /** Bulk items holding a worker. */
  batch: number;
  completed: number;
  /** Renders whose client left while they ran: finished or stopped in their worker, which stayed. */
  abandoned: number;
  /** Workers retired by the recycler (recycle.ts) and replaced. */
  recycled: number;
  capacity: number;
}

const RETRY_AFTER = { 'Retry-After': '1' };

/** How a render is asked for. */
export interface RenderOptions {
  /** For the anonymous Studio (a relay signed for a visitor): at most half the workers, see `visitorCap`. */
  visitor?: boolean;
  /**
   * A bulk job's item (src/batch): it waits for a worker without a time limit and outside the queue's
   * length, and holds at most `batchCap` workers while single requests wait for one or have asked for one
   * within SINGLE_QUIET_MS.
   */
  batch?: boolean;
}

/**
 * How long after a single request asked for a render bulk items still keep to their share: a single request
 * arriving a moment after the last finds the workers outside the share free instead of waiting for a bulk item.
 */
export const SINGLE_QUIET_MS = 1000;

/** The workers bulk items may hold while single requests wait: the configured share, at least one. */
export const batchCap = (workers: number, sharePercent: number): number =>
  Math.max(1, Math.floor((workers * sharePercent) / 100));

/**
 * The anonymous Studio's renders running or waiting at once: half the workers (one with one or two), so
 * paying traffic always has the other half.
 */
export const visitorCap = (workers: number): number => Math.max(1, Math.floor(workers / 2));

/**
 * The canvas a render starts on, in pixels, by the sizing rule the render itself follows (layout.ts): what
 * tells a high-resolution render. A canvas set by pixelsPerModule grows with the symbol's version (the
 * content, eccLevel, minVersion) and with the frame, caption and rounded outline around the code. (The
 * guarantee may raise the ECC of a retry, which can grow it further.) A design whose layout is refused is
 * refused by its worker as it is laid out, before anything is drawn: it counts as no canvas.
 */
function canvasPixels(cfg: RenderConfig): number {
  try {
    const { width, height } = designLayout(cfg, symbolSize(versionFor(cfg.content, cfg.eccLevel, cfg.minVersion)));
    return width * height;
  } catch {
    return 0;
  }
}

/** A render admitted to the queue; `admit` hands it a worker's slot. */
interface Waiter {
  admit(): void;
}

/**
 * The main thread's face of the Piscina pool, and its admission queue. A render is handed to Piscina only
 * when a worker is free and has loaded its modules, so its time limit starts with the render itself: time
 * spent waiting, for a worker or for one to start, is never charged to it. Piscina hands its first workers
 * tasks before they have loaded (the tasks wait in the worker), so the service listens only once `ready`
 * has resolved; a replacement (a worker recycled or crashed) takes renders once it has loaded, by Piscina's
 * rule and by this pool's (`warm`). A full queue answers SERVER_BUSY at once, a wait longer than
 * `queueWaitMs` answers it then. High-resolution renders have their own smaller allowance, so a burst of
 * 4096 px exports cannot occupy every worker, and so have the anonymous Studio's (`visitorCap`), so paying
 * traffic is never starved by free previews. A client that goes away costs at most its render: the worker
 * is never terminated for it (see stop-flag.ts); only a render over its time limit costs a worker. A worker
 * the recycler finds due is retired between two of its renders, without failing any (see `retire`).
 */
export class RenderPool {
  readonly piscina: Piscina;
  /** Worker slots handed out: at most the warm workers. */
  private running = 0;
  private heavy = 0;
  private visitors = 0;
  /** Visitors' renders waiting for one of their share (takeVisitorSlot). */
  private readonly visitorLine: Waiter[] = [];
  /** Bulk items holding a worker, and those waiting for one (acquireBatchWorker). */
  private batchRunning = 0;
  private readonly batchLine: Waiter[] = [];
  private readonly batchCap: number;
  /** When a single request last asked for a render (performance.now()). */
  private lastSingleAt = Number.NEGATIVE_INFINITY;
  private abandoned = 0;
  private recycled = 0;
  /** The worker being retired: no render is handed to Piscina meanwhile. */
  private retiring: number | undefined;
  private readonly waiting: Waiter[] = [];
  private readonly recycler: Recycler;
  /**
   * Live workers that have loaded their modules (worker.ts posts WORKER_READY then), each until it exits:
   * as many renders as there are may hold a worker at once. While a replacement loads, its slot waits.
   */
  private readonly warm = new Set<number>();
  /** Settles once all the first workers are warm, or one has failed to start (`ready`). */
  private readonly started: Promise<void>;
  /** Resolves `started`; called whenever every worker is warm, so again (to no effect) after a replacement. */
  private allWarm: () => void = () => {};

  constructor(private readonly opts: PoolOptions) {
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./worker.js', import.meta.url)),
      minThreads: opts.workers,
      maxThreads: opts.workers,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.workerHeapMb, maxYoungGenerationSizeMb: opts.workerYoungMb },
    });
    this.batchCap = batchCap(opts.workers, opts.batchWorkerSharePercent ?? 50);
    this.recycler = new Recycler({ tasks: opts.recycleTasks, bytes: opts.recycleMb * 1024 * 1024 });
    this.piscina.on('message', (m: unknown) => {
      if (isWorkerReady(m)) this.warmed(m.threadId);
    });
    this.started = new Promise((resolve, reject) => {
      // A worker that fails while the pool starts (a module that cannot load) fails the start. Once all are
      // warm, a worker's error is left to Piscina's own handling, as before.
      const failed = (e: Error) => reject(e);
      this.piscina.on('error', failed);
      this.allWarm = () => {
        this.piscina.off('error', failed);
        resolve();
      };
    });
    // Read by `ready`; a start that fails before anyone waits for it is not an unhandled rejection.
    this.started.catch(() => {});
  }

  /**
   * Resolves once every worker has loaded its modules, so a render handed to the pool from then on runs at
   * once; rejects if a worker fails while starting.
   */
  ready(): Promise<void> {
    return this.started;
  }

  /** A worker has loaded its modules: it counts until it exits, and its slot goes to the next in line. */
  private warmed(threadId: number): void {
    const worker = this.piscina.threads.find((t) => t.threadId === threadId);
    if (!worker) return;
    this.warm.add(threadId);
    // Piscina's own listener, registered when it made the worker, has started the replacement by then.
    worker.once('exit', () => this.warm.delete(threadId));
    if (this.warm.size === this.opts.workers) this.allWarm();
    this.admitWaiting();
  }

  get capacity(): number {
    return this.opts.workers + this.opts.maxQueue;
  }

  stats(): PoolStats {
    return {
      workers: this.piscina.threads.length,
      ready: this.warm.size,
      running: this.running,
      queued: this.waiting.length,
      heavy: this.heavy,
      visitors: this.visitors,
      batch: this.batchRunning,
      completed: this.piscina.completed,
      abandoned: this.abandoned,
      recycled: this.recycled,
      capacity: this.capacity,
    };
  }

  /** Each live worker's memory, as it reported after its last task. */
  workerMemory(): WorkerMemory[] {
    return this.recycler.reports(this.threadIds());
  }

  private threadIds(): number[] {
    return this.piscina.threads.map((t) => t.threadId);
  }

  /**
   * Renders in a worker; throws ApiError for refusals, saturation, time-outs and crashed workers, and the
   * signal's reason once the client has gone.
   */
  async render(task: RenderTask, signal?: AbortSignal, options: RenderOptions = {}): Promise<RenderSuccess> {
    signal?.throwIfAborted();
    if (options.batch === true) {
      await this.acquireBatchWorker(signal);
      return this.dispatch(task, signal, true);
    }
    this.lastSingleAt = performance.now();
    if (this.running + this.waiting.length >= this.capacity)
      throw new ApiError('SERVER_BUSY', { headers: RETRY_AFTER });
    const visitor = options.visitor === true;
    if (visitor) {
      const waitForShare = this.takeVisitorSlot(signal);
      if (waitForShare) await waitForShare;
    }
    const isHeavy = canvasPixels(task.config) > this.opts.heavyPixels;
    if (isHeavy && this.heavy >= this.opts.heavyConcurrency) {
      if (visitor) this.releaseVisitorSlot();
      throw new ApiError('SERVER_BUSY', {
        message: 'Too many concurrent high-resolution renders; retry shortly.',
        headers: RETRY_AFTER,
      });
    }
    if (isHeavy) this.heavy++;
    try {
      const waitStart = performance.now();
      await this.acquireWorker(signal);
      poolWait.observe(since(waitStart));
      return await this.dispatch(task, signal);
    } finally {
      if (isHeavy) this.heavy--;
      if (visitor) this.releaseVisitorSlot();
    }
  }

  /**
   * One of the visitors' share of the workers (visitorCap): at once when one is free, else in a line of its
   * own, for at most the queue's wait, so that the Studio's renders of one page (a preview, a download, a
   * picker) take turns instead of failing; SERVER_BUSY past the wait, or at once when the line is as long as
   * the queue. Nothing to wait for (undefined) when a share was free: the render goes on without yielding.
   */
  private takeVisitorSlot(signal: AbortSignal | undefined): Promise<void> | undefined {
    if (this.visitors < visitorCap(this.opts.workers)) {
      this.visitors++;
      return undefined;
    }
    if (this.visitorLine.length >= this.capacity)
      return Promise.reject(
        new ApiError('SERVER_BUSY', {
          message: 'The Studio’s previews are using their share of the render workers; retry shortly.',
          headers: RETRY_AFTER,
        }),
      );
    // The slot is handed over as it is (releaseVisitorSlot): `visitors` counts it for the next in line.
    return this.waitInLine(
      this.visitorLine,
      signal,
      `No render worker of the Studio’s share was free within ${this.opts.queueWaitMs / 1000} s; retry shortly.`,
    );
  }

  private releaseVisitorSlot(): void {
    const next = this.visitorLine.shift();
    if (next) next.admit();
    else this.visitors--;
  }

  /** Takes a worker's slot, waiting in line for one if none is free. */
  private acquireWorker(signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.warm.size && this.retiring === undefined) {
      this.running++;
      return Promise.resolve();
    }
    return this.waitInLine(
      this.waiting,
      signal,
      `No render worker was free within ${this.opts.queueWaitMs / 1000} s; retry shortly.`,
    );
  }

  /**
   * A worker's slot for a bulk item: at once when one is free and the batch holds fewer than its share, or
   * no single request has asked for a render within SINGLE_QUIET_MS; else in the batch's own line, with no
   * time limit (admitWaiting). A bulk item holding its share finishes soon enough to look again.
   */
  private acquireBatchWorker(signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.warm.size && this.retiring === undefined && this.batchMayRun()) {
      this.running++;
      this.batchRunning++;
      return Promise.resolve();
    }
    // The slot is counted by admitWaiting as it admits.
    return this.waitInLine(this.batchLine, signal, undefined);
  }

  private batchMayRun(): boolean {
    if (this.batchRunning < this.batchCap) return true;
    return this.waiting.length === 0 && performance.now() - this.lastSingleAt > SINGLE_QUIET_MS;
  }

  /**
   * Waits in `line` until admitted, for at most the queue's wait (then SERVER_BUSY saying `busy`; no limit
   * without one), leaving the line when the client goes.
   */
  private waitInLine(line: Waiter[], signal: AbortSignal | undefined, busy: string | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const leave = (error: unknown) => {
        line.splice(line.indexOf(waiter), 1);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => {
        clearTimeout(timer);
        leave(signal?.reason);
      };
      const timer =
        busy === undefined
          ? undefined
          : setTimeout(
              () => leave(new ApiError('SERVER_BUSY', { message: busy, headers: RETRY_AFTER })),
              this.opts.queueWaitMs,
            );
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      line.push(waiter);
    });
  }

  /**
   * Passes a finished render's slot straight to the next in line, so no newcomer can take it first; while a
   * worker is being retired, the slot is kept back, and the last render to finish retires it.
   */
  private releaseWorker(batch: boolean): void {
    this.running--;
    if (batch) this.batchRunning--;
    this.admitWaiting();
    if (this.running === 0 && this.retiring !== undefined) void this.retire(this.retiring);
  }

  /**
   * Hands the free slots of warm workers to the renders in line, first come first served; bulk items take
   * one when no single request waits, or while they hold fewer than their share.
   */
  private admitWaiting(): void {
    while (this.retiring === undefined && this.running < this.warm.size) {
      if (this.batchLine.length > 0 && this.batchMayRun()) {
        this.running++;
        this.batchRunning++;
        this.batchLine.shift()!.admit();
      } else if (this.waiting.length > 0) {
        this.running++;
        this.waiting.shift()!.admit();
      } else return;
    }
  }

  /**
   * Replaces a worker the recycler found due. From the render that found it so, no render is handed to
   * Piscina; once every render running has finished, no worker has a task (Piscina may have given any
   * worker the last ones: it picks which), and the worker is terminated. Once Piscina has seen it exit and
   * started its replacement, renders are handed on again to the other workers, and to the replacement once it
   * has loaded its modules (`warmed`): none waits in Piscina for a worker still starting, its time limit
   * running. The pause lasts as long as the longest render then running.
   */
  private async retire(threadId: number): Promise<void> {
    try {
      const worker = this.piscina.threads.find((t) => t.threadId === threadId);
      if (worker) {
        const exited = once(worker, 'exit');
        await worker.terminate();
        await exited;
        this.recycled++;
      }
    } catch (e) {
      logError('retiring a render worker failed', e);
    } finally {
      this.retiring = undefined;
      this.admitWaiting();
    }
  }

  /** Runs a render that holds a worker's slot; its time limit starts here. */
  private async dispatch(task: RenderTask, signal: AbortSignal | undefined, batch = false): Promise<RenderSuccess> {
    // The client's signal never reaches Piscina, which would terminate the worker; it raises the stop flag.
    const stop = newStopFlag();
    const onAbort = () => raiseStopFlag(stop);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeout = AbortSignal.timeout(this.opts.taskTimeoutMs);
    const started = performance.now();
    let out: RenderOutcome;
    try {
      const transferList = [task.assets.logo, task.assets.background]
        .filter((b): b is Uint8Array => b !== undefined)
        .map((b) => b.buffer as ArrayBuffer);
      const { memory, ...outcome }: WorkerReply = await this.piscina.run(
        { ...task, stop },
        { signal: timeout, transferList },
      );
      out = outcome;
      // Decided before this render's slot is released (see releaseWorker and retire). A replacement that
      // has not yet reported may still be starting: one retirement waits for the last to be whole.
      if (this.recycler.note(memory) && this.retiring === undefined && this.recycler.allReported(this.threadIds()))
        this.retiring = memory.threadId;
    } catch (e) {
      const abandoned = signal?.aborted === true;
      observeRender(task, abandoned ? 'abandoned' : timeout.aborted ? 'timeout' : 'failed', since(started));
      if (abandoned) throw this.abandon(signal!);
      throw this.failure(e, timeout, task.config.fileFormat);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.releaseWorker(batch);
    }
    observeRender(task, signal?.aborted ? 'abandoned' : out, since(started));
    if (signal?.aborted) throw this.abandon(signal);
    if (!out.ok && out.internalError !== undefined) logError('render failed', out.internalError);
    if (!out.ok)
      throw new ApiError(out.code, {
        message: out.message,
        field: out.field,
        ...(out.failedDecoders && { extra: { failedDecoders: out.failedDecoders } }),
      });
    return out;
  }

  /** A render whose client left: whatever came back is discarded. */
  private abandon(signal: AbortSignal): unknown {
    this.abandoned++;
    return signal.reason;
  }

  private failure(e: unknown, timeout: AbortSignal, format: FileFormat): ApiError {
    if (timeout.aborted) {
      return new ApiError('OUTPUT_TOO_COMPLEX', {
        message: `The ${FORMAT_NAMES[format]} did not finish within its ${this.opts.taskTimeoutMs / 1000} s time budget. Use a smaller outputWidth, shorter content or simpler module shapes.`,
      });
    }
    // A worker that died (out of memory, killed) has already been replaced by Piscina.
    logError('render worker failed', e);
    return new ApiError('QR_GENERATION_FAILED', {
      message: 'The rendering worker failed; the request can be retried.',
    });
  }

  close(): Promise<void> {
    return this.piscina.destroy();
  }
}
