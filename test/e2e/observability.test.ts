/**
 * Issue 29 over real HTTP: the built engine and site (QR_ROLE=all, in this process, two real render
 * workers) with QR_LOG_FORMAT=json. The metrics scraped at GET /metrics move with the traffic sent; one
 * relayed call logs the same request id (and traceparent) on both roles; X-Request-Id is echoed when sane
 * and made when not; /metrics answers loopback and refuses elsewhere without the token; /healthz and
 * /readyz, a not-ready one included. An engine started as its own process writes its JSON line to stdout.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Client } from 'undici';
import type { OpsOptions } from '../../src/http/ops-routes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Consumer, call, consumerConfig, startConsumer, type TestCustomer } from '../helpers/consumer.js';
import { startBuilt } from '../helpers/built-process.js';
import { decodeOne } from '../helpers/decode.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { configureLogs } = (await import(dist('observe/log.js'))) as typeof import('../../src/observe/log.js');
const { DRAINING, metricsAllowed, opsRoutes } = (await import(
  dist('http/ops-routes.js')
)) as typeof import('../../src/http/ops-routes.js');
const { startHttp } = (await import(dist('http/server.js'))) as typeof import('../../src/http/server.js');
const { loadUws } = (await import(dist('http/uws.js'))) as typeof import('../../src/http/uws.js');
const { makeSecretCheck } = (await import(dist('http/auth.js'))) as typeof import('../../src/http/auth.js');
const { engineUp, httpDuration, httpRequests, recordMetrics, registry } = (await import(
  dist('observe/metrics.js')
)) as typeof import('../../src/observe/metrics.js');

/** One sample of the exposition: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
const sampleSum = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

async function scrape(origin: string): Promise<Sample[]> {
  const r = await fetch(`${origin}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await r.text());
}

const lines: Record<string, unknown>[] = [];
let consumer: Consumer;
let engineUrl: string;
let customer: TestCustomer;

beforeAll(async () => {
  configureLogs(
    'json',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  consumer = await startConsumer(await consumerConfig({ QR_DATA_DIR: 'memory://', QR_LOG_FORMAT: 'json' }));
  engineUrl = consumer.engineUrl!;
  customer = await consumer.customer();
});

afterAll(() => consumer?.close());

const render = (content: string, headers: Record<string, string> = {}) =>
  fetch(`${engineUrl}/api/qr/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ content }),
  });

describe('GET /metrics', () => {
  it('N plain renders on the engine: requests, render time, verification, cache misses, then a hit', async () => {
    const before = await scrape(engineUrl);
    const N = 3;
    const tag = `${Date.now()}`;
    for (let i = 0; i < N; i++) expect((await render(`https://example.com/metrics/${tag}/${i}`)).status).toBe(200);
    // The cache keeps a render on its second sighting (cache.ts): the third is the hit.
    for (let i = 0; i < 2; i++) expect((await render(`https://example.com/metrics/${tag}/0`)).status).toBe(200);
    const after = await scrape(engineUrl);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    const generate = { role: 'engine', route: '/api/qr/generate', method: 'POST' };
    expect(delta('qrfarm_http_requests_total', { ...generate, status: '200' })).toBe(N + 2);
    expect(delta('qrfarm_http_request_duration_seconds_count', generate)).toBe(N + 2);
    const plain = { format: 'png', styled: 'no', outcome: 'ok' };
    const renders = N + 1;
    expect(delta('qrfarm_render_duration_seconds_count', plain)).toBe(renders);
    expect(delta('qrfarm_render_duration_seconds_sum', plain)).toBeGreaterThan(0);
    expect(delta('qrfarm_pool_wait_seconds_count')).toBe(renders);
    expect(delta('qrfarm_verify_total', { decoder: 'zxing', outcome: 'read' })).toBe(renders);
    expect(delta('qrfarm_verify_total', { decoder: 'zbar', outcome: 'read' })).toBe(renders);
    expect(delta('qrfarm_render_cache_total', { outcome: 'miss' })).toBe(renders);
    expect(delta('qrfarm_render_cache_total', { outcome: 'hit' })).toBe(1);
    expect(sampleSum(after, 'qrfarm_pool_workers')).toBe(2);
    expect(sampleSum(after, 'qrfarm_pool_workers_ready')).toBe(2);
    expect(sampleSum(after, 'qrfarm_pool_queue_depth')).toBe(0);
    expect(sampleSum(after, 'qrfarm_process_resident_memory_bytes')).toBeGreaterThan(0);
    // The raw path never becomes a label: an unknown path is `unmatched`.
    expect((await fetch(`${engineUrl}/no/such/path/${tag}`)).status).toBe(404);
    const last = await scrape(engineUrl);
    expect(sampleSum(last, 'qrfarm_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    expect(last.some((s) => Object.values(s.labels).some((v) => v.includes(tag)))).toBe(false);
  });

  it('counts a styled render, and the auto-fix corrections it needed', async () => {
    const before = await scrape(engineUrl);
    const r = await fetch(`${engineUrl}/api/qr/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Too light a foreground: the guarantee deepens it.
      body: JSON.stringify({
        content: `https://example.com/styled/${Date.now()}`,
        primaryColor: '#dddddd',
        moduleShape: 'dots',
      }),
    });
    expect(r.status).toBe(200);
    const { corrections } = (await r.json()) as { corrections: { field: string }[] };
    const after = await scrape(engineUrl);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(delta('qrfarm_render_duration_seconds_count', { format: 'png', styled: 'yes', outcome: 'ok' })).toBe(1);
    expect(corrections.length).toBeGreaterThan(0);
    expect(delta('qrfarm_autofix_corrections_total')).toBeGreaterThan(0);
  });

  it('counts relays, edge-cache lookups and the site’s own requests on the site', async () => {
    const before = await scrape(consumer.siteUrl);
    const body = { content: `https://example.com/site-metrics/${Date.now()}` };
    for (let i = 0; i < 2; i++) {
      const a = await call(consumer.siteUrl, '/api/v1/qr/generate', { key: customer.key, body });
      expect(a.status).toBe(200);
    }
    const after = await scrape(consumer.siteUrl);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(
      delta('qrfarm_http_requests_total', {
        role: 'site',
        route: '/api/v1/qr/generate',
        method: 'POST',
        status: '200',
      }),
    ).toBe(2);
    expect(delta('qrfarm_relay_duration_seconds_count', { outcome: 'answered' })).toBeGreaterThanOrEqual(1);
    expect(delta('qrfarm_edge_cache_total')).toBe(2);
  });

  it('counts the credits the expiry sweeper gives back as expired, not as released', async () => {
    const held = await consumer.customer(3);
    const now = new Date();
    const reservations = [
      await consumer.accounts.reserveCredit(held.id, now),
      await consumer.accounts.reserveCredit(held.id, now),
    ];
    expect(reservations.every((r) => r !== null)).toBe(true);
    const before = await scrape(consumer.siteUrl);
    const afterExpiry = new Date(Math.max(...reservations.map((r) => r!.expiresAt.getTime())) + 1);
    const swept = await consumer.accounts.sweepExpiredReservations(afterExpiry);
    expect(swept).toBeGreaterThanOrEqual(2);
    expect(await consumer.accounts.balance(held.id, afterExpiry)).toEqual({ available: 3, reserved: 0 });
    const after = await scrape(consumer.siteUrl);
    const delta = (event: string) =>
      sampleSum(after, 'qrfarm_credits_total', { event }) - sampleSum(before, 'qrfarm_credits_total', { event });
    expect(delta('expired')).toBe(swept);
    expect(delta('released')).toBe(0);
    // A second sweep finds nothing left to give back, and counts nothing.
    expect(await consumer.accounts.sweepExpiredReservations(afterExpiry)).toBe(0);
    expect(sampleSum(await scrape(consumer.siteUrl), 'qrfarm_credits_total', { event: 'expired' })).toBe(
      sampleSum(after, 'qrfarm_credits_total', { event: 'expired' }),
    );
  });

  it('answers loopback clients; elsewhere only the Bearer token, compared whole', () => {
    const check = makeSecretCheck('metrics-token-0123456789');
    for (const loopback of [
      '127.0.0.1',
      '127.8.9.1',
      '::1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '::ffff:127.0.0.1',
    ])
      expect(metricsAllowed(loopback, undefined, undefined), loopback).toBe(true);
    for (const remote of ['10.0.0.5', '192.168.1.20', '2001:db8::1', '::ffff:10.0.0.5', '', 'not-an-address']) {
      expect(metricsAllowed(remote, undefined, check), remote).toBe(false);
      expect(metricsAllowed(remote, 'Bearer metrics-token-0123456789', undefined), `${remote}, no token set`).toBe(
        false,
      );
      expect(metricsAllowed(remote, 'Bearer metrics-token-0123456789', check), remote).toBe(true);
      expect(metricsAllowed(remote, 'bearer metrics-token-0123456789', check), remote).toBe(true);
      for (const wrong of [
        'Bearer metrics-token-012345678',
        'Bearer metrics-token-01234567890',
        'Basic abc',
        'Bearer ',
      ])
        expect(metricsAllowed(remote, wrong, check), `${remote} ${wrong}`).toBe(false);
    }
  });
});

describe('X-Request-Id and the JSON log', () => {
  it('echoes a sane id, makes one when there is none or it is not sane', async () => {
    const sane = await fetch(`${engineUrl}/healthz`, { headers: { 'x-request-id': 'abc-123_X.y:z' } });
    expect(sane.headers.get('x-request-id')).toBe('abc-123_X.y:z');
    const none = await fetch(`${consumer.siteUrl}/healthz`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const insane of ['a b', 'x'.repeat(129), 'id/with/slash', '"quoted"', 'é']) {
      const r = await fetch(`${consumer.siteUrl}/healthz`, { headers: { 'x-request-id': insane } });
      const id = r.headers.get('x-request-id')!;
      expect(id, insane).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Errors carry it too.
    const missing = await fetch(`${engineUrl}/no/such`, { headers: { 'x-request-id': 'on-a-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('on-a-404');
  });

  it('one relayed call: the same id and traceparent in the site’s line and the engine’s, the customer on the engine’s', async () => {
    const requestId = `relay-${Date.now()}`;
    const traceparent = '00-4bf92f3577b34ca95c0d3cdf3a1b9a1e-00f067aa0ba902b7-01';
    const a = await call(consumer.siteUrl, '/api/v1/qr/generate', {
      key: customer.key,
      body: { content: `https://example.com/logged/${requestId}` },
      headers: { 'x-request-id': requestId, traceparent },
    });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-request-id')).toBe(requestId);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const mine = lines.filter((l) => l.requestId === requestId);
    const site = mine.find((l) => l.role === 'site');
    const engine = mine.find((l) => l.role === 'engine');
    expect(site).toMatchObject({
      level: 30,
      msg: 'request',
      route: '/api/v1/qr/generate',
      method: 'POST',
      status: 200,
      traceparent,
    });
    expect(engine).toMatchObject({
      msg: 'request',
      route: '/api/qr/generate',
      status: 200,
      customerId: customer.id,
      traceparent,
    });
    for (const l of [site!, engine!]) {
      expect(typeof l.time).toBe('string');
      expect(typeof l.durationMs).toBe('number');
      // Never a key or a body.
      expect(JSON.stringify(l)).not.toContain(customer.key);
      expect(JSON.stringify(l)).not.toContain('logged/');
    }
  });
});

/** A front end serving the operator's routes alone, as `role`, with these readiness answers; no relays. */
const opsServer = (role: 'engine' | 'site', ready: Pick<OpsOptions, 'notReady' | 'draining'>) =>
  startHttp(
    {
      host: '127.0.0.1',
      port: 0,
      maxHeaderBytes: 16384,
      maxBodyBytes: 1024,
      maxMultipartBytes: 1024,
      bodyTimeoutMs: 1000,
      logRequests: false,
      trustedProxies: [],
      unreadHeaders: new Set(),
      serves: role,
    },
    opsRoutes({ role, metrics: true, metricsToken: undefined, ...ready }),
    { admit: () => false, verifyRelayed: () => Promise.reject(new Error('no relays')) },
    loadUws(),
  );

describe('GET /healthz and /readyz', () => {
  it('both roles are live and ready', async () => {
    for (const [origin, role] of [
      [engineUrl, 'engine'],
      [consumer.siteUrl, 'site'],
    ] as const) {
      for (const path of ['/healthz', '/readyz']) {
        const r = await fetch(origin + path);
        expect(r.status, `${role} ${path}`).toBe(200);
        expect(await r.json()).toMatchObject({ success: true, role });
      }
    }
  });

  it('a process that cannot serve answers /readyz 503 with the reason, /healthz 200', async () => {
    let reason: string | undefined = 'none of the 2 render workers has loaded its modules';
    const http = await opsServer('engine', { notReady: () => reason, draining: () => false });
    try {
      const origin = `http://127.0.0.1:${http.port}`;
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${origin}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ success: false, status: 'not_ready', role: 'engine', reason });
      reason = undefined;
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    } finally {
      http.close();
    }
  });

  it('a /readyz whose check is still running when a drain begins answers 503 draining, never 200 with Connection: close', async () => {
    let checking!: () => void;
    const checkStarted = new Promise<void>((resolve) => (checking = resolve));
    let storeAnswers!: (reason: string | undefined) => void;
    let draining = false;
    const http = await opsServer('site', {
      // As the site's store check: an answer that comes later.
      notReady: () => {
        checking();
        return new Promise<string | undefined>((resolve) => (storeAnswers = resolve));
      },
      draining: () => draining,
    });
    const client = new Client(`http://127.0.0.1:${http.port}`);
    try {
      const answer = client.request({ method: 'GET', path: '/readyz' });
      await checkStarted;
      // What SIGTERM does (server.ts, site/server.ts): not ready, then the server's drain.
      draining = true;
      const drained = http.drain(10_000);
      storeAnswers(undefined);
      const r = await answer;
      expect(r.statusCode).toBe(503);
      expect(r.headers.connection).toBe('close');
      expect(await r.body.json()).toEqual({ success: false, status: 'not_ready', role: 'site', reason: DRAINING });
      expect(await drained).toBe(0);
    } finally {
      await client.destroy();
      http.close();
    }
  });
});

/** The built engine as its own process with one worker, `env` added. */
const ownEngine = (env: Record<string, string>) =>
  startBuilt({ QR_ROLE: 'engine', QR_DATA_DIR: 'memory://', QR_WORKERS: '1', HOST: '127.0.0.1', PORT: '0', ...env });

describe('an engine started as its own process, QR_LOG_FORMAT=json', () => {
  it('writes one JSON object per line, the request’s line with its id', async () => {
    const engine = await ownEngine({ QR_LOG_FORMAT: 'json' });
    // Whole lines only: a chunk may end inside one.
    const lines = () => {
      const text = engine.output();
      return text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const seen = async (test: (l: Record<string, unknown>) => boolean) => {
      while (!lines().some(test)) await once(engine.child.stdout!, 'data');
    };
    try {
      await seen((l) => String(l.msg).includes('listening'));
      const r = await fetch(`${engine.ready[1]}/api/ping`, { headers: { 'x-request-id': 'own-process-1' } });
      expect(r.status).toBe(200);
      await seen((l) => l.requestId === 'own-process-1');
      expect(lines().every((l) => typeof l.time === 'string' && typeof l.level === 'number')).toBe(true);
      expect(lines().find((l) => l.requestId === 'own-process-1')).toMatchObject({
        msg: 'request',
        role: 'engine',
        route: '/api/ping',
        method: 'GET',
        status: 200,
      });
    } finally {
      await engine.stop();
    }
  }, 60_000);
});

describe('QR_METRICS=off', () => {
  it('every kind of metric ignores what it is told until counting is on again', async () => {
    const samples = async () => parseExposition(await registry.metrics());
    const names = ['qrfarm_http_requests_total', 'qrfarm_http_request_duration_seconds_count'];
    const values = async () => {
      const now = await samples();
      return [
        ...names.map((name) => sampleSum(now, name, { role: 'metrics-switch' })),
        sampleSum(now, 'qrfarm_engine_up', { engine: 'metrics-switch' }),
      ];
    };
    const count = () => {
      httpRequests.labels('metrics-switch', '/x', 'GET', '200').inc();
      httpDuration.labels('metrics-switch', '/x', 'GET').observe(0.01);
      engineUp.labels('metrics-switch').set(1);
    };
    const before = await values();
    recordMetrics(false);
    try {
      count();
    } finally {
      recordMetrics(true);
    }
    expect(await values()).toEqual(before);
    count();
    expect(await values()).toEqual([before[0]! + 1, before[1]! + 1, 1]);
  });
});

describe('an engine started as its own process, QR_METRICS=off', () => {
  it('renders as before and has no /metrics', async () => {
    const engine = await ownEngine({ QR_METRICS: 'off' });
    try {
      const origin = engine.ready[1]!;
      const content = 'https://example.com/metrics-off';
      const r = await fetch(`${origin}/api/qr/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content, responseType: 'binary' }),
      });
      expect(r.status).toBe(200);
      expect((await decodeOne('png', new Uint8Array(await r.arrayBuffer()))).text).toBe(content);
      const metrics = await fetch(`${origin}/metrics`);
      expect(metrics.status).toBe(404);
      expect(await metrics.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    } finally {
      await engine.stop();
    }
  }, 60_000);
});
