/**
 * Piscina worker entry: instantiates every WASM module once, says so to the pool, then renders tasks.
 * Expected refusals come back as data (RenderFailure); the output bytes are transferred to the main thread,
 * not copied. Every outcome carries the worker's memory report (worker-memory.ts), which the pool's
 * recycler reads.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { initWasm } from '../../wasm/index.js';
import { isApiError } from '../errors.js';
import { render } from './guarantee.js';
import { RenderStopped } from './stop-flag.js';
import { type RenderOutcome, type RenderTask, WORKER_READY, type WorkerReady, type WorkerReply } from './types.js';
import { afterTask } from './worker-memory.js';

await initWasm();
// Piscina relays it as a 'message' event, before its own word that this module has loaded: the pool counts
// this worker from then on (pool.ts, warmed).
parentPort?.postMessage({ type: WORKER_READY, threadId } satisfies WorkerReady);

const movable = (value: WorkerReply, transfer: ArrayBuffer[]) =>
  Piscina.move({ [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: value } as never);

export default async function renderTask(task: RenderTask): Promise<WorkerReply> {
  let out: RenderOutcome;
  try {
    out = await outcome(task);
  } catch (stopped) {
    // A stopped render may have grown a module all the same.
    await afterTask();
    throw stopped;
  }
  const memory = await afterTask();
  if (!out.ok) return { ...out, memory };
  // Transfer needs a buffer the result owns whole; a view into a shared pool must be copied first.
  const bytes =
    out.bytes.byteOffset === 0 && out.bytes.byteLength === out.bytes.buffer.byteLength ? out.bytes : out.bytes.slice();
  return movable({ ...out, bytes, memory }, [bytes.buffer as ArrayBuffer]) as unknown as WorkerReply;
}

async function outcome(task: RenderTask): Promise<RenderOutcome> {
  try {
    return await render(task);
  } catch (e) {
    // Stopped for a client that left: the pool discards whatever comes back, and this worker stays.
    if (e instanceof RenderStopped) throw e;
    if (isApiError(e)) return { ok: false, code: e.code, message: e.message, field: e.field };
    // Logged by the pool on the main thread, where the log's format (text or JSON) is configured.
    return {
      ok: false,
      code: 'QR_GENERATION_FAILED',
      message: 'The rendering engine failed on this design.',
      internalError: e instanceof Error ? (e.stack ?? e.message) : String(e),
    };
  }
}
