/**
 * A bulk job across two engine processes (the built `node dist/src/main.js`, QR_ROLE=engine) on the real
 * PostgreSQL, in a schema made for the run: the job is queued on one engine, both take its chunks, and the
 * first is SIGKILLed half way. The survivor finishes the job with every item (the dead engine's chunks are
 * taken again once they expire), its ZIP holds each row's file exactly once, and every file decodes, with
 * both decoder families, to its row's content.
 */
import type { ChildProcess } from 'node:child_process';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuilt } from '../helpers/built-process.js';
import { openTestDatabase, type TestDatabase, TEST_DATABASE_URL } from '../helpers/databases.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';

const OWNER = { 'x-rapidapi-user': 'two-engines' };
const ITEMS = 1000;
const contentOf = (row: number) => `https://tickets.example.com/seat/${row}`;

interface Engine {
  child: ChildProcess;
  url: string;
}

let t: TestDatabase;
const engines: Engine[] = [];

async function startEngine(schema: string): Promise<Engine> {
  const { child, ready } = await startBuilt({
    HOST: '127.0.0.1',
    PORT: '0',
    QR_ROLE: 'engine',
    QR_WORKERS: '1',
    QR_DATA_DIR: 'memory://',
    DATABASE_URL: TEST_DATABASE_URL,
    QR_DATABASE_SCHEMA: schema,
    QR_BATCH_CHUNK_ITEMS: '10',
    QR_BATCH_CHUNK_EXPIRE_S: '5',
    QR_BATCH_POLL_MS: '100',
  });
  return { child, url: ready[1]! };
}

beforeAll(async () => {
  t = await openTestDatabase('postgres');
  // The first engine makes the queue's schema; the second finds it made.
  engines.push(await startEngine(t.schema!));
  engines.push(await startEngine(t.schema!));
}, 120_000);

afterAll(async () => {
  for (const e of engines) e.child.kill('SIGKILL');
  await t?.db.query(`DROP SCHEMA IF EXISTS ${t.schema}_queue CASCADE`);
  await t?.close();
});

const statusOf = async (engine: Engine, id: string) =>
  (await fetch(`${engine.url}/api/qr/batch/${id}`, { headers: OWNER })).json();

describe('a bulk job on two engines sharing PostgreSQL', () => {
  it('finishes with every item, none twice, when one engine is SIGKILLed half way', async () => {
    const [doomed, survivor] = engines as [Engine, Engine];
    const items = Array.from({ length: ITEMS }, (_, i) => ({ content: contentOf(i + 1) }));
    const res = await fetch(`${doomed.url}/api/qr/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...OWNER },
      body: JSON.stringify({ config: { outputWidth: 160 }, items }),
    });
    expect(res.status).toBe(202);
    const { jobId } = await res.json();

    let status = await statusOf(survivor, jobId);
    while (status.done < ITEMS / 2) {
      await new Promise((r) => setTimeout(r, 100));
      status = await statusOf(survivor, jobId);
    }
    const exited = new Promise((r) => doomed.child.once('exit', r));
    doomed.child.kill('SIGKILL');
    await exited;
    const atKill = status.done;
    expect(atKill).toBeLessThan(ITEMS);

    while (status.status !== 'done') {
      await new Promise((r) => setTimeout(r, 250));
      status = await statusOf(survivor, jobId);
    }
    expect(status).toMatchObject({ total: ITEMS, done: ITEMS, failed: 0 });

    // Both engines took chunks, and the dead engine's were taken again after it died.
    const { rows } = await t.db.query<{ retried: number }>(
      `SELECT count(*)::integer AS retried FROM ${t.schema}_queue.job WHERE retry_count > 0`,
    );
    expect(rows[0]!.retried).toBeGreaterThan(0);

    const zip = await fetch(`${survivor.url}/api/qr/batch/${jobId}/result`, { headers: OWNER });
    expect(zip.status).toBe(200);
    const names: string[] = [];
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()), {
      filter: (f) => {
        names.push(f.name);
        return true;
      },
    });
    expect(names.length).toBe(ITEMS + 1);
    expect(new Set(names).size).toBe(ITEMS + 1);
    const manifest = new TextDecoder().decode(files['manifest.csv']).trim().split('\r\n').slice(1);
    expect(manifest.map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: ITEMS }, (_, i) => i + 1));
    for (let row = 1; row <= ITEMS; row++) {
      const file = files[`${String(row).padStart(4, '0')}.png`]!;
      expect((await decodeOne('png', file)).text).toBe(contentOf(row));
      expect((await decodeWithZbar('png', file)).map((b) => Buffer.from(b).toString())).toEqual([contentOf(row)]);
    }
  }, 600_000);
});
