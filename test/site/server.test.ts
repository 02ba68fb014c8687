/**
 * What the site decides at start and while it runs (src/site/server.ts), the built site started in this
 * process: the settings it refuses to start without, who takes the money (test mode refused off loopback),
 * Strict-Transport-Security and the admin API only where they belong, and /readyz following its account
 * store, reached on the real PostgreSQL through a TCP relay this test can make refuse or stall.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import type { RunningSite } from '../../src/site/server.js';
import { call, type ConsumerStore, consumerConfig, consumerStore } from '../helpers/consumer.js';
import { TEST_DATABASE_URL } from '../helpers/databases.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { startSite } = (await import(dist('site/server.js'))) as typeof import('../../src/site/server.js');
const { loadUws } = (await import(dist('http/uws.js'))) as typeof import('../../src/http/uws.js');
const options = { engineUrls: ['http://127.0.0.1:9'], uws: loadUws() };

/** Starts a site, runs `f` with it and what it logged, and stops it. */
async function withSite(config: Config, f: (site: RunningSite, logs: string[]) => Promise<void>): Promise<void> {
  const logs: string[] = [];
  const site = await startSite(config, options, (m) => logs.push(m));
  try {
    await f(site, logs);
  } finally {
    await site.close();
  }
}

describe('starting', () => {
  it('refuses to start without the relay secret or an engine to relay to, saying which', async () => {
    const config = await consumerConfig({ QR_DATA_DIR: 'memory://' });
    await expect(startSite({ ...config, internalSecrets: [] }, options, () => {})).rejects.toThrow(
      'The site needs QR_INTERNAL_SECRET, shared with the engines it relays to.',
    );
    await expect(startSite(config, { ...options, engineUrls: [] }, () => {})).rejects.toThrow(
      'The site needs QR_ENGINE_URL: the engines it relays to.',
    );
  });

  it('test mode asked for on an address that is not loopback is ignored, and said so: checkout is off', async () => {
    const config = await consumerConfig({ QR_DATA_DIR: 'memory://', HOST: '0.0.0.0', QR_CHECKOUT_TEST_MODE: '1' });
    await withSite(config, async (_site, logs) => {
      expect(logs).toContainEqual(
        'QR_CHECKOUT_TEST_MODE=1 is ignored: HOST=0.0.0.0 is not loopback, and no payment provider is configured, so checkout is off (503 checkout_unavailable).',
      );
      expect(logs.some((m) => /TEST MODE/.test(m))).toBe(false);
    });
  });

  it('sends Strict-Transport-Security on every answer only when its public URL is https', async () => {
    const hsts = 'max-age=31536000; includeSubDomains';
    const tls = await consumerConfig({ QR_DATA_DIR: 'memory://', QR_SITE_PUBLIC_URL: 'https://qr.example.com' });
    await withSite(tls, async (site) => {
      for (const path of ['/healthz', '/api/packs', '/nowhere'])
        expect((await call(`http://127.0.0.1:${site.port}`, path)).headers.get('strict-transport-security'), path).toBe(
          hsts,
        );
    });
    const plain = await consumerConfig({ QR_DATA_DIR: 'memory://' });
    await withSite(plain, async (site) => {
      expect(
        (await call(`http://127.0.0.1:${site.port}`, '/healthz')).headers.get('strict-transport-security'),
      ).toBeNull();
    });
  });

  it('serves the admin API over PGlite; with memory:// it is there, and closed to every token', async () => {
    const config = await consumerConfig({ QR_DATA_DIR: 'memory://' });
    await withSite(config, async (site) => {
      expect(site.routes.filter((r) => r.path.startsWith('/admin/')).length).toBeGreaterThan(0);
      const a = await call(`http://127.0.0.1:${site.port}`, '/admin/quickstart', {
        body: {},
        headers: { authorization: 'Bearer x' },
      });
      expect({ status: a.status, code: a.body.code }).toEqual({ status: 401, code: 'invalid_admin_token' });
    });
  });
});

/**
 * A TCP relay to the test PostgreSQL: `forward` passes everything; `refuse` closes every connection, open
 * or new; `stall` accepts new connections and passes nothing.
 */
async function startStoreRelay() {
  const target = new URL(TEST_DATABASE_URL);
  let mode: 'forward' | 'refuse' | 'stall' = 'forward';
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'refuse') return client.destroy();
    if (mode === 'stall') return;
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(TEST_DATABASE_URL);
  url.port = String((server.address() as AddressInfo).port);
  url.hostname = '127.0.0.1';
  return {
    url: url.href,
    set(m: typeof mode) {
      mode = m;
      for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('GET /readyz follows the account store', () => {
  let store: ConsumerStore;
  let relay: Awaited<ReturnType<typeof startStoreRelay>>;
  let site: RunningSite;
  let origin: string;

  beforeAll(async () => {
    store = await consumerStore('postgres');
    relay = await startStoreRelay();
    site = await startSite(await consumerConfig({ ...store.env, DATABASE_URL: relay.url }), options, () => {});
    origin = `http://127.0.0.1:${site.port}`;
  });
  afterAll(async () => {
    relay?.set('forward');
    await site?.close();
    await relay?.close();
    await store?.close();
  });

  const ready = async () => {
    const a = await call(origin, '/readyz');
    return { status: a.status, reason: a.body.reason as string | undefined };
  };

  it('ready while the store answers', async () => {
    expect(await ready()).toEqual({ status: 200, reason: undefined });
  });

  it('over PostgreSQL there is no admin API: the CLI opens the store itself', async () => {
    expect(site.routes.filter((r) => r.path.startsWith('/admin/'))).toEqual([]);
    expect((await call(origin, '/admin/quickstart', { body: {} })).status).toBe(404);
  });

  it('a store refusing connections: 503, “the account store is down”, naming no address or error', async () => {
    relay.set('refuse');
    const r = await ready();
    expect(r).toEqual({ status: 503, reason: 'the account store is down' });
    // Alive all the same: a load balancer takes it out of rotation, nothing restarts it.
    expect((await call(origin, '/healthz')).status).toBe(200);
  });

  it('a store that does not answer: 503 once the check has waited its 2 s', async () => {
    relay.set('stall');
    expect(await ready()).toEqual({ status: 503, reason: 'the account store did not answer within 2000 ms' });
  });

  it('ready again once the store is back', async () => {
    relay.set('forward');
    await expect.poll(async () => (await ready()).status, { timeout: 20_000, interval: 200 }).toBe(200);
  });
});
