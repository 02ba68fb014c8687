import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { RenderOutcome, RenderSuccess, RenderTask } from './types.js';

export type PoolOptions = Pick<
  Config,
  'workers' | 'maxQueue' | 'taskTimeoutMs' | 'workerHeapMb' | 'workerYoungMb' | 'heavyPixels' | 'heavyConcurrency'
>;

export interface PoolStats {
  workers: number;
  running: number;
  queued: number;
  heavy: number;
  completed: number;
  capacity: number;
}

const RETRY_AFTER = { 'Retry-After': '1' };

/** The canvas size a config asks for, before encoding: enough to tell a high-resolution render. */
const requestedPixels = (task: RenderTask): number => {
  const c = task.config;
  const w = c.outputWidth ?? (c.pixelsPerModule ? c.pixelsPerModule * 60 : 800);
  return w * (c.outputHeight ?? w);
};

/**
 * The main thread's face of the Piscina pool. Admission is decided here, synchronously, from a count of
 * renders in flight: a saturated pool answers SERVER_BUSY at once, never after a timeout. High-resolution
 * renders have their own smaller allowance so a burst of 4096 px exports cannot starve the rest.
 */
export class RenderPool {
  readonly piscina: Piscina;
  private inFlight = 0;
  private heavy = 0;

  constructor(private readonly opts: PoolOptions) {
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./worker.js', import.meta.url)),
      minThreads: opts.workers,
      maxThreads: opts.workers,
      maxQueue: opts.maxQueue,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.workerHeapMb, maxYoungGenerationSizeMb: opts.workerYoungMb },
    });
  }

  get capacity(): number {
    return this.opts.workers + this.opts.maxQueue;
  }

  stats(): PoolStats {
    return {
      workers: this.piscina.threads.length,
      running: this.inFlight - this.piscina.queueSize,
      queued: this.piscina.queueSize,
      heavy: this.heavy,
      completed: this.piscina.completed,
      capacity: this.capacity,
    };
  }

  /** Renders in a worker; throws ApiError for refusals, saturation, time-outs and crashed workers. */
  async render(task: RenderTask, signal?: AbortSignal): Promise<RenderSuccess> {
    if (this.inFlight >= this.capacity) throw new ApiError('SERVER_BUSY', { headers: RETRY_AFTER });
    const isHeavy = requestedPixels(task) > this.opts.heavyPixels;
    if (isHeavy && this.heavy >= this.opts.heavyConcurrency) {
      throw new ApiError('SERVER_BUSY', {
        message: 'Too many concurrent high-resolution renders; retry shortly.',
        headers: RETRY_AFTER,
      });
    }
    this.inFlight++;
    if (isHeavy) this.heavy++;
    const timeout = AbortSignal.timeout(this.opts.taskTimeoutMs);
    try {
      const transferList = [task.assets.logo, task.assets.background]
        .filter((b): b is Uint8Array => b !== undefined)
        .map((b) => b.buffer as ArrayBuffer);
      const out: RenderOutcome = await this.piscina.run(task, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        transferList,
      });
      if (!out.ok)
        throw new ApiError(out.code, {
          message: out.message,
          field: out.field,
          ...(out.failedDecoders && { extra: { failedDecoders: out.failedDecoders } }),
        });
      return out;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (timeout.aborted) {
        throw new ApiError('OUTPUT_TOO_COMPLEX', {
          message: `The render did not finish within ${this.opts.taskTimeoutMs / 1000} s. Export PNG, use a smaller outputWidth or shorter content.`,
        });
      }
      if (signal?.aborted) throw new ApiError('INTERNAL_ERROR', { message: 'The client went away.' });
      if ((e as Error).message === 'Task queue is at limit')
        throw new ApiError('SERVER_BUSY', { headers: RETRY_AFTER });
      // A worker that died (out of memory, killed) has already been replaced by Piscina.
      console.error('render worker failed:', (e as Error).message);
      throw new ApiError('QR_GENERATION_FAILED', {
        message: 'The rendering worker failed; the request can be retried.',
      });
    } finally {
      this.inFlight--;
      if (isHeavy) this.heavy--;
    }
  }

  close(): Promise<void> {
    return this.piscina.destroy();
  }
}
