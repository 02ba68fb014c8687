import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId } from 'node:worker_threads';
import { reloadables } from '../../wasm/index.js';
import { kernelMemoryBytes } from './kernel.js';

/**
 * What a render worker holds, by part, as it reports after each task. `externalBytes` is all memory V8 holds
 * outside its heap for this thread (ArrayBuffers and every WASM memory); `wasmBytes` the part of it each
 * WASM module the worker has loaded holds.
 */
export interface WorkerMemory {
  threadId: number;
  /** Tasks this worker has run. */
  tasks: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  wasmBytes: Record<string, number>;
}

let tasks = 0;

/**
 * External memory beyond the live WASM memories past which the worker collects at once. A high-resolution
 * render leaves its buffers, its own kernel instance (kernel.ts) and any codec instance just renewed as
 * garbage that V8, its heap small, may keep for many renders (docs/design-decisions.md, "Memory"); an 800 px
 * render leaves a few MB.
 */
const COLLECT_ABOVE_BYTES = 64 * 1024 * 1024;

setFlagsFromString('--expose-gc');
/** V8's full collection, for this thread. */
const collect = runInNewContext('gc') as () => void;

/**
 * The heap and external memory of this thread: V8's own counters, the same figures `process.memoryUsage()`
 * gives without the resident-set read it adds, a measurable share of a plain render's worker time at two calls
 * a task (docs/design-decisions.md, "Memory").
 */
const heap = () => {
  const h = getHeapStatistics();
  return { heapUsed: h.used_heap_size, heapTotal: h.total_heap_size, external: h.external_memory };
};

const wasmNow = () => {
  const wasmBytes: Record<string, number> = { kernel: kernelMemoryBytes() };
  for (const [name, m] of Object.entries(reloadables)) if (m.bytes) wasmBytes[name] = m.bytes;
  return wasmBytes;
};

/**
 * Called at the end of each task: a fresh instance of any WASM module grown past its limit, a full
 * collection if the task left much garbage outside the heap, then the report.
 */
export async function afterTask(): Promise<WorkerMemory> {
  tasks++;
  await Promise.all(Object.values(reloadables).map((m) => m.renewIfGrown()));
  let wasmBytes = wasmNow();
  const wasmTotal = () => Object.values(wasmBytes).reduce((a, b) => a + b, 0);
  if (heap().external - wasmTotal() > COLLECT_ABOVE_BYTES) {
    // A renewed module's old instance is still reachable until this turn of the event loop ends; and the
    // first collection may leave freed WASM memories counted (docs/design-decisions.md, "Memory").
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    collect();
    wasmBytes = wasmNow();
  }
  const { heapUsed, heapTotal, external } = heap();
  return { threadId, tasks, heapUsedBytes: heapUsed, heapTotalBytes: heapTotal, externalBytes: external, wasmBytes };
}
