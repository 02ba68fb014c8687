import { describe, expect, it } from 'vitest';
import { captureConsole } from '../ai/secrets.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const FORMATS = ['png', 'svg', 'pdf', 'jpg', 'webp'] as const;

/** POSTs a render and decodes the file it answers with; the status and the text read back. */
async function renderAndRead(svc: TestService, content: string, fileFormat: (typeof FORMATS)[number]) {
  const res = await svc.post('/api/qr/generate', { content, fileFormat, responseType: 'binary' });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, text: res.status === 200 ? (await decodeOne(fileFormat, bytes)).text : undefined };
}

describe('worker recycling', () => {
  it('workers retired every 3 tasks under concurrent traffic: every render answered 200 and decodes to its content', async () => {
    // A replacement may take seconds to start on a loaded machine: renders wait for it rather than fail.
    const svc = await startTestService({ workers: 2, recycleTasks: 3, queueWaitMs: 600_000, cacheBytes: 0 });
    const logs = captureConsole();
    try {
      const pool = svc.service.pool;
      const first = pool.piscina.threads.map((t) => t.threadId);
      const results: { content: string; status: number; text?: string }[] = [];
      // A replacement takes renders only once it has loaded its modules: renders holding a worker never
      // outnumber the workers ready, at any turn of the event loop the service shares with this test.
      let overReady = 0;
      const sampler = setInterval(() => {
        const { running, ready } = pool.stats();
        if (!(running <= ready)) overReady++;
      }, 1);
      // Six clients, each sending its next render as soon as the last is answered, so the pool is never
      // idle while workers are retired, until both first workers have been replaced twice over.
      let sent = 0;
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (pool.stats().recycled < 4 && sent < 300) {
            const n = sent++;
            const content = `recycle ${n}`;
            results.push({ content, ...(await renderAndRead(svc, content, FORMATS[n % FORMATS.length]!)) });
          }
        }),
      );
      clearInterval(sampler);
      expect(overReady).toBe(0);
      expect(results.length).toBe(sent);
      for (const r of results) expect(r).toEqual({ content: r.content, status: 200, text: r.content });
      expect(pool.stats().workers).toBe(2);
      expect(pool.stats().recycled).toBeGreaterThanOrEqual(4);
      expect(pool.piscina.threads.some((t) => first.includes(t.threadId))).toBe(false);
      expect(logs.text()).not.toMatch(/worker failed|retiring a render worker failed/);
    } finally {
      logs.restore();
      await svc.close();
    }
  });

  it('a worker whose memory stays over QR_RECYCLE_MB is retired; one under it is kept', async () => {
    const over = await startTestService({ workers: 1, recycleMb: 1, cacheBytes: 0 });
    const under = await startTestService({ workers: 1, recycleMb: 100_000, cacheBytes: 0 });
    try {
      for (const svc of [over, under]) {
        for (let i = 0; i < 20; i++)
          expect(await renderAndRead(svc, `memory ${i}`, 'png')).toEqual({ status: 200, text: `memory ${i}` });
      }
      // Retired after 16 reports in a row over the limit (recycle.ts, SUSTAINED_REPORTS), not at the first.
      expect(over.service.pool.stats().recycled).toBe(1);
      expect(under.service.pool.stats().recycled).toBe(0);
    } finally {
      await over.close();
      await under.close();
    }
  });

  it('GET /api/ping reports each worker memory by part once it has rendered', async () => {
    const svc = await startTestService({ workers: 1, cacheBytes: 0 });
    try {
      expect(await renderAndRead(svc, 'ping me', 'jpg')).toEqual({ status: 200, text: 'ping me' });
      const body = await (await fetch(`${svc.url}/api/ping`)).json();
      expect(body.pool).toMatchObject({ workers: 1, recycled: 0 });
      expect(body.memory).toMatchObject({
        rssBytes: expect.any(Number),
        heapUsedBytes: expect.any(Number),
        externalBytes: expect.any(Number),
      });
      const [worker] = body.memory.workers;
      expect(body.memory.workers).toHaveLength(1);
      expect(worker).toMatchObject({ tasks: 1, threadId: svc.service.pool.piscina.threads[0]!.threadId });
      // Every module a JPEG render uses is measured: the kernel (which also reads the file back, see
      // src/render/formats/jpeg-grey.ts) and both decoder families; all inside the worker's external memory.
      const wasm = worker.wasmBytes as Record<string, number>;
      for (const part of ['kernel', 'zxing', 'zbar']) expect(wasm[part]).toBeGreaterThan(0);
      const total = Object.values(wasm).reduce((a, b) => a + b, 0);
      expect(worker.externalBytes).toBeGreaterThanOrEqual(total);
    } finally {
      await svc.close();
    }
  });
});
