import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const STANDARD = 'https://example.com/some/path?utm_source=qr&id=12345';
const CONTENTS = {
  url: STANDARD,
  utf8: 'Grüße aus Köln — 東京 🌸 ; , : \\ "',
  digits: '31415926535897932384626433832795028841971693993751',
  long: `https://example.org/${'a1B2c3D4/'.repeat(60)}`,
};
const FORMATS = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
} as const;
const MAGIC: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47],
  jpg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46],
  pdf: [0x25, 0x50, 0x44, 0x46],
  svg: [0x3c, 0x73, 0x76, 0x67],
};
const utf8 = (s: string) => new TextEncoder().encode(s);

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('POST /api/qr/generate: every format decodes to the content, byte for byte', () => {
  for (const [format, mime] of Object.entries(FORMATS)) {
    for (const [name, content] of Object.entries(CONTENTS)) {
      it(`${format} · ${name}`, async () => {
        const res = await svc.post('/api/qr/generate', {
          content,
          fileFormat: format,
          primaryColor: '#1a237e',
          backgroundColor: '#fff8e1',
        });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({
          success: true,
          format,
          contentType: mime,
          width: 800,
          height: 800,
          verification: { decoded: true, failures: [] },
        });
        const file = new Uint8Array(Buffer.from(body.qrBase64, 'base64'));
        expect(body.sizeBytes).toBe(file.byteLength);
        expect([...file.subarray(0, MAGIC[format]!.length)]).toEqual(MAGIC[format]);
        const decoded = await decodeOne(format, file);
        expect(decoded.text).toBe(content);
        expect(Buffer.from(decoded.bytes).equals(Buffer.from(utf8(content)))).toBe(true);
      });
    }
  }
});

describe('encoding choices', () => {
  it('non-ASCII text is UTF-8 behind an ECI 26 designator; ASCII carries no ECI', async () => {
    for (const [content, eci] of [
      [CONTENTS.utf8, true],
      [STANDARD, false],
    ] as const) {
      const res = await svc.post('/api/qr/generate', { content, responseType: 'binary' });
      const { result } = await decodeOne('png', new Uint8Array(await res.arrayBuffer()));
      expect(result.hasECI).toBe(eci);
    }
  });

  it('honours eccLevel, maskPattern and minVersion', async () => {
    const res = await svc.post('/api/qr/generate', { content: 'HELLO', eccLevel: 'H', maskPattern: 5, minVersion: 7 });
    const body = await res.json();
    expect(body).toMatchObject({ eccLevel: 'H', mask: 5, version: 7 });
    const { result, text } = await decodeOne('png', new Uint8Array(Buffer.from(body.qrBase64, 'base64')));
    expect(text).toBe('HELLO');
    expect(result.ecLevel).toBe('H');
    expect(result.version).toBe('7');
  });

  it('the standard request is a 1-bit PNG of at most 2 KB', async () => {
    const res = await svc.post('/api/qr/generate', { content: STANDARD, responseType: 'binary' });
    const file = new Uint8Array(await res.arrayBuffer());
    expect(file.byteLength).toBeLessThanOrEqual(2048);
    expect(file[24]).toBe(1); // IHDR bit depth
    expect(file[25]).toBe(3); // IHDR colour type: palette
  });

  it('translucent colours (#RRGGBBAA) keep their alpha in PNG and still decode', async () => {
    const res = await svc.post('/api/qr/generate', {
      content: STANDARD,
      primaryColor: '#000000E6',
      backgroundColor: '#FFFFFF00',
      responseType: 'binary',
    });
    const file = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(file).includes(Buffer.from('tRNS'))).toBe(true);
    expect((await decodeOne('png', file)).text).toBe(STANDARD);
  });

  it('#RGB shorthand is accepted', async () => {
    const res = await svc.post('/api/qr/generate', { content: STANDARD, primaryColor: '#036', responseType: 'binary' });
    expect(res.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(await res.arrayBuffer()))).text).toBe(STANDARD);
  });
});

describe('sizes', () => {
  it('outputWidth and outputHeight set the canvas; modules stay whole pixels', async () => {
    const body = await (
      await svc.post('/api/qr/generate', { content: STANDARD, outputWidth: 640, outputHeight: 400 })
    ).json();
    expect(body).toMatchObject({ width: 640, height: 400 });
    expect(Number.isInteger(body.modulePx)).toBe(true);
    expect(body.modulePx).toBe(Math.floor(400 / (33 + 8)));
    expect((await decodeOne('png', new Uint8Array(Buffer.from(body.qrBase64, 'base64')))).text).toBe(STANDARD);
  });

  it('pixelsPerModule alone sizes the image to the modules plus the quiet zone', async () => {
    const body = await (
      await svc.post('/api/qr/generate', { content: STANDARD, pixelsPerModule: 10, quietZone: 6 })
    ).json();
    expect(body).toMatchObject({
      width: (33 + 12) * 10,
      height: (33 + 12) * 10,
      modulePx: 10,
      verification: { quietZoneModules: 6 },
    });
  });
});

describe('responses', () => {
  it('binary answers the raw file with Content-Type, Content-Length and verification headers', async () => {
    const res = await svc.post('/api/qr/generate', { content: STANDARD, fileFormat: 'svg', responseType: 'binary' });
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    const file = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(file.byteLength);
    expect(res.headers.get('x-qr-verified')).toMatch(/reduced|full/);
    expect((await decodeOne('svg', file)).text).toBe(STANDARD);
  });

  it('the same request renders byte-identical output with the same ETag, in every format', async () => {
    for (const format of Object.keys(FORMATS)) {
      const req = { content: `${STANDARD}&f=${format}`, fileFormat: format, responseType: 'binary' };
      const a = await svc.post('/api/qr/generate', req);
      const b = await svc.post('/api/qr/generate', req);
      expect(a.headers.get('etag')).toBeTruthy();
      expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    }
  });

  it('byte-identical even when rendered twice (not from the cache)', async () => {
    const other = await startTestService({ cacheBytes: 0 });
    try {
      for (const format of ['pdf', 'jpg', 'webp']) {
        const req = { content: STANDARD, fileFormat: format, responseType: 'binary' };
        const a = Buffer.from(await (await other.post('/api/qr/generate', req)).arrayBuffer());
        const b = Buffer.from(await (await other.post('/api/qr/generate', req)).arrayBuffer());
        expect(a.equals(b)).toBe(true);
      }
    } finally {
      await other.close();
    }
  });

  it('If-None-Match with the ETag answers 304 with no body', async () => {
    const first = await svc.post('/api/qr/generate', { content: STANDARD });
    const etag = first.headers.get('etag')!;
    const second = await svc.post('/api/qr/generate', { content: STANDARD }, { 'if-none-match': etag });
    expect(second.status).toBe(304);
    expect((await second.arrayBuffer()).byteLength).toBe(0);
  });
});
