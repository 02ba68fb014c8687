import { describe, expect, it } from 'vitest';
import { decodeOne } from '../helpers/decode.js';
import { startTestService } from '../helpers/service.js';

describe('backpressure and worker failure', () => {
  it('a burst beyond workers + queue gets 503 SERVER_BUSY with Retry-After at once; the rest render', async () => {
    const svc = await startTestService({ workers: 1, maxQueue: 2, cacheBytes: 0 });
    try {
      const started = Date.now();
      const responses = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          svc.post('/api/qr/generate', { content: `burst ${i}`, fileFormat: 'jpg', outputWidth: 1200 }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
      for (const r of responses.filter((r) => r.status === 503)) {
        expect(r.headers.get('retry-after')).toBe('1');
        expect(await r.json()).toMatchObject({ success: false, code: 'SERVER_BUSY' });
      }
      expect(Date.now() - started).toBeLessThan(30_000);
      // Once the burst has drained, the pool serves again.
      expect((await svc.post('/api/qr/generate', { content: 'after the burst' })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('high-resolution renders have their own concurrency limit', async () => {
    const svc = await startTestService({ workers: 2, heavyConcurrency: 1, heavyPixels: 1000 * 1000, cacheBytes: 0 });
    try {
      const heavy = await Promise.all(
        [0, 1, 2].map((i) =>
          svc.post('/api/qr/generate', { content: `big ${i}`, outputWidth: 4096, fileFormat: 'webp' }),
        ),
      );
      const statuses = heavy.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect(statuses).toContain(503);
      const busy = await heavy.find((r) => r.status === 503)!.json();
      expect(busy.error).toMatch(/high-resolution/);
    } finally {
      await svc.close();
    }
  });

  it('a killed worker is replaced and the server keeps serving', async () => {
    const svc = await startTestService({ workers: 2, cacheBytes: 0 });
    try {
      expect((await svc.post('/api/qr/generate', { content: 'before' })).status).toBe(200);
      const victims = [...svc.service.pool.piscina.threads];
      await Promise.all(victims.map((w) => w.terminate()));
      // Whether a request meets a dead worker or its replacement depends on timing: either outcome is whole.
      for (let i = 0; i < 6; i++) {
        const res = await svc.post('/api/qr/generate', { content: `after ${i}`, responseType: 'binary' });
        if (res.status === 200)
          expect((await decodeOne('png', new Uint8Array(await res.arrayBuffer()))).text).toBe(`after ${i}`);
        else expect([res.status, await res.json()]).toMatchObject([500, { code: 'QR_GENERATION_FAILED' }]);
      }
      const final = await svc.post('/api/qr/generate', { content: 'recovered', responseType: 'binary' });
      expect(final.status).toBe(200);
      expect((await decodeOne('png', new Uint8Array(await final.arrayBuffer()))).text).toBe('recovered');
      expect(svc.service.pool.piscina.threads.length).toBe(2);
      expect(svc.service.pool.piscina.threads.some((t) => victims.includes(t))).toBe(false);
    } finally {
      await svc.close();
    }
  });

  it('a worker killed mid-render answers that request with a 500 envelope, not a hang', async () => {
    const svc = await startTestService({ workers: 1, cacheBytes: 0 });
    try {
      await svc.post('/api/qr/generate', { content: 'warm up' });
      const pending = svc.post('/api/qr/generate', { content: 'doomed', fileFormat: 'jpg', outputWidth: 4096 });
      await new Promise((r) => setTimeout(r, 30));
      await svc.service.pool.piscina.threads[0]!.terminate();
      const res = await pending;
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ success: false, code: 'QR_GENERATION_FAILED' });
      const next = await svc.post('/api/qr/generate', { content: 'next one', responseType: 'binary' });
      expect(next.status).toBe(200);
      expect((await decodeOne('png', new Uint8Array(await next.arrayBuffer()))).text).toBe('next one');
    } finally {
      await svc.close();
    }
  });

  it('a render over its time limit is stopped and refused as OUTPUT_TOO_COMPLEX', async () => {
    const svc = await startTestService({ workers: 1, taskTimeoutMs: 5, cacheBytes: 0 });
    try {
      const res = await svc.post('/api/qr/generate', { content: 'slow', fileFormat: 'jpg', outputWidth: 4096 });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'OUTPUT_TOO_COMPLEX' });
    } finally {
      await svc.close();
    }
  });
});
