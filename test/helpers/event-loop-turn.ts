/**
 * Every test file's setup: after each test, one turn of the event loop. A file whose tests await only
 * promises (WASM renders, decoders, synchronous Ghostscript calls) never lets Node read the messages vitest's
 * parent process answers with, so a run of such tests longer than vitest's RPC timeout (60 s) ends in
 * "Timeout calling onTaskUpdate" although every test passed (test/render/vector-check.test.ts did alone).
 */
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
