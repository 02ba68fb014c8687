import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DEFAULT_RATE_LIMITS, type LimitClass, type RateLimits } from '../config.js';
import { ApiError } from '../errors.js';
import { RedisFallback } from '../redis.js';

export interface LimitDecision {
  allowed: boolean;
  limitClass: LimitClass;
  limit: number;
  windowSec: number;
  remaining: number;
  /** Seconds until the customer's window for this class starts afresh. */
  resetSec: number;
  /**
   * For every gateway answer (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` and `RateLimit`;
   * when refused, `Retry-After` too.
   */
  headers: Record<string, string>;
}

export interface CustomerLimiterOptions {
  limits?: Readonly<RateLimits>;
  /** Window length in seconds; 60 in service, shorter in tests of the reset. */
  windowSec?: number;
  /** Shared counts in Redis (REDIS_URL); without it, counts are per process. */
  redis?: Redis;
  /** Prefix of the Redis keys (and of the in-process ones): `<prefix><class>:<customer id>`. */
  keyPrefix?: string;
  /** Where an outage of Redis is reported (once) and its end. Default console.warn. */
  log?: (line: string) => void;
}

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
 * Per-customer fixed windows, one counter per class, with rate-limiter-flexible: RateLimiterMemory by
 * default; with Redis, RateLimiterRedis, whose one Lua script increments and reads a counter atomically,
 * so several site instances share one exact count. Redis down: each instance falls back to its own
 * memory counters (fail open: a customer may then get up to the limit once per instance), logged once
 * per outage; the shared counts resume when Redis answers.
 */
export class CustomerLimiter {
  private readonly classes: Record<LimitClass, ClassLimiter>;
  private readonly fallback: RedisFallback;

  constructor(options: CustomerLimiterOptions = {}) {
    const limits = options.limits ?? DEFAULT_RATE_LIMITS;
    const duration = options.windowSec ?? 60;
    const keyPrefix = options.keyPrefix ?? 'qrfarm:limit:';
    const { redis } = options;
    const limiterOf = (limitClass: LimitClass): ClassLimiter => {
      const common = { points: limits[limitClass], duration, keyPrefix: `${keyPrefix}${limitClass}` };
      return {
        limit: limits[limitClass],
        local: new RateLimiterMemory(common),
        // A disconnected client refuses at once rather than waiting (src/redis.ts), and so does the limiter.
        shared: redis && new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true }),
      };
    };
    this.classes = { general: limiterOf('general'), generation: limiterOf('generation'), ai: limiterOf('ai') };
    this.fallback = new RedisFallback('rate limits', options.log ?? ((line) => console.warn(line)));
  }

  /** Counts one request of `customerId` in `limitClass` and says whether it is within the limit. */
  async consume(customerId: string, limitClass: LimitClass): Promise<LimitDecision> {
    const { limit, local, shared } = this.classes[limitClass];
    const consumeLocally = () => settle(local.consume(customerId));
    const { res, allowed } = shared
      ? await this.fallback.run(() => settle(shared.consume(customerId)), consumeLocally)
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

/** The 429 for a refused decision, carrying its headers. */
export const rateLimitedError = (decision: LimitDecision): ApiError =>
  new ApiError('rate_limited', {
    message: `More than ${decision.limit} ${decision.limitClass} requests in ${decision.windowSec} s; retry in ${decision.resetSec} s.`,
    headers: decision.headers,
  });
