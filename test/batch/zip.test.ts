import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelJob, createJob, failJob, jobOf, settleItems } from '../../src/batch/jobs.js';
import { zipOfJob } from '../../src/batch/zip.js';
import { DRIVERS, openTestDatabase, type TestDatabase } from '../helpers/databases.js';

describe.each(DRIVERS)('jobs and their ZIP on %s', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(driver);
  });
  afterAll(() => t?.close());

  it('settles each item once, counts it, and zips the files in row order with the manifest', async () => {
    const id = `job-${driver}`;
    const expiresAt = new Date(Date.now() + 3600_000);
    const refused = [
      { row: 2, filename: '', content: 'b', ok: false, errorCode: 'INVALID_HEX', errorMessage: 'bad, "colour"' },
    ];
    await createJob(t.db, { id, owner: 'o', total: 250, design: {}, expiresAt, refused });
    const file = (row: number) => ({
      row,
      filename: `${row}.bin`,
      content: `c${row}`,
      ok: true,
      verified: 'reduced',
      scanScore: 100,
      bytes: new Uint8Array([row % 256, 1, 2, 3]),
    });
    const rows = Array.from({ length: 250 }, (_, i) => i + 1).filter((r) => r !== 2);
    await settleItems(t.db, id, rows.map(file));
    // Settled again (an engine that died after storing them): kept once, counted once.
    await settleItems(t.db, id, rows.slice(0, 10).map(file));
    expect(await jobOf(t.db, id, 'o')).toMatchObject({ status: 'done', done: 249, failed: 1 });
    expect(await jobOf(t.db, id, 'someone else')).toBeNull();

    const chunks: Uint8Array[] = [];
    for await (const chunk of zipOfJob(t.db, id)) chunks.push(chunk);
    const names: string[] = [];
    const files = unzipSync(Buffer.concat(chunks), { filter: (f) => names.push(f.name) > 0 });
    expect(names).toEqual([...rows.map((r) => `${r}.bin`), 'manifest.csv']);
    expect([...files['7.bin']!]).toEqual([7, 1, 2, 3]);
    const manifest = new TextDecoder().decode(files['manifest.csv']).split('\r\n');
    expect(manifest[0]).toBe('row,filename,content,status,verified,scanScore,corrections,errorCode,errorMessage');
    expect(manifest[1]).toBe('1,1.bin,c1,ok,reduced,100,0,,');
    expect(manifest[2]).toBe('2,,b,failed,,,0,INVALID_HEX,"bad, ""colour"""');
    expect(manifest.length).toBe(252);
  });

  it('stores nothing more for a job once it is cancelled or failed, and cancels only the owner’s', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const item = { row: 1, filename: '1.png', content: 'a', ok: true, bytes: new Uint8Array([1]) };
    for (const [id, end] of [
      [`cancelled-${driver}`, (id: string) => cancelJob(t.db, id, 'o')],
      [`failed-${driver}`, (id: string) => failJob(t.db, id)],
    ] as const) {
      await createJob(t.db, { id, owner: 'o', total: 2, design: {}, expiresAt, refused: [] });
      expect(await cancelJob(t.db, id, 'someone else')).toBeNull();
      await end(id);
      await settleItems(t.db, id, [item]);
      expect(await jobOf(t.db, id, 'o')).toMatchObject({ done: 0, failed: 0 });
      expect((await jobOf(t.db, id, 'o'))!.status).toBe(id.startsWith('cancelled') ? 'cancelled' : 'failed');
    }
  });
});
