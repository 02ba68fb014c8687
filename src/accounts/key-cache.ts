import { type BoundedCache, boundedByCount } from '../cache/bounded-cache.js';
import type { KeyOwner } from './types.js';

interface Entry {
  owner: KeyOwner | null;
  storedAt: number;
}

/**
 * Answers of recent key lookups, by key digest (never the key), so a busy key costs one query per TTL
 * rather than one per request. Unknown keys are cached too, so a flood of well-formed made-up keys costs
 * the database no more than real ones. The TTL is given at each read because it depends on whether
 * revocations currently arrive by pub/sub.
 */
export class KeyCache {
  private readonly entries: BoundedCache<Entry>;
  /** Bumped by every invalidation: an answer read from the database before one is not kept. */
  private generation = 0;

  constructor(
    private readonly now: () => number,
    maxEntries: number,
  ) {
    this.entries = boundedByCount(maxEntries);
  }

  /** The cached answer if younger than `ttlMs`; undefined when there is none. */
  get(digest: string, ttlMs: number): KeyOwner | null | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (this.now() - entry.storedAt < ttlMs) return entry.owner;
    this.entries.delete(digest);
    return undefined;
  }

  /** Taken before a database lookup and handed to `set` with its answer. */
  mark(): number {
    return this.generation;
  }

  set(digest: string, owner: KeyOwner | null, mark: number): void {
    // A revocation may have arrived while the lookup ran, and the answer may predate it.
    if (mark !== this.generation) return;
    this.entries.set(digest, { owner, storedAt: this.now() });
  }

  invalidate(digest: string): void {
    this.generation++;
    this.entries.delete(digest);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
