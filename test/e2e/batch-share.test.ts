/**
 * The bulk items' share of the render workers, on the built engine's real pool (two workers, a share of
 * 50 %: one worker): bulk items wait outside the queue's length and time limit, never refused; while single
 * requests wait, bulk items hold at most their share, and the single requests, first in line for every
 * other worker, are all answered before the bulk items are done. Every file is decoded.
 */
import { describe, expect, it } from 'vitest';
import { prepareRender } from '../../src/schema/prepare-render.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService } from '../helpers/service.js';

describe('bulk items and single requests on one pool', () => {
  it('bulk items take at most their share while single requests wait, and are never refused', async () => {
    const svc = await startTestService({ workers: 2, maxQueue: 2, queueWaitMs: 600_000, cacheBytes: 0 });
    const { pool } = svc.service;
    try {
      const order: string[] = [];
      const breaches: string[] = [];
      /** After each render settles (its worker released), single requests waiting see bulk items within their share. */
      const check = () => {
        const s = pool.stats();
        if (s.queued > 0 && s.batch > 1) breaches.push(JSON.stringify(s));
      };
      const bulk = Array.from({ length: 24 }, async (_, i) => {
        const content = `bulk ${i}`;
        const { config } = prepareRender({ content, outputWidth: 600, fileFormat: 'jpg' }, {});
        const result = await pool.render({ config, assets: {} }, undefined, { batch: true });
        order.push('bulk');
        check();
        expect((await decodeOne('jpg', result.bytes)).text).toBe(content);
      });
      // Single requests arrive once the bulk items have every worker.
      while (pool.stats().batch < 2) await new Promise((r) => setImmediate(r));
      const singles = Array.from({ length: 2 }, async (_, i) => {
        const content = `single ${i}`;
        const res = await svc.post('/api/qr/generate', {
          content,
          outputWidth: 600,
          fileFormat: 'jpg',
          responseType: 'binary',
        });
        expect(res.status).toBe(200);
        order.push('single');
        check();
        expect((await decodeOne('jpg', new Uint8Array(await res.arrayBuffer()))).text).toBe(content);
      });
      await Promise.all([...bulk, ...singles]);
      expect(breaches).toEqual([]);
      expect(order.filter((o) => o === 'bulk')).toHaveLength(24);
      expect(order.lastIndexOf('single')).toBeLessThan(order.lastIndexOf('bulk'));
    } finally {
      await svc.close();
    }
  }, 300_000);
});
