import { type ReadResult, readBarcodes } from 'zxing-wasm/reader';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/model/render-config.js';
import { render } from '../../src/render/guarantee.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initCodecs, initWasm } from '../../wasm/index.js';
import { fileToImage } from '../helpers/decode.js';

beforeAll(async () => {
  await initWasm();
  await initCodecs();
});

const CONTENT = 'https://example.com/on/any/background?id=42';
const GRADIENT: RenderConfig['foregroundGradient'] = {
  type: 'linear',
  rotation: 30,
  stops: [
    { offset: 0, color: '#0D47A1' },
    { offset: 1, color: '#6A1B9A' },
  ],
};

/**
 * Anti-aliased designs on a transparent background: a reader that ignores alpha (a viewer flattening onto
 * nothing, a scanner reading RGB) sees the colour stored under the transparent pixels. It must be the
 * background's, not black, on which a dark code cannot be read.
 */
describe('a transparent background keeps its colour under transparent pixels', () => {
  const DESIGNS: [string, Partial<RenderConfig>][] = [
    ['rounded modules, navy', { moduleShape: 'rounded', primaryColor: '#1a237e' }],
    ['dots in a gradient (over 256 colours: lossy WebP)', { moduleShape: 'dots', foregroundGradient: GRADIENT }],
  ];
  for (const format of ['png', 'webp'] as const)
    for (const [name, design] of DESIGNS)
      it(`${format}, ${name}: read ignoring alpha, it decodes to its content`, async () => {
        const config: RenderConfig = {
          ...QR_DEFAULTS,
          content: CONTENT,
          outputWidth: 400,
          fileFormat: format,
          backgroundColor: '#fff8e100',
          ...design,
        };
        const out = await render({ config, assets: {} });
        if (!out.ok) throw new Error(out.message);
        const img = await fileToImage(format, out.bytes);
        // The corner is quiet zone: transparent, and the background's colour beneath (within lossy
        // WebP's error, for the gradient).
        const tolerance = format === 'webp' && design.foregroundGradient ? 8 : 0;
        expect(img.data[3]).toBe(0);
        for (const [c, v] of [0xff, 0xf8, 0xe1].entries())
          expect(Math.abs(img.data[c]! - v)).toBeLessThanOrEqual(tolerance);
        for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
        const results: ReadResult[] = await readBarcodes(img, { formats: ['QRCode'], tryHarder: true });
        expect(results.filter((r) => r.isValid).map((r) => r.text)).toEqual([CONTENT]);
      });
});
