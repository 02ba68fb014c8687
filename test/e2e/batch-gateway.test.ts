/**
 * Bulk jobs through the consumer gateway, over real HTTP: the built engine and site started by startRoles
 * (QR_ROLE=all, the embedded defaults: PGlite in memory, no queue server), a customer's API key. A CSV
 * batch is queued under /api/v1, followed by its events through the relay, and its ZIP streamed back
 * decodes with both decoder families; another customer sees 404; the `batch` class counts items per day
 * and gives back those of a batch the engine refused.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Consumer, consumerConfig, startConsumer, type TestCustomer } from '../helpers/consumer.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';

let c: Consumer;
let alice: TestCustomer;
let bob: TestCustomer;

beforeAll(async () => {
  const config = await consumerConfig({ QR_DATA_DIR: 'memory://', QR_LIMIT_BATCH_ITEMS: '150' });
  c = await startConsumer(config);
  alice = await c.customer();
  bob = await c.customer();
}, 120_000);
afterAll(() => c?.close());

const v1 = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${c.siteUrl}/api/v1/qr/batch${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });

const csvOf = (rows: number, tag: string) =>
  [
    'content,moduleShape',
    ...Array.from({ length: rows }, (_, i) => `${tag}-${i + 1},${i % 2 ? 'dots' : 'square'}`),
  ].join('\n');

describe('bulk jobs through /api/v1', () => {
  it('queues a CSV, streams its events and its ZIP through the relay, and shows nobody else the job', async () => {
    const design = encodeURIComponent(JSON.stringify({ outputWidth: 200, eccLevel: 'Q' }));
    const res = await v1(`?config=${design}`, alice.key, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csvOf(100, 'gw'),
    });
    expect(res.status).toBe(202);
    const job = await res.json();
    expect(job).toMatchObject({ status: 'queued', total: 100 });
    expect(job.statusUrl).toBe(`/api/v1/qr/batch/${job.jobId}`);
    expect(res.headers.get('ratelimit-policy')).toContain('general');

    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/result'],
      ['DELETE', ''],
    ] as const) {
      const other = await v1(`/${job.jobId}${path}`, bob.key, { method });
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ code: 'BATCH_NOT_FOUND' });
    }

    const events = await (await v1(`/${job.jobId}/events`, alice.key)).text();
    const last = JSON.parse(events.trim().split('\n\n').at(-1)!.split('\ndata: ')[1]!);
    expect(last).toMatchObject({
      status: 'done',
      done: 100,
      failed: 0,
      resultUrl: `/api/v1/qr/batch/${job.jobId}/result`,
    });

    const zip = await v1(`/${job.jobId}/result`, alice.key);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files).length).toBe(101);
    for (let row = 1; row <= 100; row++) {
      const file = files[`${String(row).padStart(3, '0')}.png`]!;
      expect((await decodeOne('png', file)).text).toBe(`gw-${row}`);
      expect((await decodeWithZbar('png', file)).map((b) => Buffer.from(b).toString())).toEqual([`gw-${row}`]);
    }
  }, 300_000);

  it('counts items against the batch class of the day, and gives back a refused batch’s', async () => {
    // 100 of alice's 150 are taken by the test before; a batch the engine refuses takes none.
    const refused = await v1('', alice.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { primaryColor: 'blue' }, items: [{ content: 'a' }] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ field: 'config.primaryColor' });
    const tooMany = await v1('', alice.key, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csvOf(51, 'over'),
    });
    expect(tooMany.status).toBe(429);
    expect(await tooMany.json()).toMatchObject({ code: 'rate_limited' });
    expect(tooMany.headers.get('ratelimit-policy')).toContain('"batch";q=150;w=86400');
    const fits = await v1('', alice.key, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csvOf(50, 'fits'),
    });
    expect(fits.status).toBe(202);
    // Bob's day is his own.
    const bobs = await v1('', bob.key, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csvOf(150, 'bob'),
    });
    expect(bobs.status).toBe(202);
  }, 120_000);
});
