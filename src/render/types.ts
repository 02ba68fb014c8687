import type { WorkerMemory } from './worker-memory.js';
import type { ErrorCode } from '../errors.js';
import type { Correction, RenderAssets, RenderConfig } from '../model/render-config.js';
import type { EccLevel, FileFormat } from '../model/vocabulary.js';
import type { StopFlag } from './stop-flag.js';
import type { PrintCheck } from './print-check.js';
import type { Decoder, Verification } from './verify/index.js';

export interface RenderTask {
  config: RenderConfig;
  assets: RenderAssets;
  /** Raised by the pool when the client has gone; the worker stops at the next stage boundary. */
  stop?: StopFlag;
}

export interface RenderSuccess {
  ok: true;
  bytes: Uint8Array;
  format: FileFormat;
  contentType: string;
  width: number;
  height: number;
  version: number;
  eccLevel: EccLevel;
  mask: number;
  modulePx: number;
  verification: Verification;
  /** printCheck's answer, when the request asked. */
  print?: PrintCheck;
  corrections: Correction[];
  warnings: string[];
  timings: Record<string, number>;
}

/** An expected refusal. Errors cross the worker boundary as data, since thrown classes do not survive it. */
export interface RenderFailure {
  ok: false;
  code: ErrorCode;
  message: string;
  field?: string;
  /** QR_UNSCANNABLE: the decoder families that did not read the last attempt. */
  failedDecoders?: Decoder[];
  /** QR_GENERATION_FAILED: what was thrown in the worker, for the main thread's log (never the answer). */
  internalError?: string;
}

export type RenderOutcome = RenderSuccess | RenderFailure;

/** What a worker answers a task with: the outcome, and its memory after it (worker-memory.ts). */
export type WorkerReply = RenderOutcome & { memory: WorkerMemory };

/**
 * What a worker posts once it has loaded its modules (worker.ts), before it takes any task: the pool hands
 * it renders from then on (pool.ts).
 */
export const WORKER_READY = 'qrfarm:worker-ready';
export interface WorkerReady {
  type: typeof WORKER_READY;
  threadId: number;
}
export const isWorkerReady = (m: unknown): m is WorkerReady =>
  typeof m === 'object' && m !== null && (m as Partial<WorkerReady>).type === WORKER_READY;
