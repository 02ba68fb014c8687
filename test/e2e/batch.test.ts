/**
 * Bulk jobs over real HTTP on the built engine (its store PGlite in memory, two real render workers): a
 * 1,000-item JSON batch and a 1,000-row CSV come back as ZIPs whose every file decodes, with both decoder
 * families, to its row's content; bad rows are in the manifest and do not refuse the batch; a body that is
 * not a batch is a 400 with its field; cancel; another owner's job is 404; each item counts as a call of a
 * Basic plan's month.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 120_000);
afterAll(() => svc?.close());

const as = (user: string, extra: Record<string, string> = {}) => ({ 'x-rapidapi-user': user, ...extra });

async function submit(body: string | object, headers: Record<string, string>, query = ''): Promise<Response> {
  return fetch(`${svc.url}/api/qr/batch${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function statusOf(id: string, user: string) {
  return (await fetch(`${svc.url}/api/qr/batch/${id}`, { headers: as(user) })).json();
}

/** Follows the job's events until its last one; the progress figures they carried, in order. */
async function followEvents(id: string, user: string): Promise<{ status: string; progress: number }[]> {
  const res = await fetch(`${svc.url}/api/qr/batch/${id}/events`, { headers: as(user) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('event: progress'))
    .map((e) => JSON.parse(e.split('\ndata: ')[1]!));
}

/** The manifest's lines as records (its fields hold no commas or quotes in these tests). */
function manifestOf(files: Record<string, Uint8Array>): Record<string, string>[] {
  const [header, ...lines] = new TextDecoder().decode(files['manifest.csv']).trim().split('\r\n');
  const columns = header!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i]!, v])));
}

async function resultOf(id: string, user: string): Promise<Record<string, Uint8Array>> {
  const res = await fetch(`${svc.url}/api/qr/batch/${id}/result`, { headers: as(user) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

/** Every file of the ZIP decodes with zxing and with zbar to the content its manifest line gives. */
async function expectEveryFileDecodes(files: Record<string, Uint8Array>, contentOf: (row: number) => string) {
  const ok = manifestOf(files).filter((m) => m.status === 'ok');
  expect(Object.keys(files).length).toBe(ok.length + 1);
  for (const line of ok) {
    const file = files[line.filename!]!;
    const expected = contentOf(Number(line.row));
    expect(line.content).toBe(expected);
    expect((await decodeOne('png', file)).text).toBe(expected);
    const zbar = await decodeWithZbar('png', file);
    expect(zbar.map((b) => Buffer.from(b).toString('utf8'))).toEqual([expected]);
  }
}

describe('bulk jobs on the engine', () => {
  it('renders a 1,000-item JSON batch into a ZIP of codes that decode to their rows, with progress events', async () => {
    const contentOf = (row: number) => `https://shop.example.com/p/${row}?ref=json`;
    const items = Array.from({ length: 1000 }, (_, i) => ({ content: contentOf(i + 1) }));
    const res = await submit({ config: { outputWidth: 160, primaryColor: '#123456' }, items }, as('json-owner'));
    expect(res.status).toBe(202);
    const job = await res.json();
    expect(job).toMatchObject({ success: true, status: 'queued', total: 1000 });
    expect(job.statusUrl).toBe(`/api/qr/batch/${job.jobId}`);
    expect(job.resultUrl).toBe(`/api/qr/batch/${job.jobId}/result`);
    const events = await followEvents(job.jobId, 'json-owner');
    expect(events.at(-1)).toMatchObject({ status: 'done', progress: 1 });
    expect(events.length).toBeGreaterThan(1);
    for (let i = 1; i < events.length; i++) expect(events[i]!.progress).toBeGreaterThanOrEqual(events[i - 1]!.progress);
    const status = await statusOf(job.jobId, 'json-owner');
    expect(status).toMatchObject({ status: 'done', total: 1000, done: 1000, failed: 0, progress: 1 });
    expect(status.resultUrl).toBe(job.resultUrl);
    const files = await resultOf(job.jobId, 'json-owner');
    expect(files['0001.png']).toBeDefined();
    await expectEveryFileDecodes(files, contentOf);
  }, 600_000);

  it('renders a 1,000-row CSV, its bad rows in the manifest, the rest decoding to their rows', async () => {
    const contentOf = (row: number) => `BADGE-${row}-visitor`;
    const lines = ['content,filename,primaryColor,outputWidth'];
    for (let row = 1; row <= 1000; row++) {
      if (row === 10)
        lines.push(`${contentOf(row)},b10.png,#zzzzzz,160`); // not a colour
      else if (row === 20)
        lines.push(`${contentOf(row)},b19.png,,160`); // the name row 19 has
      else if (row === 30)
        lines.push(`,b30.png,,160`); // no content
      else lines.push(`${contentOf(row)},b${row}.png,${row % 2 ? '#000000' : '#1a237e'},160`);
    }
    const res = await submit(lines.join('\n'), as('csv-owner', { 'content-type': 'text/csv' }));
    expect(res.status).toBe(202);
    const { jobId } = await res.json();
    const events = await followEvents(jobId, 'csv-owner');
    expect(events.at(-1)).toMatchObject({ status: 'done', done: 997, failed: 3 });
    const files = await resultOf(jobId, 'csv-owner');
    const manifest = manifestOf(files);
    expect(manifest.length).toBe(1000);
    const bad = manifest.filter((m) => m.status === 'failed');
    expect(bad.map((m) => [m.row, m.errorCode])).toEqual([
      ['10', 'INVALID_HEX'],
      ['20', 'INVALID_FIELD_VALUE'],
      ['30', 'MISSING_REQUIRED_FIELD'],
    ]);
    await expectEveryFileDecodes(files, contentOf);
  }, 600_000);

  it('answers a body that is not a batch with the 400 envelope and its field', async () => {
    const cases: [string | object, Record<string, string>, string][] = [
      [{ config: {} }, {}, 'items'],
      [{ items: 'abc' }, {}, 'items'],
      [{ items: [] }, {}, 'items'],
      [{ items: [{ content: 'a' }], extra: 1 }, {}, 'extra'],
      [{ items: [{ content: 'a' }], config: { primaryColor: 'red' } }, {}, 'config.primaryColor'],
      ['name,colour\nx,y\n', { 'content-type': 'text/csv' }, 'content'],
      ['content,wobble\nx,y\n', { 'content-type': 'text/csv' }, 'wobble'],
    ];
    for (const [body, headers, field] of cases) {
      const res = await submit(body, as('bad-owner', headers));
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer).toMatchObject({ success: false, field });
      expect(typeof answer.code).toBe('string');
    }
    const tooMany = await submit({ items: Array.from({ length: 10_001 }, () => ({ content: 'x' })) }, as('bad-owner'));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: 'VALUE_OUT_OF_RANGE', field: 'items' });
  });

  it('cancels a job, and shows nobody else’s job', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ content: `cancel-${i}`, outputWidth: 400 }));
    const { jobId } = await (await submit({ items }, as('owner-a'))).json();
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/events'],
      ['GET', '/result'],
      ['DELETE', ''],
    ] as const) {
      const res = await fetch(`${svc.url}/api/qr/batch/${jobId}${path}`, { method, headers: as('owner-b') });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'BATCH_NOT_FOUND' });
    }
    const early = await fetch(`${svc.url}/api/qr/batch/${jobId}/result`, { headers: as('owner-a') });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: 'BATCH_NOT_FINISHED' });
    const cancelled = await fetch(`${svc.url}/api/qr/batch/${jobId}`, { method: 'DELETE', headers: as('owner-a') });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });
    const settledThen = (await statusOf(jobId, 'owner-a')).done;
    // The chunks in hand finish their items (at most two chunks' worth); none is stored once cancelled.
    await new Promise((r) => setTimeout(r, 3000));
    const later = await statusOf(jobId, 'owner-a');
    expect(later.status).toBe('cancelled');
    expect(later.done).toBe(settledThen);
    expect(later.done).toBeLessThan(1000);
    const files = await resultOf(jobId, 'owner-a');
    expect(manifestOf(files).length).toBe(later.done + later.failed);
  }, 120_000);

  it('counts each item as a call of a Basic plan’s month, and refuses a batch past it', async () => {
    const basic = as('basic-user', { 'x-rapidapi-subscription': 'BASIC' });
    const month = new Date().toISOString().slice(0, 7);
    const first = await submit({ items: Array.from({ length: 70 }, (_, i) => ({ content: `q-${i}` })) }, basic);
    expect(first.status).toBe(202);
    expect(await svc.service.marketplace.callsTaken('basic-user', month)).toBe(70);
    const second = await submit({ items: Array.from({ length: 6 }, (_, i) => ({ content: `r-${i}` })) }, basic);
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: 'CALL_QUOTA_EXCEEDED' });
    expect(await svc.service.marketplace.callsTaken('basic-user', month)).toBe(70);
    const third = await submit({ items: Array.from({ length: 5 }, (_, i) => ({ content: `s-${i}` })) }, basic);
    expect(third.status).toBe(202);
    expect(await svc.service.marketplace.callsTaken('basic-user', month)).toBe(75);
    // Following a job is not a call: its status still answers with the month used up.
    const { jobId } = await first.json();
    expect((await fetch(`${svc.url}/api/qr/batch/${jobId}`, { headers: basic })).status).toBe(200);
  }, 60_000);
});
