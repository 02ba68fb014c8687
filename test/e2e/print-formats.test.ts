import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne, decodeWithZbar, ghostscriptPng } from '../helpers/decode.js';
import { image, png } from '../helpers/make-images.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let dir: string;
beforeAll(async () => {
  svc = await startTestService();
  dir = mkdtempSync(join(tmpdir(), 'qrfarm-print-'));
});
afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const CONTENT = 'https://example.com/print?run=42';
/** A styled design with what PostScript cannot say directly: a gradient, a logo with transparent corners, a translucent background. */
const disc = png(
  image(96, 96, (x, y) => ((x - 48) ** 2 + (y - 48) ** 2 < 40 ** 2 ? [200, 30, 30, 255] : [0, 0, 0, 0])),
);
const STYLED = {
  content: CONTENT,
  moduleShape: 'rounded',
  finderOuterShape: 'rounded',
  foregroundGradient: {
    type: 'linear',
    rotation: 45,
    stops: [
      { offset: 0, color: '#1a237e' },
      { offset: 1, color: '#004d40' },
    ],
  },
  backgroundColor: '#FFF8E1CC',
  logoBase64: Buffer.from(disc).toString('base64'),
};

async function file(body: Record<string, unknown>): Promise<Uint8Array> {
  const res = await svc.post('/api/qr/generate', { ...body, responseType: 'binary' });
  expect(
    res.status,
    await res
      .clone()
      .text()
      .catch(() => ''),
  ).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The PDF drawn by poppler's pdftoppm to a PNG at `dpi`. */
function poppler(name: string, bytes: Uint8Array, dpi: number): Uint8Array {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', path, join(dir, `${name}-out`)]);
  return new Uint8Array(readFileSync(join(dir, `${name}-out.png`)));
}

/** Both decoder families read the drawn page, the payload byte for byte. */
async function expectBothRead(drawn: Uint8Array) {
  const zxing = await decodeOne('png', drawn);
  expect(Buffer.from(zxing.bytes).toString('utf8')).toBe(CONTENT);
  const zbar = await decodeWithZbar('png', drawn);
  expect(zbar.map((b) => Buffer.from(b).toString('utf8'))).toEqual([CONTENT]);
}

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');

describe('EPS', () => {
  it('a styled design with a gradient, a translucent logo and background: drawn by Ghostscript, read by both families', async () => {
    const eps = await file({ ...STYLED, fileFormat: 'eps' });
    const text = latin1(eps);
    expect(text.startsWith('%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 600 600\n')).toBe(true);
    expect(text).toContain('shfill');
    await expectBothRead(ghostscriptPng(eps));
  });

  it('a printSize sets the bounding box: 25 mm is 70.87 pt', async () => {
    const eps = await file({ content: CONTENT, fileFormat: 'eps', printSize: { width: 25, unit: 'mm', dpi: 600 } });
    expect(latin1(eps)).toMatch(/%%HiResBoundingBox: 0 0 70\.866\d* 70\.866\d*\n/);
    await expectBothRead(ghostscriptPng(eps, 1200));
  });
});

describe('CMYK', () => {
  it('a CMYK PDF has no RGB colour left, and Ghostscript and pdftoppm both draw a page both families read', async () => {
    const pdf = await file({ ...STYLED, fileFormat: 'pdf', colorSpace: 'cmyk' });
    expect(await file({ ...STYLED, fileFormat: 'pdf' })).not.toEqual(pdf);
    await expectBothRead(ghostscriptPng(pdf));
    await expectBothRead(poppler('cmyk.pdf', pdf, 96));
  });

  it('a CMYK EPS sets colours with setcmykcolor and DeviceCMYK only', async () => {
    const eps = await file({ ...STYLED, fileFormat: 'eps', colorSpace: 'cmyk' });
    const page = latin1(eps).split('%%Page: 1 1')[1]!;
    expect(page).not.toMatch(/ rg\n|DeviceRGB/);
    expect(page).toMatch(/ k\n/);
    expect(page).toContain('/DeviceCMYK');
    await expectBothRead(ghostscriptPng(eps));
  });

  it('is for PDF and EPS only', async () => {
    const res = await svc.post('/api/qr/generate', { content: CONTENT, colorSpace: 'cmyk' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'colorSpace' });
  });
});
