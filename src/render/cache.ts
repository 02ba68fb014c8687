import { Doorkeeper } from './doorkeeper.js';
import type { RenderSuccess } from './types.js';

/**
 * Keys the doorkeeper remembers per generation, per byte of cache: one per KB, about ten per entry the
 * cache can hold (issue 17's mix averages about 11 KB a render), TinyLFU's window.
 */
const DOORKEEPER_KEYS_PER_BYTE = 1 / 1024;

/**
 * Renders kept for identical requests, least recently used first out, bounded by the bytes of output
 * held. A render is a pure function of its request, so a hit is exactly what a new render would return.
 *
 * Admission: a render is kept only on the second sighting of its key within the doorkeeper's window
 * (doorkeeper.ts), so traffic of one-off designs, which are never asked for again, leaves the cache as it
 * was instead of evicting the designs that repeat; a repeated design is rendered twice and served from the
 * cache from its third request on.
 */
export class RenderCache {
  private readonly entries = new Map<string, RenderSuccess>();
  private readonly doorkeeper: Doorkeeper;
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** Renders not kept: the first sighting of their key. */
  declined = 0;

  constructor(private readonly maxBytes: number) {
    this.doorkeeper = new Doorkeeper(Math.max(1024, Math.ceil(maxBytes * DOORKEEPER_KEYS_PER_BYTE)));
  }

  get(key: string): RenderSuccess | undefined {
    const hit = this.entries.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, value: RenderSuccess): void {
    if (value.bytes.byteLength > this.maxBytes / 4 || this.entries.has(key)) return;
    if (!this.doorkeeper.sighted(key)) {
      this.declined++;
      return;
    }
    this.entries.set(key, value);
    this.bytes += value.bytes.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.bytes.byteLength;
    }
  }

  stats() {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      hits: this.hits,
      misses: this.misses,
      declined: this.declined,
      doorkeeperBytes: this.doorkeeper.bytes,
    };
  }
}
