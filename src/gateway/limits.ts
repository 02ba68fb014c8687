import { logWarn } from '../observe/log.js';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DEFAULT_RATE_LIMITS, type LimitClass } from '../config.js';
import { ApiError } from '../errors.js';
import { RedisFallback } from '../redis.js';

export interface LimitDecision<C extends string = LimitClass> {
  allowed: boolean;
  limitClass: C;
  limit: number;
  windowSec: number;
  remaining: number;
  /** Seconds until the key's window for this class starts afresh. */
  resetSec: number;
  /**
   * For every answer counted (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` and `RateLimit`;
   * when refused, `Retry-After` too.
   */
  headers: Record<string, string>;
}

export interface WindowLimiterOptions<C extends string> {
  /** Requests per key per window, by class. */
  limits: Readonly<Record<C, number>>;
  /** Window length in seconds; 60 for the gateway, shorter in tests of the reset. */
  windowSec?: number;
  /** Shared counts in Redis (REDIS_URL); without it, counts are per process. */
  redis?: Redis;
  /** Prefix of the Redis keys (and of the in-process ones): `<prefix><class>:<key>`. */
  keyPrefix?: string;
  /** Where an outage of Redis is reported (once) and its end. Default the log's warning (observe/log.ts). */
  log?: (line: string) => void;
}

export type CustomerLimiterOptions = Partial<WindowLimiterOptions<LimitClass>>;

interface ClassLimiter {
  limit: number;
  local: RateLimiterMemory;
  shared: RateLimiterRedis | undefined;
}

type Outcome = { res: RateLimiterRes; allowed: boolean };

/** rate-limiter-flexible rejects with the counter's state when over the limit: that is an answer, not an error. */
const settle = (consumed: Promise<RateLimiterRes>): Promise<Outcome> =>
  consumed.then(
    (res) => ({ res, allowed: true }),
    (e: unknown) => {
      if (e instanceof RateLimiterRes) return { res: e, allowed: false };
      throw e;
    },
  );

/**
 * Fixed windows per key, one counter per class, with rate-limiter-flexible: RateLimiterMemory by default;
 * with Redis, RateLimiterRedis, whose one Lua script increments and reads a counter atomically, so several
 * site instances share one exact count. Redis down: each instance falls back to its own memory counters
 * (fail open: a key may then get up to the limit once per instance), logged once per outage; the shared
 * counts resume when Redis answers. The gateway counts customers (CustomerLimiter); the site counts
 * client addresses and e-mail addresses the same way (src/site/).
 */
export class WindowLimiter<C extends string> {
  private readonly classes: Record<C, ClassLimiter>;
  private readonly fallback: RedisFallback;

  constructor(options: WindowLimiterOptions<C>) {
    const duration = options.windowSec ?? 60;
    const keyPrefix = options.keyPrefix ?? 'qrfarm:limit:';
    const { redis, limits } = options;
    const limiterOf = (limitClass: C): ClassLimiter => {
      const common = { points: limits[limitClass], duration, keyPrefix: `${keyPrefix}${limitClass}` };
      return {
        limit: limits[limitClass],
        local: new RateLimiterMemory(common),
        // A disconnected client refuses at once rather than waiting (src/redis.ts), and so does the limiter.
        shared: redis && new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true }),
      };
    };
    const names = Object.keys(limits) as C[];
    this.classes = Object.fromEntries(names.map((c) => [c, limiterOf(c)])) as Record<C, ClassLimiter>;
    this.fallback = new RedisFallback('rate limits', options.log ?? logWarn);
  }

  /** Returns `points` to `key`'s count in `limitClass`, in the store they were taken from (best effort). */
  async reward(key: string, limitClass: C, points: number): Promise<void> {
    const { local, shared } = this.classes[limitClass];
    const rewardLocally = () => local.reward(key, points);
    await (shared ? this.fallback.run(() => shared.reward(key, points), rewardLocally) : rewardLocally());
  }

  /**
   * Counts one request (or `points`, a bulk job's items) of `key` in `limitClass` and says whether it is
   * within the limit.
   */
  async consume(key: string, limitClass: C, points = 1): Promise<LimitDecision<C>> {
    const { limit, local, shared } = this.classes[limitClass];
    const consumeLocally = () => settle(local.consume(key, points));
    const { res, allowed } = shared
      ? await this.fallback.run(() => settle(shared.consume(key, points)), consumeLocally)
      : await consumeLocally();
    const windowSec = local.duration;
    const remaining = allowed ? res.remainingPoints : 0;
    const resetSec = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    const headers: Record<string, string> = {
      'RateLimit-Policy': `"${limitClass}";q=${limit};w=${windowSec}`,
      RateLimit: `"${limitClass}";r=${remaining};t=${resetSec}`,
    };
    if (!allowed) headers['Retry-After'] = String(resetSec);
    return { allowed, limitClass, limit, windowSec, remaining, resetSec, headers };
  }
}

/** Bulk items per customer per day (QR_LIMIT_BATCH_ITEMS): the gateway's `batch` limit class. */
export class BatchItemLimiter extends WindowLimiter<'batch'> {
  constructor(itemsPerDay: number, options: Omit<WindowLimiterOptions<'batch'>, 'limits' | 'windowSec'> = {}) {
    super({ ...options, limits: { batch: itemsPerDay }, windowSec: 86_400 });
  }
}

/** The gateway's per-customer limits: the three classes of the contract, per minute by default. */
export class CustomerLimiter extends WindowLimiter<LimitClass> {
  constructor(options: CustomerLimiterOptions = {}) {
    super({ ...options, limits: options.limits ?? DEFAULT_RATE_LIMITS });
  }
}

/** The 429 for a refused decision, carrying its headers. */
export const rateLimitedError = <C extends string>(decision: LimitDecision<C>): ApiError =>
  new ApiError('rate_limited', {
    message: `More than ${decision.limit} ${decision.limitClass} requests in ${decision.windowSec} s; retry in ${decision.resetSec} s.`,
    headers: decision.headers,
  });
