import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne, decodeWithZbar, svgToImage } from '../helpers/decode.js';
import { pdfToSvg } from '../helpers/pdf-to-svg.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const CONTENT = 'https://example.com/printed?menu=7';
const STYLED = {
  moduleShape: 'rounded',
  finderOuterShape: 'rounded',
  primaryColor: '#1a237e',
  backgroundColor: '#fff8e1',
};

async function render(body: Record<string, unknown>) {
  const res = await svc.post('/api/qr/generate', { content: CONTENT, ...STYLED, ...body });
  const json = await res.json();
  return { status: res.status, json, file: new Uint8Array(Buffer.from(json.qrBase64 ?? '', 'base64')) };
}

/** The chunks of a PNG, by type, in order. */
function pngChunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    out.push({
      type: Buffer.from(png.subarray(at + 4, at + 8)).toString('latin1'),
      data: png.subarray(at + 8, at + 8 + length),
    });
    at += 12 + length;
  }
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Both decoder families read the raster file at its own size, the payload byte for byte. */
async function expectBothDecode(format: string, file: Uint8Array) {
  const decoded = await decodeOne(format, file);
  expect(Buffer.from(decoded.bytes).equals(Buffer.from(utf8(CONTENT)))).toBe(true);
  const zbar = await decodeWithZbar(format, file);
  expect(zbar.map((b) => Buffer.from(b).toString('utf8'))).toEqual([CONTENT]);
}

describe('printSize', () => {
  it('a 25 mm, 300 dpi PNG is 295 px wide with pHYs of 11,811 px/m, right after IHDR', async () => {
    const { status, json, file } = await render({ printSize: { width: 25, unit: 'mm', dpi: 300 } });
    expect(status).toBe(200);
    expect(json).toMatchObject({ width: 295, height: 295 });
    const chunks = pngChunks(file);
    expect(chunks.map((c) => c.type).slice(0, 2)).toEqual(['IHDR', 'pHYs']);
    const phys = new DataView(chunks[1]!.data.buffer, chunks[1]!.data.byteOffset, 9);
    expect([phys.getUint32(0), phys.getUint32(4), phys.getUint8(8)]).toEqual([11811, 11811, 1]);
    expect((await sharp(file).metadata()).density).toBe(300);
    await expectBothDecode('png', file);
  });

  it('a 1 in, 600 dpi JPEG is 600 px wide and says 600 dpi in its JFIF header', async () => {
    const { status, json, file } = await render({ fileFormat: 'jpg', printSize: { width: 1, unit: 'in', dpi: 600 } });
    expect(status).toBe(200);
    expect(json).toMatchObject({ width: 600, height: 600 });
    expect(Buffer.from(file.subarray(6, 11)).toString('latin1')).toBe('JFIF\0');
    expect([file[13], (file[14]! << 8) | file[15]!, (file[16]! << 8) | file[17]!]).toEqual([1, 600, 600]);
    expect((await sharp(file).metadata()).density).toBe(600);
    await expectBothDecode('jpg', file);
  });

  it('a WebP carries the density in an EXIF chunk of the extended format, lossless and lossy alike', async () => {
    const gradient = {
      type: 'linear',
      stops: [
        { offset: 0, color: '#1a237e' },
        { offset: 1, color: '#004d40' },
      ],
    };
    const designs = [
      [{}, false],
      [{ foregroundGradient: gradient }, false],
      // Translucent: lossless keeps alpha in VP8L (its header's bit), lossy writes VP8X and ALPH itself.
      [{ backgroundColor: '#FFFFFF00' }, true],
      [{ foregroundGradient: gradient, backgroundColor: '#FFFFFF00' }, true],
    ] as const;
    for (const [design, alpha] of designs) {
      const { status, json, file } = await render({
        fileFormat: 'webp',
        printSize: { width: 40, unit: 'mm', dpi: 254 },
        ...design,
      });
      expect(status).toBe(200);
      expect(json).toMatchObject({ width: 400, height: 400 });
      const riff = Buffer.from(file);
      expect(riff.toString('latin1', 12, 16)).toBe('VP8X');
      expect(riff.readUInt32LE(4)).toBe(riff.length - 8);
      expect(riff[20]! & 0x08).toBe(0x08);
      expect(riff[20]! & 0x10).toBe(alpha ? 0x10 : 0);
      // The last chunk, after the image data: 8 bytes of header and a 66-byte TIFF.
      expect(riff.lastIndexOf('EXIF', undefined, 'latin1')).toBe(riff.length - 74);
      const meta = await sharp(file).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 400, height: 400 });
      expect(meta.exif).toBeDefined();
      const exif = meta.exif!;
      // XResolution's rational, wherever sharp puts the TIFF header in the buffer it gives back.
      const tiff = exif.indexOf('II*\0', 0, 'latin1');
      expect(exif.readUInt32LE(tiff + 50)).toBe(254);
      await expectBothDecode('webp', file);
    }
  });

  it('an SVG is sized in the unit, its viewBox in pixels; a PDF page is exactly the width in points', async () => {
    const svg = await render({ fileFormat: 'svg', printSize: { width: 25, unit: 'mm', dpi: 300 } });
    expect(svg.status).toBe(200);
    const text = new TextDecoder().decode(svg.file);
    expect(text).toMatch(/^<svg [^>]*width="25mm" height="25mm" viewBox="0 0 295 295"/);
    const fromSvg = readBarcodes(svgToImage(text, 600), { formats: ['QRCode'] });
    expect((await fromSvg).map((r) => r.text)).toEqual([CONTENT]);

    const pdf = await render({ fileFormat: 'pdf', printSize: { width: 25, unit: 'mm', dpi: 300 } });
    expect(pdf.status).toBe(200);
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(Buffer.from(pdf.file).toString('latin1'));
    expect(Number(box![1])).toBeCloseTo((25 / 25.4) * 72, 2);
    expect(Number(box![2])).toBeCloseTo(70.87, 2);
    const fromPdf = readBarcodes(svgToImage(await pdfToSvg(pdf.file), 600), { formats: ['QRCode'] });
    expect((await fromPdf).map((r) => r.text)).toEqual([CONTENT]);
  });

  it('without printSize nothing changes: no pHYs, no JFIF density, a WebP in the simple format', async () => {
    const png = await render({});
    expect(pngChunks(png.file).map((c) => c.type)).not.toContain('pHYs');
    const jpg = await render({ fileFormat: 'jpg' });
    expect(jpg.file[13]).toBe(0);
    const webp = await render({ fileFormat: 'webp' });
    expect(Buffer.from(webp.file).toString('latin1', 12, 16)).toBe('VP8L');
  });

  it.each([
    [{ printSize: { width: 5, unit: 'mm', dpi: 300 } }, 400, 'VALUE_OUT_OF_RANGE', 'printSize.width'],
    [{ printSize: { width: 500, unit: 'mm', dpi: 300 } }, 400, 'VALUE_OUT_OF_RANGE', 'printSize.width'],
    [{ printSize: { width: 25, unit: 'mm', dpi: 300 }, outputWidth: 500 }, 400, 'INVALID_FIELD_VALUE', 'outputWidth'],
    [
      { printSize: { width: 25, unit: 'mm', dpi: 300 }, pixelsPerModule: 5 },
      400,
      'INVALID_FIELD_VALUE',
      'pixelsPerModule',
    ],
    [{ printSize: { width: 25, unit: 'cm', dpi: 300 } }, 400, 'INVALID_FIELD_VALUE', 'printSize.unit'],
    [{ printSize: { width: 25, unit: 'mm', dpi: 2400 } }, 400, 'VALUE_OUT_OF_RANGE', 'printSize.dpi'],
    [{ printSize: { width: 25, unit: 'mm' } }, 400, undefined, 'printSize.dpi'],
  ])('%j is refused', async (body, status, code, field) => {
    const r = await render(body);
    expect(r.status).toBe(status);
    expect(r.json).toMatchObject({ success: false, field, ...(code && { code }) });
  });
});
