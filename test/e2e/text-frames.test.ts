import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import decodePng, { init as initPngDecode } from '@jsquash/png/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_STYLES } from '../../src/model/vocabulary.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const CONTENT = 'https://example.com/menu?table=12&lang=de';
const utf8 = (s: string) => new TextEncoder().encode(s);

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ cacheBytes: 0 });
  const require = createRequire(import.meta.url);
  await initPngDecode(
    await WebAssembly.compile(readFileSync(require.resolve('@jsquash/png/codec/pkg/squoosh_png_bg.wasm'))),
  );
});
afterAll(() => svc.close());

interface Rendered {
  status: number;
  body: { [k: string]: unknown; corrections: { field: string; from: unknown; to: unknown }[]; warnings: string[] };
  file: Uint8Array;
}

async function generate(design: Record<string, unknown>): Promise<Rendered> {
  const res = await svc.post('/api/qr/generate', { content: CONTENT, outputWidth: 600, ...design });
  const body = await res.json();
  return {
    status: res.status,
    body,
    file: new Uint8Array(Buffer.from((body.qrBase64 as string | undefined) ?? '', 'base64')),
  };
}

/** The rendered file decodes to the content, byte for byte. */
async function expectDecodes(r: Rendered, format: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const decoded = await decodeOne(format, r.file);
  expect(Buffer.from(decoded.bytes).equals(Buffer.from(utf8(CONTENT)))).toBe(true);
}

/** Pixels whose colour differs between two PNGs of one size. */
async function pixelsChanged(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all([decodePng(a.slice().buffer), decodePng(b.slice().buffer)]);
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  let n = 0;
  for (let i = 0; i < x.data.length; i += 4)
    if (x.data[i] !== y.data[i] || x.data[i + 1] !== y.data[i + 1] || x.data[i + 2] !== y.data[i + 2]) n++;
  return n;
}

describe('every frame style, as PNG and SVG, decodes to the content byte for byte', () => {
  for (const frameStyle of FRAME_STYLES) {
    for (const format of ['png', 'svg'] as const) {
      it(`${frameStyle} · ${format}`, async () => {
        const r = await generate({
          frameStyle,
          fileFormat: format,
          ctaText: 'Scan for the menu',
          primaryColor: '#1a237e',
        });
        await expectDecodes(r, format);
        expect(r.body).toMatchObject({
          width: 600,
          height: 600,
          warnings: [],
          verification: { decoded: true, quietZoneClean: true, failures: [] },
        });
        if (format === 'svg') {
          const svg = new TextDecoder().decode(r.file);
          expect(svg).not.toMatch(/<text|font-family/);
          expect(svg).toContain('<path');
        }
      });
    }
  }
});

describe('captions', () => {
  it('are drawn as outlines: the caption pixels change with the text, and the code still decodes', async () => {
    for (const frameStyle of ['none', 'box-bottom', 'circular'] as const) {
      const a = await generate({ frameStyle, ctaText: 'AAAA', responseType: 'base64' });
      const b = await generate({ frameStyle, ctaText: 'WWWW', responseType: 'base64' });
      expect(await pixelsChanged(a.file, b.file)).toBeGreaterThan(100);
      await expectDecodes(a, 'png');
    }
  });

  it('draw é, ß and ł with real glyphs (an accent changes pixels), with no warning', async () => {
    const accented = await generate({ ctaText: 'Zażółć gęślą jaźń — Straße, café' });
    const plain = await generate({ ctaText: 'Zazolc gesla jazn — Strasse, cafe' });
    expect(accented.body.warnings).toEqual([]);
    expect(await pixelsChanged(accented.file, plain.file)).toBeGreaterThan(50);
    await expectDecodes(accented, 'png');
  });

  it('report characters no bundled font has, and draw them as "?"', async () => {
    const r = await generate({ frameStyle: 'box-bottom', ctaText: 'Menu 東京' });
    expect(r.body.warnings).toEqual([expect.stringMatching(/ctaText: no bundled font has 東 京/)]);
    await expectDecodes(r, 'png');
  });

  it('too long for the frame: shrunk, then cut with an ellipsis and a warning', async () => {
    const r = await generate({
      frameStyle: 'banner-bottom',
      ctaText: 'Scan this code with your phone camera to open the full menu, prices and allergens',
    });
    expect(r.body.warnings).toEqual([expect.stringMatching(/^ctaText was shortened to ".+…"/)]);
    await expectDecodes(r, 'png');
  });

  it('are no longer reported as "not drawn yet"', async () => {
    const r = await generate({ ctaText: 'Hi', centerText: { text: 'Hi' }, qrShapeRadius: 20 });
    expect(r.body.warnings.filter((w) => /not drawn/.test(w))).toEqual([]);
  });
});

describe('PDF pages draw frames, captions, bands and round codes as vector paths, and decode', () => {
  for (const design of [
    { frameStyle: 'box-bottom', ctaText: 'Scan me' },
    { frameStyle: 'circular', ctaText: 'Scan me' },
    { centerText: { text: 'MENU' } },
    { qrShapeRadius: 50, moduleShape: 'dots' },
  ]) {
    it(JSON.stringify(design), async () => {
      const r = await generate({ ...design, fileFormat: 'pdf' });
      await expectDecodes(r, 'pdf');
      // Text is outlines, so the page embeds no font.
      expect(Buffer.from(r.file).includes(Buffer.from('/Font'))).toBe(false);
    });
  }
});

describe('centerText', () => {
  it('raises ECC to H, clears a band of modules for the text, and every format still decodes', async () => {
    for (const format of ['png', 'svg', 'jpg', 'webp'] as const) {
      const r = await generate({ centerText: { text: 'SCAN ME' }, fileFormat: format });
      expect(r.body.eccLevel).toBe('H');
      expect(r.body.corrections).toContainEqual({
        field: 'eccLevel',
        from: 'M',
        to: 'H',
        reason: expect.stringMatching(/centre-text band/),
      });
      await expectDecodes(r, format);
    }
  });

  it('changes the pixels of the code itself, unlike a caption', async () => {
    const band = await generate({ centerText: { text: 'SCAN ME' }, eccLevel: 'H' });
    const plain = await generate({ eccLevel: 'H' });
    expect(await pixelsChanged(band.file, plain.file)).toBeGreaterThan(1000);
  });

  it('shrinks a font size too large for what error correction recovers, and reports it', async () => {
    const r = await generate({
      centerText: { text: 'HUGE', fontSize: 180, color: '#b71c1c', backgroundColor: '#ffebee' },
    });
    expect(r.body.corrections).toContainEqual({
      field: 'centerText.fontSize',
      from: 180,
      to: expect.any(Number),
      reason: expect.stringMatching(/error correction/),
    });
    await expectDecodes(r, 'png');
  });

  it('sits on the round code inside a frame', async () => {
    const r = await generate({
      centerText: { text: 'OPEN' },
      qrShapeRadius: 50,
      frameStyle: 'circular',
      ctaText: 'Scan me',
      moduleShape: 'rounded',
    });
    await expectDecodes(r, 'png');
  });
});

describe('qrShapeRadius', () => {
  it('0 changes nothing: the same bytes as without it', async () => {
    const [a, b] = await Promise.all([generate({ qrShapeRadius: 0 }), generate({})]);
    expect(Buffer.from(a.file).equals(Buffer.from(b.file))).toBe(true);
  });

  for (const qrShapeRadius of [25, 50]) {
    for (const format of ['png', 'svg', 'pdf'] as const) {
      it(`${qrShapeRadius} · ${format} decodes with a clean quiet zone`, async () => {
        const r = await generate({ qrShapeRadius, fileFormat: format, moduleShape: 'classy', primaryColor: '#004d40' });
        await expectDecodes(r, format);
        expect(r.body.verification).toMatchObject({ quietZoneClean: true, failures: [] });
      });
    }
  }
});
