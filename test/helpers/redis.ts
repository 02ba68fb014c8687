/**
 * The real Redis server for the suites that need one (REDIS_URL, default the local one at 127.0.0.1:6379).
 * Unreachable, those suites fail with this message rather than skip. Each run writes under its own key
 * prefix and deletes its keys at the end, so runs sharing the server never see each other.
 */
import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis } from '../../src/redis.js';
import { type Link, startLink } from './tcp.js';

export const TEST_REDIS_URL = process.env.QR_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A key prefix no other run uses. */
export const runPrefix = (suite: string): string => `qrfarm-test:${suite}:${randomUUID()}:`;

/** Resolves when Redis answers PING; otherwise throws an error that says what to start. */
export async function requireRedis(): Promise<void> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    throw new Error(
      `These tests need a Redis server at ${TEST_REDIS_URL} (QR_TEST_REDIS_URL), and it does not answer: ${(e as Error).message}. Start redis-server; the suite fails rather than skip.`,
    );
  } finally {
    probe.disconnect();
  }
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export type CuttableLink = Pick<Link, 'url' | 'cut' | 'restore' | 'close'>;

/** A TCP relay to the test Redis that a test can cut, to take Redis away mid-run and bring it back. */
export async function startCuttableLink(): Promise<CuttableLink> {
  const target = new URL(TEST_REDIS_URL);
  const link = await startLink(Number(target.port || 6379), target.hostname);
  const url = new URL(TEST_REDIS_URL);
  url.host = `127.0.0.1:${link.port}`;
  return { ...link, url: url.href };
}

/**
 * Two connections to the test Redis, as two instances would hold, for the suite that calls this: connected
 * before it (failing if Redis does not answer), its keys under `prefix` deleted after it.
 */
export function redisPairFor(prefix: string): { readonly a: Redis; readonly b: Redis } {
  const pair = {} as { a: Redis; b: Redis };
  beforeAll(async () => {
    await requireRedis();
    pair.a = await connectRedis(TEST_REDIS_URL);
    pair.b = await connectRedis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    if (pair.a) await deleteKeys(pair.a, prefix);
    pair.a?.disconnect();
    pair.b?.disconnect();
  });
  return pair;
}

/** A Redis URL nothing listens at: a port the system gave out and took back. */
export async function unreachableRedisUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `redis://127.0.0.1:${port}`;
}
