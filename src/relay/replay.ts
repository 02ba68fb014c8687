import { logWarn } from '../observe/log.js';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.js';
import { RedisFallback } from '../redis.js';

/**
 * Where a relay verifier remembers the signed requests it has accepted, so the same request sent again
 * inside its time window is refused. An entry only has to outlive the window: after that the timestamp
 * check refuses the request anyway.
 */
export interface ReplayMemory {
  /**
   * Records `id` until `expiresAtSec` (unix seconds). True the first time; false while `id` is recorded
   * (a replay). Throws SERVER_BUSY when it cannot record.
   */
  firstSighting(id: string, expiresAtSec: number, nowSec: number): Promise<boolean>;
}

/**
 * Entries in this process, bounded. Ids are grouped by the second they expire in, so forgetting expired
 * ones costs only the expired ones; with a window of ±60 s there are at most about 120 groups. Full
 * (`capacity` live entries, ~150 bytes each), it refuses rather than forget an entry early, which would let
 * that request be replayed.
 */
export class InProcessReplayMemory implements ReplayMemory {
  private readonly expiries = new Map<string, number>();
  private readonly bySecond = new Map<number, string[]>();

  constructor(private readonly capacity = 500_000) {}

  async firstSighting(id: string, expiresAtSec: number, nowSec: number): Promise<boolean> {
    this.forgetExpired(nowSec);
    if (this.expiries.has(id)) return false;
    if (this.expiries.size >= this.capacity)
      throw new ApiError('SERVER_BUSY', {
        message: 'Too many relayed requests in the last minute; retry shortly.',
        headers: { 'Retry-After': '1' },
      });
    this.expiries.set(id, expiresAtSec);
    const group = this.bySecond.get(expiresAtSec);
    if (group) group.push(id);
    else this.bySecond.set(expiresAtSec, [id]);
    return true;
  }

  /** Live entries, for tests and monitoring. */
  get size(): number {
    return this.expiries.size;
  }

  private forgetExpired(nowSec: number): void {
    for (const [second, ids] of this.bySecond) {
      if (second > nowSec) continue;
      for (const id of ids) this.expiries.delete(id);
      this.bySecond.delete(second);
    }
  }
}

/**
 * Entries in Redis, shared by every engine: `SET <prefix><id> 1 EX <seconds left> NX` records and tests
 * in one atomic step. While Redis is down, this engine's own memory takes over (logged once per outage):
 * a replay to the same engine is still refused; one to another engine, or of a request first seen
 * before the outage, is not. That trade is deliberate: relays travel only between our own site and
 * engines, and refusing every consumer request during a Redis outage would cost more.
 */
export class RedisReplayMemory implements ReplayMemory {
  private readonly local: InProcessReplayMemory;
  private readonly fallback: RedisFallback;
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix?: string; capacity?: number; log?: (line: string) => void } = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'qrfarm:relay-seen:';
    this.local = new InProcessReplayMemory(options.capacity);
    this.fallback = new RedisFallback('relay signatures seen', options.log ?? logWarn);
  }

  firstSighting(id: string, expiresAtSec: number, nowSec: number): Promise<boolean> {
    return this.fallback.run(
      async () =>
        (await this.redis.set(`${this.keyPrefix}${id}`, '1', 'EX', Math.max(1, expiresAtSec - nowSec), 'NX')) === 'OK',
      () => this.local.firstSighting(id, expiresAtSec, nowSec),
    );
  }
}
