import { logWarn } from '../observe/log.js';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';
import { RedisFallback } from '../redis.js';
import type { WindowLimiterOptions } from './limits.js';

/** How failures of one kind are throttled per key. */
export interface FailurePolicy {
  /** Failures per key per window; past them every attempt of the key is refused until the window ends. */
  limit: number;
  windowSec: number;
  /**
   * Growing delays: the first `free` failures of a window cost nothing; each one after locks the key for
   * twice as long as the one before, from `baseSec`, at most `maxSec`.
   */
  backoff?: { free: number; baseSec: number; maxSec: number };
}

interface FailureCounters {
  policy: FailurePolicy;
  counts: { local: RateLimiterMemory; shared: RateLimiterRedis | undefined };
  locks: { local: RateLimiterMemory; shared: RateLimiterRedis | undefined };
}

/** What a failure recorded did: the key's failures in the window, and the lock it now serves (0: none). */
export interface FailureRecorded {
  failures: number;
  lockSec: number;
}

/**
 * Failed attempts (a wrong password, an unknown key) counted per key, with the same memory-or-Redis
 * counters and outage fallback as WindowLimiter: `check` before the attempt says how long the key must
 * still wait (undefined: it may try), `fail` after a failure counts it and, by the policy's backoff, locks
 * the key. A success costs nothing; only failures are counted.
 */
export class FailureThrottle<C extends string> {
  private readonly classes: Record<C, FailureCounters>;
  private readonly fallback: RedisFallback;

  constructor(options: Omit<WindowLimiterOptions<C>, 'limits' | 'windowSec'> & { policies: Record<C, FailurePolicy> }) {
    const keyPrefix = options.keyPrefix ?? 'qrfarm:limit:';
    const { redis, policies } = options;
    const pair = (points: number, duration: number, prefix: string) => {
      const common = { points, duration, keyPrefix: prefix };
      return {
        local: new RateLimiterMemory(common),
        shared: redis && new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true }),
      };
    };
    const names = Object.keys(policies) as C[];
    this.classes = Object.fromEntries(
      names.map((c) => {
        const policy = policies[c];
        return [
          c,
          {
            policy,
            counts: pair(policy.limit, policy.windowSec, `${keyPrefix}${c}-failed`),
            locks: pair(1, policy.backoff?.maxSec ?? policy.windowSec, `${keyPrefix}${c}-lock`),
          },
        ];
      }),
    ) as Record<C, FailureCounters>;
    this.fallback = new RedisFallback('rate limits', options.log ?? logWarn);
  }

  private run<T>(
    limiter: { local: RateLimiterMemory; shared: RateLimiterRedis | undefined },
    op: (l: RateLimiterMemory | RateLimiterRedis) => Promise<T>,
  ): Promise<T> {
    const { local, shared } = limiter;
    return shared
      ? this.fallback.run(
          () => op(shared),
          () => op(local),
        )
      : op(local);
  }

  /** Seconds `key` must still wait before its next attempt; undefined when it may try now. */
  async check(key: string, limitClass: C): Promise<number | undefined> {
    return (await this.state(key, limitClass)).waitSec;
  }

  /** The failures of `key` in its window, and the seconds it must still wait (undefined: none). */
  async state(key: string, limitClass: C): Promise<{ failures: number; waitSec: number | undefined }> {
    const { policy, counts, locks } = this.classes[limitClass];
    // Without backoff there is never a lock to read: one read on the path of every valid key.
    const [count, lock] = await Promise.all([
      this.run(counts, (l) => l.get(key)),
      policy.backoff === undefined ? null : this.run(locks, (l) => l.get(key)),
    ]);
    const failures = count?.consumedPoints ?? 0;
    const waitMs = Math.max(
      count !== null && failures >= policy.limit ? count.msBeforeNext : 0,
      lock !== null && lock.consumedPoints > 1 ? lock.msBeforeNext : 0,
    );
    return { failures, waitSec: waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined };
  }

  /** The failures of `key` in its current window. */
  async failures(key: string, limitClass: C): Promise<number> {
    const res = await this.run(this.classes[limitClass].counts, (l) => l.get(key));
    return res?.consumedPoints ?? 0;
  }

  /** Counts one failure of `key`; `free` overrides the policy's failures without delay. */
  async fail(key: string, limitClass: C, free?: number): Promise<FailureRecorded> {
    const { policy, counts, locks } = this.classes[limitClass];
    const failures = (await this.run(counts, (l) => l.penalty(key, 1))).consumedPoints;
    const backoff = policy.backoff;
    if (backoff === undefined) return { failures, lockSec: 0 };
    const over = failures - (free ?? backoff.free);
    if (over <= 0) return { failures, lockSec: 0 };
    const lockSec = Math.min(backoff.maxSec, backoff.baseSec * 2 ** Math.min(over - 1, 30));
    await this.run(locks, (l) => l.block(key, lockSec));
    return { failures, lockSec };
  }

  /** Forgets the failures of `key` (and its lock). */
  async clear(key: string, limitClass: C): Promise<void> {
    const { counts, locks } = this.classes[limitClass];
    await Promise.all([this.run(counts, (l) => l.delete(key)), this.run(locks, (l) => l.delete(key))]);
  }
}

/** A 429 for a key that must wait `retryAfterSec`, saying why in `what`. */
export const throttledError = (what: string, retryAfterSec: number): ApiError =>
  new ApiError('rate_limited', {
    message: `${what}; retry in ${retryAfterSec} s.`,
    headers: { 'Retry-After': String(retryAfterSec) },
  });

/** Where failed credential attempts per client address are counted and refused (API keys, admin tokens). */
export interface CredentialFailures {
  /**
   * Runs `lookup` for a credential sent from `address`, unless the address is over its failures: then
   * 429 rate_limited with Retry-After, `lookup` not run. A rejection `failed` recognises is counted.
   */
  check<T>(address: string, lookup: () => Promise<T> | T, failed: (e: unknown) => boolean): Promise<T>;
}

/**
 * Failed credential checks (an API key or an admin token not recognised) per client address and window:
 * past `limit` of them the address is refused, before any lookup, until the window ends; its valid keys
 * too, for the address is what is throttled. On each instance an address has at most as many lookups
 * running as it has failures left, so a burst of wrong keys sent at once gets `limit` lookups, not one
 * each; the others wait for a lookup to end (a valid key's takes about a millisecond) and are checked
 * then. `keyOf` groups addresses (the site's: IPv6 by /64).
 */
export class CredentialThrottle implements CredentialFailures {
  private readonly throttle: FailureThrottle<'credentials'>;
  private readonly windowSec: number;
  private readonly keyOf: (address: string) => string;
  /** Per grouped address: lookups running on this instance, and those waiting for one to end. */
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly limit: number,
    options: Omit<WindowLimiterOptions<'credentials'>, 'limits'> & { keyOf?: (address: string) => string } = {},
  ) {
    const windowSec = options.windowSec ?? 60;
    this.windowSec = windowSec;
    this.keyOf = options.keyOf ?? ((a) => a);
    this.throttle = new FailureThrottle({ ...options, policies: { credentials: { limit, windowSec } } });
  }

  async check<T>(address: string, lookup: () => Promise<T> | T, failed: (e: unknown) => boolean): Promise<T> {
    const key = this.keyOf(address);
    for (;;) {
      // Reading the count and taking a lookup are one step, never between a lookup's failure being written
      // and its leaving `running`: with the count on Redis a read may otherwise miss a failure whose lookup
      // has already left, and let one lookup too many through.
      const admitted = await this.oneAtATime(key, async () => {
        const { failures, waitSec } = await this.throttle.state(key, 'credentials');
        if (waitSec !== undefined)
          throw throttledError(
            `More than ${this.limit} failed credential checks from this address in ${this.windowSec} s`,
            waitSec,
          );
        const running = this.running.get(key) ?? 0;
        if (failures + running >= this.limit) return false;
        this.running.set(key, running + 1);
        return true;
      });
      if (admitted) break;
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key) ?? [];
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    }
    let outcome: { error: unknown } | undefined;
    try {
      return await lookup();
    } catch (e) {
      outcome = { error: e };
      throw e;
    } finally {
      await this.oneAtATime(key, async () => {
        if (outcome && failed(outcome.error)) await this.throttle.fail(key, 'credentials');
        const left = this.running.get(key)! - 1;
        if (left === 0) this.running.delete(key);
        else this.running.set(key, left);
      });
      // Every waiter checks again: the failure just counted may have closed the address to all of them.
      const queue = this.waiting.get(key);
      this.waiting.delete(key);
      for (const wake of queue ?? []) wake();
    }
  }

  /** Per grouped address, the steps that read or change its count run one after another on this instance. */
  private readonly steps = new Map<string, Promise<unknown>>();
  private oneAtATime<R>(key: string, step: () => Promise<R>): Promise<R> {
    const run = (this.steps.get(key) ?? Promise.resolve()).then(step);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.steps.set(key, settled);
    void settled.then(() => {
      if (this.steps.get(key) === settled) this.steps.delete(key);
    });
    return run;
  }
}
