/**
 * The real Redis server for the suites that need one (REDIS_URL, default the local one at 127.0.0.1:6379).
 * Unreachable, those suites fail with this message rather than skip. Each run writes under its own key
 * prefix and deletes its keys at the end, so runs sharing the server never see each other.
 */
import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';

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

export interface CuttableLink {
  /** TEST_REDIS_URL, reaching Redis through the link. */
  url: string;
  /** Drops every connection and refuses new ones: Redis is gone, as far as the client can tell. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay to the test Redis that a test can cut, to take Redis away mid-run and bring it back. */
export async function startCuttableLink(): Promise<CuttableLink> {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(TEST_REDIS_URL);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.href,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      open = true;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
