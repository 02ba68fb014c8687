/**
 * Piscina worker entry: instantiates every WASM module once, then renders tasks. Expected refusals come
 * back as data (RenderFailure); the output bytes are transferred to the main thread, not copied.
 */
import { Piscina } from 'piscina';
import { initWasm } from '../../wasm/index.js';
import { isApiError } from '../errors.js';
import { render } from './guarantee.js';
import { RenderStopped } from './stop-flag.js';
import type { RenderOutcome, RenderTask } from './types.js';

await initWasm();

const movable = (value: RenderOutcome, transfer: ArrayBuffer[]) =>
  Piscina.move({ [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: value } as never);

export default async function renderTask(task: RenderTask): Promise<RenderOutcome> {
  try {
    const out = await render(task);
    if (!out.ok) return out;
    // Transfer needs a buffer the result owns whole; a view into a shared pool must be copied first.
    const bytes =
      out.bytes.byteOffset === 0 && out.bytes.byteLength === out.bytes.buffer.byteLength
        ? out.bytes
        : out.bytes.slice();
    return movable({ ...out, bytes }, [bytes.buffer as ArrayBuffer]) as unknown as RenderOutcome;
  } catch (e) {
    // Stopped for a client that left: the pool discards whatever comes back, and this worker stays.
    if (e instanceof RenderStopped) throw e;
    if (isApiError(e)) return { ok: false, code: e.code, message: e.message, field: e.field };
    console.error('render failed:', e);
    return { ok: false, code: 'QR_GENERATION_FAILED', message: 'The rendering engine failed on this design.' };
  }
}
