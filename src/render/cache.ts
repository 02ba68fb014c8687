import { BoundedCache } from '../cache/bounded-cache.js';
import type { RenderSuccess } from './types.js';

/**
 * What an entry holds beyond its output bytes, counted against the bound with them: its key, its place in
 * the map and the result object the worker's reply was cloned into (the verification's readings and
 * trials, the stage timings). 1.4 KB measured on the main thread's heap over 20 000 clones of real renders
 * of each format: twice the bytes of a plain 800 px PNG.
 */
export const ENTRY_OVERHEAD_BYTES = 1536;

/**
 * Renders kept for identical requests, least recently used first out, bounded by the memory they hold (the
 * output's bytes and ENTRY_OVERHEAD_BYTES each). A render is a pure function of its request, so a hit is
 * exactly what a new render would return.
 *
 * Admission: a render is kept only on the second sighting of its key within the doorkeeper's window
 * (src/cache/doorkeeper.ts), so traffic of one-off designs, which are never asked for again, leaves the
 * cache as it was instead of evicting the designs that repeat; a repeated design is rendered twice and
 * served from the cache from its third request on.
 */
export class RenderCache extends BoundedCache<RenderSuccess> {
  constructor(maxBytes: number) {
    super({
      maxBytes,
      sizeOf: (value) => value.bytes.byteLength + ENTRY_OVERHEAD_BYTES,
      admitOnSecondSighting: true,
    });
  }
}
