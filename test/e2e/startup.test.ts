import { describe, expect, it } from 'vitest';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** POSTs a PNG render and decodes what it answers with. */
async function renderAndRead(svc: TestService, content: string) {
  const res = await svc.post('/api/qr/generate', { content, responseType: 'binary' });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, text: res.status === 200 ? (await decodeOne('png', bytes)).text : undefined };
}

describe('start', () => {
  it('the engine listens once every worker has loaded its modules: renders sent the moment it listens all answer 200', async () => {
    // Six renders on three workers: each waits in line for one render at most. On a loaded machine three
    // workers loading their modules took longer than the 2 s allowed here (bench/README.md, "Start"), so a
    // render that waited for a worker to load could be answered 503 SERVER_BUSY.
    const svc = await startTestService({ workers: 3, queueWaitMs: 2000, cacheBytes: 0 });
    try {
      // The first request after the listening line: every worker counts as ready.
      const ping = await (await fetch(`${svc.url}/api/ping`)).json();
      expect(ping.pool).toMatchObject({ workers: 3, ready: 3, running: 0 });
      const contents = Array.from({ length: 6 }, (_, i) => `first ${i}`);
      const answers = await Promise.all(contents.map((c) => renderAndRead(svc, c)));
      expect(answers).toEqual(contents.map((text) => ({ status: 200, text })));
    } finally {
      await svc.close();
    }
  });

  it('a worker that cannot load its modules fails the start: the engine never listens', async () => {
    // A heap far too small for the worker's modules: it runs out of memory as it loads them.
    await expect(startTestService({ workers: 1, workerHeapMb: 1 })).rejects.toThrow(/memory/i);
  });
});
