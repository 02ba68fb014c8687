/**
 * QR_TRUSTED_PROXIES over real HTTP (the built engine and site, accounts on PGlite): the per-address throttle
 * of failed API keys counts the client a trusted proxy forwarded for, and ignores X-Forwarded-For from any
 * other peer. Peers are told apart by the loopback address each calls from (127.0.0.0/8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Consumer, call, consumerConfig, consumerStore, startConsumer } from '../helpers/consumer.js';

const PROXY = '127.0.60.1';
const PROXY_NET = '127.0.61.0/24';
const STRANGER = '127.0.62.1';

let c: Consumer;
beforeAll(async () => {
  c = await startConsumer(
    await consumerConfig({
      ...(await consumerStore('pglite')).env,
      QR_LIMIT_AUTH_FAILURES: '2',
      QR_TRUSTED_PROXIES: `${PROXY}, ${PROXY_NET}`,
    }),
  );
});
afterAll(() => c?.close());

let keys = 0;
/** A well-formed key nobody holds: each try is a failed credential check. */
const wrongKey = () => `qrf_${'C'.repeat(20)}${String(keys++).padStart(12, '0')}`;
const tryKey = async (from: string, forwardedFor?: string) =>
  (
    await call(c.siteUrl, '/api/v1/ping', {
      key: wrongKey(),
      from,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    })
  ).status;

describe('X-Forwarded-For', () => {
  it('from an untrusted peer is ignored: a new spoofed address for each try is still one client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await tryKey(STRANGER, `203.0.113.${i + 1}`));
    expect(statuses).toEqual([401, 401, 429, 429]);
  });

  it('from a trusted proxy names the client: each forwarded client is counted apart from the proxy and the others', async () => {
    const clients = await Promise.all([1, 2, 3, 4].map((i) => tryKey(PROXY, `198.51.100.${i}`)));
    expect(clients).toEqual([401, 401, 401, 401]);
    const one: number[] = [];
    for (let i = 0; i < 3; i++) one.push(await tryKey(PROXY, '198.51.100.50'));
    expect(one).toEqual([401, 401, 429]);
    // Another client behind the same proxy is not held back by that one's failures.
    expect(await tryKey(PROXY, '198.51.100.51')).toBe(401);
  });

  it('behind two trusted proxies, the right-most untrusted hop: the part the client wrote changes nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await tryKey(PROXY, `192.0.2.${i + 1}, 198.51.100.70, 127.0.61.9`));
    expect(statuses).toEqual([401, 401, 429]);
    // A proxy's own request, forwarding for nobody, counts the proxy.
    expect([await tryKey('127.0.61.20'), await tryKey('127.0.61.20'), await tryKey('127.0.61.20')]).toEqual([
      401, 401, 429,
    ]);
  });
});
