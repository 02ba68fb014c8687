import { Doorkeeper } from './doorkeeper.js';

export interface BoundedCacheOptions<V> {
  /** The bytes all kept values may hold together; least recently used out past it. */
  maxBytes: number;
  /** The bytes one value holds, as counted against `maxBytes`. */
  sizeOf: (value: V) => number;
  /** A value larger than this is never kept; default a quarter of `maxBytes`. */
  maxEntryBytes?: number;
  /**
   * Admission on the second sighting: a value is kept only when its key was offered before within the
   * doorkeeper's window (doorkeeper.ts; DOORKEEPER_KEYS_PER_BYTE of `maxBytes`), so traffic of one-off keys
   * never evicts the keys that repeat. Absent: every value offered is kept.
   */
  admitOnSecondSighting?: boolean;
}

/**
 * Keys the doorkeeper remembers per generation, per byte of cache: one per KB, several times the entries the
 * cache can hold (a render or an answer of issue 17's mix holds 2–24 KB with its overhead), as TinyLFU sizes
 * its window; at least 1024.
 */
const DOORKEEPER_KEYS_PER_BYTE = 1 / 1024;

/**
 * Values kept by key in a bounded number of bytes, least recently used first out, with an optional
 * admission policy: the one store behind the engine's render cache (src/render/cache.ts), the site's
 * edge cache (src/gateway/edge-cache.ts), and the account store's key and active-pack caches (counted in
 * entries: `boundedByCount`).
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
    this.doorkeeper = options.admitOnSecondSighting
      ? new Doorkeeper(Math.max(1024, Math.ceil(options.maxBytes * DOORKEEPER_KEYS_PER_BYTE)))
      : undefined;
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

  /** Forgets `key`'s value (one no longer true). */
  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.bytes -= this.options.sizeOf(value);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
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

/** A cache of at most `maxEntries` values, least recently used first out. */
export const boundedByCount = <V>(maxEntries: number): BoundedCache<V> =>
  new BoundedCache<V>({ maxBytes: maxEntries, maxEntryBytes: 1, sizeOf: () => 1 });
