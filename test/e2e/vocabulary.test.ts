import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ cacheBytes: 0 });
});
afterAll(() => svc.close());

/** Renders through the API in png and svg; both must decode to the content, as given (no correction). */
async function rendersInPngAndSvg(design: Record<string, unknown>, label: string) {
  for (const fileFormat of ['png', 'svg']) {
    const content = `https://example.com/vocabulary/${label}`;
    const res = await svc.post('/api/qr/generate', {
      content,
      fileFormat,
      outputWidth: 400,
      primaryColor: '#1B2A49',
      ...design,
    });
    const body = await res.json();
    expect(res.status, `${label} ${fileFormat}: ${JSON.stringify(body)}`).toBe(200);
    expect((await decodeOne(fileFormat, new Uint8Array(Buffer.from(body.qrBase64, 'base64')))).text).toBe(content);
  }
}

describe('every name of the vocabulary renders in png and svg through the API and decodes', () => {
  it.each([...MODULE_SHAPES])('module shape %s', (moduleShape) =>
    rendersInPngAndSvg({ moduleShape }, `module-${moduleShape}`),
  );
  it.each([...FINDER_OUTER_SHAPES])('finder ring %s', (finderOuterShape) =>
    rendersInPngAndSvg({ finderOuterShape }, `ring-${finderOuterShape}`),
  );
  it.each([...FINDER_INNER_SHAPES])('finder centre %s', (finderInnerShape) =>
    rendersInPngAndSvg({ finderInnerShape }, `centre-${finderInnerShape}`),
  );
});
