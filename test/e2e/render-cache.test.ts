import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD_BYTES } from '../../src/render/cache.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ workers: 1 });
});
afterAll(() => svc.close());

/** One binary render: its bytes, decoded and compared with the content, and the renders the pool has completed since. */
async function generate(path: string, body: { content: string } & Record<string, unknown>) {
  const before = svc.service.pool.stats().completed;
  const res = await svc.post(path, { ...body, responseType: 'binary' });
  expect(res.status).toBe(200);
  const file = new Uint8Array(await res.arrayBuffer());
  expect((await decodeOne(String(body.fileFormat ?? 'png'), file)).text).toBe(body.content);
  return { file, rendered: svc.service.pool.stats().completed - before };
}

const cacheStats = async () =>
  ((await (await fetch(`${svc.url}/api/ping`)).json()) as { cache: ReturnType<typeof svc.service.cache.stats> }).cache;

describe('the render cache admits a design on its second sighting', () => {
  it('one-off designs, on every route that renders, leave it empty in bytes', async () => {
    for (let i = 0; i < 4; i++) {
      await generate('/api/qr/generate', { content: `https://example.com/once/${i}` });
      await generate('/api/qr/generate', { content: `https://example.com/once/${i}`, fileFormat: 'svg' });
      await generate('/api/qr/templates/hex-lab', { content: `https://example.com/once/${i}` });
    }
    expect(await cacheStats()).toMatchObject({ entries: 0, bytes: 0, hits: 0, declined: 12 });
  });

  it('a repeated design is rendered twice, then answered from the cache with the same bytes', async () => {
    for (const [path, body] of [
      ['/api/qr/generate', { content: 'https://example.com/again', fileFormat: 'webp' }],
      ['/api/qr/templates/festival-sunset', { content: 'https://example.com/again' }],
    ] as const) {
      const before = await cacheStats();
      const first = await generate(path, body);
      const second = await generate(path, body);
      const third = await generate(path, body);
      expect([first.rendered, second.rendered, third.rendered]).toEqual([1, 1, 0]);
      expect(Buffer.from(third.file).equals(Buffer.from(second.file))).toBe(true);
      const after = await cacheStats();
      expect(after.entries - before.entries).toBe(1);
      expect(after.bytes - before.bytes).toBe(second.file.byteLength + ENTRY_OVERHEAD_BYTES);
      expect(after.hits - before.hits).toBe(1);
    }
  });
});
