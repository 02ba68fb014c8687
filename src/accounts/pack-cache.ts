import { type BoundedCache, boundedByCount } from '../cache/bounded-cache.js';
import type { Pack } from './types.js';

/**
 * Active packs recently read, by customer, so that the gateway's check on every call (an active Studio
 * pack opens it) costs a query once per TTL, not once per request: on the embedded store a query runs on
 * the site's main thread (docs/design-decisions.md, "The consumer gateway"). A pack's end is kept with it, so the
 * end of its 12 months is exact; a refund through this instance forgets it at once, through another
 * within the TTL. Only active packs are kept: a customer who has just bought one is let in at once.
 */
export class ActivePackCache {
  private readonly entries: BoundedCache<{ pack: Pack; readAt: number }>;

  constructor(
    private readonly ttlMs: number,
    maxEntries: number,
  ) {
    this.entries = boundedByCount(maxEntries);
  }

  get(customerId: string, now: Date): Pack | undefined {
    const entry = this.entries.get(customerId);
    if (entry === undefined) return undefined;
    const t = now.getTime();
    if (t - entry.readAt < this.ttlMs && t >= entry.readAt && t < entry.pack.expiresAt.getTime()) return entry.pack;
    this.entries.delete(customerId);
    return undefined;
  }

  set(pack: Pack, now: Date): void {
    this.entries.set(pack.customerId, { pack, readAt: now.getTime() });
  }

  forget(customerId: string): void {
    this.entries.delete(customerId);
  }
}
