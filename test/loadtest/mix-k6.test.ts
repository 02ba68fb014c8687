/**
 * The k6 scenarios' mix (loadtest/mix.k6.js) against the one the other load tests and `npm run capacity`
 * send (loadtest/mix.ts): k6 cannot import mix.ts, so the same requests are written twice, and this keeps
 * the two alike. mix.k6.js runs here as an ES module with k6's two globals it uses given by the test: `open`
 * reads the file beside it, and `k6/http` is a stand-in (only templateIds calls it, not checked here).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkMix, MIX, type MixRequest, requestOf } from '../../loadtest/mix.js';

const dir = new URL('../../loadtest/', import.meta.url);
const source = readFileSync(new URL('mix.k6.js', dir), 'utf8');
const IMPORT = "import http from 'k6/http';";
expect(source).toContain(IMPORT);
(globalThis as { k6Open?: (path: string) => string }).k6Open = (path) => readFileSync(new URL(path, dir), 'utf8');
const module = source.replace(IMPORT, 'const http = {};\nconst open = globalThis.k6Open;');
const k6 = (await import(`data:text/javascript,${encodeURIComponent(module)}`)) as {
  MIX: unknown;
  mixRequest(n: number, templates: string[], prefix?: string): MixRequest;
};

const templates = ['menu-card', 'wifi-poster', 'event-ticket'];

describe("the k6 scenarios' mix", () => {
  it('reads the same mix.json', () => {
    expect(checkMix(k6.MIX, 'mix.k6.js')).toEqual(MIX);
  });

  it('sends each kind as mix.ts does, on the engine’s paths and the gateway’s, content unique by n', () => {
    for (const prefix of ['/api', '/api/v1']) {
      for (let n = 0; n < 1000; n++) {
        const sent = k6.mixRequest(n, templates, prefix);
        expect(sent).toEqual(requestOf(sent.kind, n, templates, prefix));
      }
    }
  });

  it('in every 100 requests, each kind as often as its share', () => {
    for (let start = 0; start < 1000; start += 100) {
      const counts = new Map<string, number>();
      for (let n = start; n < start + 100; n++) {
        const { kind } = k6.mixRequest(n, templates);
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      expect(Object.fromEntries(counts)).toEqual(
        Object.fromEntries(MIX.requests.map(({ kind, share }) => [kind, Math.round(share)])),
      );
    }
  });
});
