import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import decodePng, { init as initPngDecode } from '@jsquash/png/decode.js';
import { create, type Font } from 'fontkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_STYLES } from '../../src/model/vocabulary.js';
import { decodeOne, fileToImage, svgToImage } from '../helpers/decode.js';
import { pdfToSvg } from '../helpers/pdf-to-svg.js';
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

  it('leave out characters no bundled face has, in every format: the file of the text without them, and a warning naming the field', async () => {
    for (const format of ['png', 'svg', 'pdf'] as const) {
      const r = await generate({ frameStyle: 'box-bottom', ctaText: '🍕 Menu 東京', fileFormat: format });
      const plain = await generate({ frameStyle: 'box-bottom', ctaText: 'Menu', fileFormat: format });
      expect(r.body.warnings).toEqual([
        'ctaText: no bundled typeface has 🍕 (U+1F355), 東 (U+6771), 京 (U+4EAC); they are left out of the drawing.',
      ]);
      expect(plain.body.warnings).toEqual([]);
      expect(Buffer.from(r.file).equals(Buffer.from(plain.file))).toBe(true);
      await expectDecodes(r, format);
    }
  });

  it('and centerText the same, naming centerText.text', async () => {
    const r = await generate({ centerText: { text: 'MENU 🍕' } });
    const plain = await generate({ centerText: { text: 'MENU' } });
    expect(r.body.warnings).toEqual([
      'centerText.text: no bundled typeface has 🍕 (U+1F355); it is left out of the drawing.',
    ]);
    expect(Buffer.from(r.file).equals(Buffer.from(plain.file))).toBe(true);
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

/** The pixels of a delivered file at the render's pixel size (a PDF page is sized in points). */
async function pixelsOf(r: Rendered, format: string): Promise<ImageData> {
  return format === 'pdf' ? svgToImage(await pdfToSvg(r.file), r.body.width as number) : fileToImage(format, r.file);
}

/** Pixels at least half covered by `inked`, inside [x0, x1) × [y0, y1), as a set of offsets. */
function maskOf(img: ImageData, inked: (r: number, g: number, b: number) => boolean): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < img.width * img.height; i++)
    if (inked(img.data[4 * i]!, img.data[4 * i + 1]!, img.data[4 * i + 2]!)) out.add(i);
  return out;
}

const overlap = (a: Set<number>, b: Set<number>) => {
  let both = 0;
  for (const i of a) if (b.has(i)) both++;
  return both / (a.size + b.size - both);
};

/** A glyph's outline from a font file read here, fitted into a pixel box of a canvas, drawn black on white by resvg. */
function glyphFitted(font: Font, cp: number, img: ImageData, box: [number, number, number, number]): Set<number> {
  const glyph = font.glyphForCodePoint(cp);
  const { minX, minY, maxX, maxY } = glyph.path.bbox;
  const [x0, y0, x1, y1] = box;
  const [sx, sy] = [(x1 - x0) / (maxX - minX), (y1 - y0) / (maxY - minY)];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${img.width}" height="${img.height}"><rect width="100%" height="100%" fill="#fff"/><path transform="matrix(${sx} 0 0 ${-sy} ${x0 - minX * sx} ${y0 + maxY * sy})" d="${glyph.path.toSVG()}"/></svg>`;
  return maskOf(svgToImage(svg), (r) => r < 128);
}

describe('a symbol no typeface family has is drawn from the bundled symbol face, alike in every format', () => {
  const require = createRequire(import.meta.url);
  const faceAt = (file: string) => create(readFileSync(require.resolve(file))) as Font;
  const symbols = faceAt('@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf');
  const sans = faceAt('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf');
  // The caption alone is in this red: its ink is told from the code's by colour.
  const red = (r: number, g: number, b: number) => r > 128 && g < 128 && b < 128;

  it('ctaText "★": the ink under the code is the star of Noto Sans Symbols 2, not a question mark, in png, svg and pdf', async () => {
    const masks: Set<number>[] = [];
    for (const format of ['png', 'svg', 'pdf'] as const) {
      const r = await generate({ ctaText: '★', ctaTextColor: '#C00000', fileFormat: format, outputWidth: 1200 });
      await expectDecodes(r, format);
      expect(r.body.warnings).toEqual([]);
      const img = await pixelsOf(r, format);
      const ink = maskOf(img, red);
      expect(ink.size).toBeGreaterThan(200);
      const xs = [...ink].map((i) => i % img.width);
      const ys = [...ink].map((i) => Math.floor(i / img.width));
      const box: [number, number, number, number] = [
        Math.min(...xs),
        Math.min(...ys),
        Math.max(...xs) + 1,
        Math.max(...ys) + 1,
      ];
      const star = overlap(ink, glyphFitted(symbols, 0x2605, img, box));
      const question = overlap(ink, glyphFitted(sans, 0x3f, img, box));
      // About 0.93 and 0.21 when this was written: edge pixels are all that differ.
      expect(star, format).toBeGreaterThan(0.9);
      expect(question, format).toBeLessThan(0.5);
      masks.push(ink);
    }
    // The raster and the vector paths draw the same star.
    expect(overlap(masks[0]!, masks[1]!)).toBeGreaterThan(0.9);
    expect(overlap(masks[0]!, masks[2]!)).toBeGreaterThan(0.9);
  });

  it('centerText and framed captions take it too, with no warning', async () => {
    for (const design of [
      { centerText: { text: '★ MENU ★' } },
      { frameStyle: 'banner-bottom', ctaText: '✓ Scan me' },
      { frameStyle: 'circular', ctaText: '♥ Scan me ♥' },
    ]) {
      const r = await generate(design);
      expect(r.body.warnings, JSON.stringify(design)).toEqual([]);
      await expectDecodes(r, 'png');
    }
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

  it('with nothing drawable (characters no bundled face has, or only spaces) draws no band and keeps the requested ECC, with a warning naming centerText.text', async () => {
    const plain = await generate({ eccLevel: 'M' });
    expect(plain.body.eccLevel).toBe('M');
    for (const [text, warning] of [
      [
        '🍕東京',
        'centerText.text: no bundled typeface has 🍕 (U+1F355), 東 (U+6771), 京 (U+4EAC); they are left out, and nothing of centerText.text is left to draw.',
      ],
      ['   ', 'centerText.text has nothing to draw (only spaces or invisible characters); it is left out.'],
    ]) {
      const r = await generate({ centerText: { text }, eccLevel: 'M' });
      expect(r.body.eccLevel, text).toBe('M');
      expect(r.body.corrections, text).toEqual([]);
      expect(r.body.warnings, text).toEqual([warning]);
      expect(Buffer.from(r.file).equals(Buffer.from(plain.file)), text).toBe(true);
      await expectDecodes(r, 'png');
    }
    // One drawable character is a band: H, as for any centre text.
    const drawn = await generate({ centerText: { text: '🍕 A' }, eccLevel: 'M' });
    expect(drawn.body.eccLevel).toBe('H');
    expect(drawn.body.corrections).toContainEqual({
      field: 'eccLevel',
      from: 'M',
      to: 'H',
      reason: 'the centre-text band covers modules; ECC H recovers them',
    });
    await expectDecodes(drawn, 'png');
  });

  it('refuses content that fits the requested ECC but not the H a drawn band needs, in the envelope', async () => {
    // 2,500 alphanumeric characters: version 40 holds 3,391 at M, 1,852 at H.
    const res = await svc.post('/api/qr/generate', {
      content: 'A'.repeat(2500),
      eccLevel: 'M',
      centerText: { text: 'MENU' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: false,
      code: 'CONTENT_TOO_LONG',
      field: 'content',
      error: expect.stringMatching(/at ECC H/),
    });
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

/**
 * Lengths of the five runs across the top-left finder's middle row (dark, light, dark, light, dark: 1:1:3:1:1
 * modules), found from the corner the decoder reports, in the delivered pixels; a PDF page (sized in points)
 * is drawn at the render's pixel size.
 */
async function finderRuns(r: Rendered, format: string, modulePx: number): Promise<number[]> {
  const { result } = await decodeOne(format, r.file);
  let img = await fileToImage(format, r.file);
  let corner = result.position.topLeft;
  if (format === 'pdf') {
    const svg = await pdfToSvg(r.file);
    const scale = (r.body.width as number) / img.width;
    img = svgToImage(svg, r.body.width as number);
    corner = { x: corner.x * scale, y: corner.y * scale };
  }
  const y = Math.round(corner.y + 3.5 * modulePx);
  const dark = (x: number) => {
    const o = (y * img.width + x) * 4;
    return img.data[o]! + img.data[o + 1]! + img.data[o + 2]! < 3 * 128;
  };
  // From inside the quiet zone to the finder's left edge, then run by run.
  let x = Math.round(corner.x - 2 * modulePx);
  while (!dark(x)) x++;
  const runs: number[] = [];
  for (let want = true; runs.length < 5; want = !want) {
    const start = x;
    while (dark(x) === want) x++;
    runs.push(x - start);
  }
  return runs;
}

describe('pixelsPerModule with a frame, caption or round code: the canvas grows, the pitch is exact', () => {
  const PPM = 8;
  const designs: Record<string, unknown>[] = [
    ...FRAME_STYLES.filter((f) => f !== 'none').map((frameStyle) => ({ frameStyle })),
    { ctaText: 'Scan for the menu' },
    { qrShapeRadius: 50 },
    { qrShapeRadius: 25, frameStyle: 'circular', ctaText: 'Scan me' },
  ];
  for (const design of designs) {
    it(JSON.stringify(design), async () => {
      const r = await generate({ ...design, outputWidth: undefined, pixelsPerModule: PPM });
      await expectDecodes(r, 'png');
      const span = 17 + 4 * (r.body.version as number) + 8;
      expect(r.body).toMatchObject({ modulePx: PPM, height: r.body.width, warnings: [] });
      expect(r.body.width as number).toBeGreaterThan(span * PPM);
      expect(await finderRuns(r, 'png', PPM)).toEqual([PPM, PPM, 3 * PPM, PPM, PPM]);
    });
  }

  it('as SVG and PDF too: the page holds the frame, and the pitch is the same', async () => {
    for (const format of ['svg', 'pdf'] as const) {
      const design = { frameStyle: 'box-bottom', qrShapeRadius: 25, fileFormat: format };
      const r = await generate({ ...design, outputWidth: undefined, pixelsPerModule: PPM });
      await expectDecodes(r, format);
      const png = await generate({ ...design, fileFormat: 'png', outputWidth: undefined, pixelsPerModule: PPM });
      expect([r.body.width, r.body.height]).toEqual([png.body.width, png.body.height]);
      const runs = await finderRuns(r, format, PPM);
      // Drawn by resvg from vectors: edges may fall either side of a pixel boundary.
      const off = runs.map((run, i) => Math.abs(run - [1, 1, 3, 1, 1][i]! * PPM));
      expect(Math.max(...off), runs.join(' ')).toBeLessThanOrEqual(1);
    }
  });

  it('a canvas the decoration would push past 4096 px is refused naming pixelsPerModule', async () => {
    const res = await svc.post('/api/qr/generate', {
      content: CONTENT,
      pixelsPerModule: 100,
      frameStyle: 'circular',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: false,
      code: 'VALUE_OUT_OF_RANGE',
      field: 'pixelsPerModule',
      error: expect.stringMatching(/with the frame, caption or rounded outline around them/),
    });
  });
});
