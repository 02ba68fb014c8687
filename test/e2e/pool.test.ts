import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { visitorCap } from '../../src/render/pool.js';
import { prepareRender, type QrConfigBody } from '../../src/schema/prepare-render.js';
import { captureConsole } from '../ai/secrets.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** Resolves once `condition` holds, checking at every turn of the event loop the service shares with us. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

const threadIds = (svc: TestService) => svc.service.pool.piscina.threads.map((t) => t.threadId).sort();

/** POSTs a PNG render and decodes what it answers with. */
async function renderAndRead(svc: TestService, content: string, extra: Record<string, unknown> = {}) {
  const res = await svc.post('/api/qr/generate', { content, responseType: 'binary', ...extra });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, text: res.status === 200 ? (await decodeOne('png', bytes)).text : undefined };
}

describe('backpressure and worker failure', () => {
  it('a burst beyond workers + queue gets 503 SERVER_BUSY with Retry-After at once; the rest render', async () => {
    // The queue's wait is not limited here: the renders waiting in it must all be rendered.
    const svc = await startTestService({ workers: 1, maxQueue: 2, queueWaitMs: 600_000, cacheBytes: 0 });
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

  it('the anonymous Studio’s renders hold at most half the workers: past them they wait their turn, a customer’s runs at once', async () => {
    const svc = await startTestService({ workers: 2, cacheBytes: 0 });
    try {
      const { pool } = svc.service;
      const task = (content: string) => ({
        config: prepareRender({ content, outputWidth: 1024 } as QrConfigBody, {}).config,
        assets: {},
      });
      expect([1, 2, 3, 4, 5, 8].map(visitorCap)).toEqual([1, 1, 1, 2, 2, 4]);
      const first = pool.render(task('visitor 0'), undefined, { visitor: true });
      expect(pool.stats().visitors).toBe(1);
      const waiting = pool.render(task('visitor 1'), undefined, { visitor: true });
      // The other half is the customers': a worker at once, while the second visitor waits for the first's share.
      const customer = pool.render(task('customer'));
      expect(pool.stats()).toMatchObject({ running: 2, queued: 0, visitors: 1 });
      for (const r of await Promise.all([first, waiting, customer])) expect(r.width).toBe(1024);
      // Their share given back.
      expect(pool.stats().visitors).toBe(0);
    } finally {
      await svc.close();
    }
  });

  it('a visitor’s render that waits past the queue’s wait for its share is SERVER_BUSY with Retry-After', async () => {
    const svc = await startTestService({ workers: 2, cacheBytes: 0, queueWaitMs: 1 });
    try {
      const { pool } = svc.service;
      const task = (content: string) => ({
        config: prepareRender({ content, outputWidth: 2048 } as QrConfigBody, {}).config,
        assets: {},
      });
      const first = pool.render(task('visitor 0'), undefined, { visitor: true });
      const late = pool.render(task('visitor 1'), undefined, { visitor: true });
      await expect(late).rejects.toMatchObject({ code: 'SERVER_BUSY', headers: { 'Retry-After': '1' } });
      expect((await first).width).toBe(2048);
      expect(pool.stats().visitors).toBe(0);
    } finally {
      await svc.close();
    }
  });

  it('a canvas set by pixelsPerModule counts as high-resolution by the version and the frame that size it', async () => {
    const heavyPixels = 1000 * 1000;
    const svc = await startTestService({ workers: 2, heavyConcurrency: 1, heavyPixels, cacheBytes: 0 });
    try {
      // 8 px a module: a version-1 code is 232 px; 1300 bytes need version 30, 1160 px; 700 bytes need
      // version 21, 872 px bare, wider with a ring and caption around it.
      const cases = [
        { name: 'small version', body: { content: 'small' }, heavy: false },
        { name: 'large version', body: { content: 'x'.repeat(1300) }, heavy: true },
        { name: 'version 21 bare', body: { content: 'y'.repeat(700) }, heavy: false },
        {
          name: 'version 21 framed',
          body: { content: 'y'.repeat(700), frameStyle: 'circular', ctaText: 'Scan me' },
          heavy: true,
        },
      ];
      for (const { name, body, heavy } of cases) {
        // Two at once: with one high-resolution render allowed, the second of two heavy ones is refused.
        const pair = await Promise.all(
          [0, 1].map(() => svc.post('/api/qr/generate', { ...body, pixelsPerModule: 8, responseType: 'binary' })),
        );
        const ok = pair.filter((r) => r.status === 200);
        const busy = pair.filter((r) => r.status === 503);
        expect([name, ok.length, busy.length]).toEqual([name, heavy ? 1 : 2, heavy ? 1 : 0]);
        for (const r of busy) expect((await r.json()).error).toMatch(/high-resolution/);
        // The canvas the render drew is what the pool counted.
        const [w, h] = ['x-qr-width', 'x-qr-height'].map((k) => Number(ok[0]!.headers.get(k)));
        expect([name, w! * h! > heavyPixels]).toEqual([name, heavy]);
        for (const r of ok)
          expect((await decodeOne('png', new Uint8Array(await r.arrayBuffer()))).text).toBe(body.content);
      }
    } finally {
      await svc.close();
    }
  });

  it('a killed worker is replaced and the server keeps serving', async () => {
    // Renders wait in line for a replacement to load its modules, which may take seconds on a loaded
    // machine: they wait for it rather than fail.
    const svc = await startTestService({ workers: 2, queueWaitMs: 600_000, cacheBytes: 0 });
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
    // The next render waits in line for the replacement to load, however long that takes here.
    const svc = await startTestService({ workers: 1, queueWaitMs: 600_000, cacheBytes: 0 });
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

  it('a render over its time limit is stopped and refused as OUTPUT_TOO_COMPLEX, naming its format and budget', async () => {
    const svc = await startTestService({ workers: 1, taskTimeoutMs: 5, cacheBytes: 0 });
    try {
      for (const [fileFormat, name] of [
        ['jpg', 'JPEG'],
        ['pdf', 'PDF'],
      ]) {
        const res = await svc.post('/api/qr/generate', { content: 'slow', fileFormat, outputWidth: 4096 });
        expect(res.status).toBe(422);
        const body = await res.json();
        expect(body).toMatchObject({ code: 'OUTPUT_TOO_COMPLEX' });
        expect(body.error).toBe(
          `The ${name} did not finish within its 0.005 s time budget. Use a smaller outputWidth, shorter content or simpler module shapes.`,
        );
      }
    } finally {
      await svc.close();
    }
  });

  it('a client that resets mid-render costs no worker: the same threads serve on, 50 times over', async () => {
    const svc = await startTestService({ workers: 2, cacheBytes: 0 });
    const logs = captureConsole();
    try {
      expect((await renderAndRead(svc, 'before the resets')).text).toBe('before the resets');
      const before = threadIds(svc);
      const pool = svc.service.pool;
      for (let i = 0; i < 50; i++) {
        await until(() => pool.stats().running === 0);
        const abandoned = pool.stats().abandoned;
        const body = JSON.stringify({ content: `reset ${i}`, outputWidth: 2048, moduleShape: 'dots' });
        const socket = connect(svc.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.write(
          `POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        // The render holds a worker; the client then vanishes with a TCP reset.
        await until(() => pool.stats().running === 1);
        socket.resetAndDestroy();
        await until(() => pool.stats().abandoned === abandoned + 1);
        // Every other reset, an ordinary render right behind it.
        if (i % 2 === 0) expect((await renderAndRead(svc, `after reset ${i}`)).text).toBe(`after reset ${i}`);
      }
      expect(pool.stats()).toMatchObject({ workers: 2, abandoned: 50 });
      expect(threadIds(svc)).toEqual(before);
      expect(logs.text()).not.toMatch(/worker failed/);
    } finally {
      logs.restore();
      await svc.close();
    }
  });

  it('two 4096 px renders in flight leave a worker to plain renders, which flow with 200s', async () => {
    // The default allowance for three workers: one worker fewer.
    const heavyConcurrency = loadConfig({ QR_WORKERS: '3' }).heavyConcurrency;
    expect(heavyConcurrency).toBe(2);
    const svc = await startTestService({ workers: 3, heavyConcurrency, cacheBytes: 0 });
    try {
      await renderAndRead(svc, 'warm up');
      const pool = svc.service.pool;
      const heavy = [0, 1].map((i) => renderAndRead(svc, `big ${i}`, { outputWidth: 4096 }));
      await until(() => pool.stats().running === 2);
      // A third is refused at once, never queued for a worker the plain renders need.
      const third = await svc.post('/api/qr/generate', { content: 'big 2', outputWidth: 4096 });
      expect([third.status, third.headers.get('retry-after'), (await third.json()).code]).toEqual([
        503,
        '1',
        'SERVER_BUSY',
      ]);
      const plain: string[] = [];
      while (pool.stats().heavy === 2 && plain.length < 20) {
        const content = `plain ${plain.length}`;
        expect(await renderAndRead(svc, content)).toEqual({ status: 200, text: content });
        plain.push(content);
        expect(pool.stats().queued).toBe(0);
      }
      expect(plain.length).toBeGreaterThan(0);
      const big = await Promise.all(heavy);
      expect(big.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await svc.close();
    }
  });

  it('a render that waits longer than the queue allows gets 503 SERVER_BUSY with Retry-After, never 422', async () => {
    const svc = await startTestService({ workers: 1, heavyConcurrency: 1, queueWaitMs: 100, cacheBytes: 0 });
    try {
      await renderAndRead(svc, 'warm up');
      // Styled, so it anti-aliases and takes far longer than the 100 ms the render behind it may wait.
      const heavy = renderAndRead(svc, 'big', { outputWidth: 4096, moduleShape: 'dots', finderOuterShape: 'rounded' });
      await until(() => svc.service.pool.stats().running === 1);
      const res = await svc.post('/api/qr/generate', { content: 'plain, behind it' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ success: false, code: 'SERVER_BUSY', error: /free within 0.1 s/ });
      expect(await heavy).toEqual({ status: 200, text: 'big' });
    } finally {
      await svc.close();
    }
  });

  it("a render's time limit starts when it has a worker: a long wait in the queue is not charged to it", async () => {
    const big = { outputWidth: 4096 };
    const probe = await startTestService({ workers: 1, cacheBytes: 0 });
    let took: number;
    try {
      await renderAndRead(probe, 'warm up', big);
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        expect((await renderAndRead(probe, `probe ${i}`, big)).status).toBe(200);
        times.push(performance.now() - t);
      }
      took = times.sort((a, b) => a - b)[1]!;
    } finally {
      await probe.close();
    }
    // Each render has four times its measured duration; the last of ten waits about nine durations first.
    const svc = await startTestService({
      workers: 1,
      taskTimeoutMs: Math.ceil(took * 4),
      queueWaitMs: 600_000,
      heavyPixels: 4096 * 4096,
      cacheBytes: 0,
    });
    try {
      await renderAndRead(svc, 'warm up', big);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => renderAndRead(svc, `queued ${i}`, big)));
      expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => ({ status: 200, text: `queued ${i}` })));
    } finally {
      await svc.close();
    }
  });
});
