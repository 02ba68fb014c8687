import { Doorkeeper } from '../render/doorkeeper.js';

export interface BoundedCacheOptions<V> {
  /** The bytes all kept values may hold together; least recently used out past it. */
  maxBytes: number;
  /** The bytes one value holds, as counted against `maxBytes`. */
  sizeOf: (value: V) => number;
  /** A value larger than this is never kept; default a quarter of `maxBytes`. */
  maxEntryBytes?: number;
  /**
   * Admission on the second sighting: a value is kept only when its key was offered before within the
   * last `admitOnSecondSighting` to twice that many distinct keys (doorkeeper.ts), so traffic of one-off
   * keys never evicts the keys that repeat. Absent: every value offered is kept.
   */
  admitOnSecondSighting?: number;
}

/**
 * Values kept by key in a bounded number of bytes, least recently used first out, with an optional
 * admission policy: the one store behind the site's edge cache (src/gateway/edge-cache.ts), written so the
 * engine's render cache can sit on it too.
 */
export class BoundedCache<V> {
  /** In use order: a Map iterates in insertion order, and a read moves its entry to the end. */
  private readonly entries = new Map<string, V>();
  private readonly doorkeeper: Doorkeeper | undefined;
  private readonly maxEntryBytes: number;
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** Values offered and not kept: too large, or the first sighting of their key. */
  declined = 0;

  constructor(private readonly options: BoundedCacheOptions<V>) {
    this.maxEntryBytes = Math.min(options.maxBytes, options.maxEntryBytes ?? options.maxBytes / 4);
    this.doorkeeper =
      options.admitOnSecondSighting === undefined ? undefined : new Doorkeeper(options.admitOnSecondSighting);
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Offers `value` for `key`; whether it was kept. */
  set(key: string, value: V): boolean {
    const size = this.options.sizeOf(value);
    if (this.entries.has(key)) return true;
    if (size > this.maxEntryBytes || (this.doorkeeper !== undefined && !this.doorkeeper.sighted(key))) {
      this.declined++;
      return false;
    }
    this.entries.set(key, value);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= this.options.sizeOf(v);
    }
    return true;
  }

  stats() {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      hits: this.hits,
      misses: this.misses,
      declined: this.declined,
      doorkeeperBytes: this.doorkeeper?.bytes ?? 0,
    };
  }
}
