import { Redis } from 'ioredis';
import { OutageLog } from './outage.js';

/**
 * What the service keeps in Redis (rate-limit windows, relay signatures already seen) may be lost, so a
 * Redis that is down must not stop requests: every use has a per-instance fallback. The client therefore
 * fails fast instead of queueing: no offline queue (a command while disconnected rejects at once), no
 * retry, a command in flight when the connection drops rejected rather than sent again on reconnection
 * (it would count a request twice, once here and once in the fallback), and a short command timeout for a
 * Redis that accepts connections but does not answer.
 */
const CLIENT_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 1000,
  connectTimeout: 2000,
} as const;

/**
 * A client for `url` (REDIS_URL), once it is ready or after `connectTimeout`: a Redis unreachable at start
 * is an outage like any other (the fallbacks apply, and ioredis keeps reconnecting). The URL is never
 * logged: it may hold a password.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, CLIENT_OPTIONS);
  // Without a listener ioredis prints every failed reconnection; the fallbacks report the outage once.
  redis.on('error', () => {});
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CLIENT_OPTIONS.connectTimeout);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

/**
 * Runs an operation against Redis and, when Redis fails, the same operation on this instance instead.
 * The first failure of an outage is logged, and so is the first success after it; nothing in between.
 */
export class RedisFallback {
  private readonly outage: OutageLog;

  /** @param what what is shared through Redis, in the plural: "rate limits", "relay signatures seen" */
  constructor(
    private readonly what: string,
    log: (line: string) => void,
  ) {
    this.outage = new OutageLog(log, `Redis answers again: ${what} are shared again.`);
  }

  async run<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await shared();
    } catch (e) {
      this.outage.failed(
        () => `Redis unreachable (${(e as Error).message}): ${this.what} are kept per instance until it answers.`,
      );
      return local();
    }
    this.outage.succeeded();
    return result;
  }
}
