import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ cacheBytes: 0 });
});
afterAll(() => svc.close());

/** Three symbol sizes: version 2, version 4 and version 10 at the default ECC level M. */
const CONTENTS = [
  'https://example.com',
  'https://shop.example.com/products/item?id=12345&r=9',
  'Meet us at the harbour cafe on Saturday at ten. Bring the printed tickets, a warm jacket and the spare keys ' +
    'for the blue van. Call Anna if the ferry is late; the code for the gate is 4471. See you there!',
];
/** The default width (800 px), and a small one where a module is 4 to 9 px. */
const WIDTHS = [undefined, 300];
/** The default colours, and a dark ink on a cream background. */
const COLOURS = [{}, { primaryColor: '#1B2A49', backgroundColor: '#F3E9D2' }];
const FORMATS = ['png', 'svg'];

const utf8 = (s: string) => new TextEncoder().encode(s);
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Renders the design through the API for every content, width, colour pair and format, and returns what
 * went wrong with each render: the service must return it as asked (no correction, no warning) with a
 * verification that found nothing wrong, and both decoder families, zxing and zbar, must read the file
 * independently of the service, to the content's exact bytes.
 */
async function problems(design: Record<string, unknown>): Promise<string[]> {
  const found: string[] = [];
  for (const content of CONTENTS)
    for (const outputWidth of WIDTHS)
      for (const colours of COLOURS)
        for (const fileFormat of FORMATS) {
          const tag = `${fileFormat}, ${outputWidth ?? 'default'} px, ${JSON.stringify(colours)}, ${content.length}-char content`;
          const res = await svc.post('/api/qr/generate', { content, fileFormat, outputWidth, ...colours, ...design });
          const body = await res.json();
          if (res.status !== 200) {
            found.push(`${tag}: ${res.status} ${JSON.stringify(body)}`);
            continue;
          }
          const { corrections, warnings, verification } = body;
          if (corrections.length || warnings.length)
            found.push(`${tag}: changed by the service: ${JSON.stringify({ corrections, warnings })}`);
          if (!verification.decoded || verification.failures.length)
            found.push(`${tag}: verification ${JSON.stringify(verification)}`);
          const file = new Uint8Array(Buffer.from(body.qrBase64, 'base64'));
          const expected = utf8(content);
          const zxing = await decodeOne(fileFormat, file).catch((e: Error) => e);
          if (zxing instanceof Error || !same(zxing.bytes, expected))
            found.push(`${tag}: zxing read ${zxing instanceof Error ? zxing.message : JSON.stringify(zxing.text)}`);
          const zbar = await decodeWithZbar(fileFormat, file);
          if (zbar.length !== 1 || !same(zbar[0]!, expected))
            found.push(`${tag}: zbar read ${JSON.stringify(zbar.map((b) => new TextDecoder().decode(b)))}`);
        }
  return found;
}

describe('every name of the vocabulary, alone at default settings, is read by both decoder families as rendered', () => {
  it.each([...MODULE_SHAPES])('module shape %s', async (moduleShape) => {
    expect(await problems({ moduleShape })).toEqual([]);
  });
  it.each([...FINDER_OUTER_SHAPES])('finder ring %s', async (finderOuterShape) => {
    expect(await problems({ finderOuterShape })).toEqual([]);
  });
  it.each([...FINDER_INNER_SHAPES])('finder centre %s', async (finderInnerShape) => {
    expect(await problems({ finderInnerShape })).toEqual([]);
  });
});
