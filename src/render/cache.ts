import type { RenderSuccess } from './types.js';

/**
 * Renders kept for identical requests, least recently used first out, bounded by the bytes of output
 * held. A render is a pure function of its request, so a hit is exactly what a new render would return.
 */
export class RenderCache {
  private readonly entries = new Map<string, RenderSuccess>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

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
    this.entries.set(key, value);
    this.bytes += value.bytes.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.bytes.byteLength;
    }
  }

  stats() {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
