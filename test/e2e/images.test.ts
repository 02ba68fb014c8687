/**
 * Logos and background images over HTTP: every accepted image type through every channel (multipart file,
 * base64, URL fetched from a loopback server), every output format decoded back to the content, and the
 * remote-fetch refusals. A guard stops any connection this process would make beyond loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/images/decode.js';
import type { RgbaRaster } from '../../src/model/raster.js';
import { initCodecs } from '../../wasm/index.js';
import { decodeOne, svgToImage } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';
import {
  bytesOf,
  guardConnections,
  redirectTo,
  serve,
  type ConnectionGuard,
  type TestServer,
} from '../images/loopback.js';
import { bmp, gif, image, jpeg, pixel, png, webp, type Rgba } from '../helpers/make-images.js';

const MAGENTA: Rgba = [200, 30, 160, 255];
const FORMATS = ['png', 'svg', 'pdf', 'jpg', 'webp'] as const;
type Format = (typeof FORMATS)[number];

let svc: TestService; // loopback fetches allowed (QR_FETCH_ALLOW_LOOPBACK)
let strict: TestService; // the default policy
let images: TestServer;
let guard: ConnectionGuard;
const logos: Record<string, Uint8Array<ArrayBuffer>> = {};
let darkPhoto: Uint8Array<ArrayBuffer>;
let lightPhoto: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  guard = guardConnections();
  await initCodecs();
  svc = await startTestService({ fetchAllowLoopback: true, cacheBytes: 0 });
  strict = await startTestService({ workers: 1, cacheBytes: 0 });
  const solid = image(64, 64, () => MAGENTA);
  Object.assign(logos, {
    png: png(solid),
    jpg: await jpeg(solid),
    gif: gif(solid),
    bmp: bmp(solid, { bpp: 24 }),
    webp: await webp(solid),
  });
  darkPhoto = png(image(300, 200, (x, y) => [20 + ((x * 3) % 40), 20 + (y % 30), 50, 255]));
  lightPhoto = png(image(300, 200, (x, y) => [180 + ((x * 5) % 70), 200 + (y % 50), 160 + ((x + y) % 90), 255]));
  const big = new Uint8Array(10 * 1024 * 1024 + 100);
  big.set(logos.png!.subarray(0, 8));
  images = await serve({
    ...Object.fromEntries(Object.entries(logos).map(([type, bytes]) => [`/logo.${type}`, bytesOf(bytes)])),
    '/photo.png': bytesOf(lightPhoto, 'image/png'),
    '/to-metadata': redirectTo('http://169.254.169.254/latest/meta-data/iam/'),
    '/to-private': redirectTo('http://10.0.0.1/logo.png'),
    '/huge.png': bytesOf(big, 'image/png'),
    '/page': bytesOf(new TextEncoder().encode('<html>hello</html>'), 'text/html'),
    '/slow': () => {},
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([svc.close(), strict.close(), images.close()]);
  guard.restore();
});
afterEach(() => expect(guard.blocked).toEqual([]));

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  file: Uint8Array;
}

async function reply(res: Response): Promise<Reply> {
  const body = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    headers: res.headers,
    body,
    file: new Uint8Array(Buffer.from((body.qrBase64 as string | undefined) ?? '', 'base64')),
  };
}

const generate = async (on: TestService, design: Record<string, unknown>) =>
  reply(await on.post('/api/qr/generate', design));

async function multipart(
  design: Record<string, unknown>,
  files: Record<string, Uint8Array<ArrayBuffer>>,
): Promise<Reply> {
  const fd = new FormData();
  fd.append('config', JSON.stringify(design));
  for (const [name, bytes] of Object.entries(files)) fd.append(name, new Blob([bytes]), 'upload.bin');
  return reply(await fetch(`${svc.url}/api/qr/generate`, { method: 'POST', body: fd }));
}

const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** The export as pixels: raster formats decoded, SVG rasterized; PDF has no raster of its own (null). */
async function pixelsOf(format: Format, file: Uint8Array): Promise<RgbaRaster | null> {
  if (format === 'pdf') return null;
  if (format === 'svg') {
    const img = svgToImage(new TextDecoder().decode(file));
    return { kind: 'rgba', width: img.width, height: img.height, pixels: new Uint8Array(img.data.buffer) };
  }
  return decodeImage(file, 'result');
}

const near = (got: Rgba, want: Rgba, tolerance: number) =>
  got.slice(0, 3).every((v, i) => Math.abs(v - want[i]!) <= tolerance);

/** The file decodes to the content, byte for byte, and the logo is there at the centre. */
async function expectLogoDrawn(r: Reply, format: Format, content: string) {
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const decoded = await decodeOne(format, r.file);
  expect(Buffer.from(decoded.bytes).equals(Buffer.from(content))).toBe(true);
  if (format === 'svg') expect(new TextDecoder().decode(r.file)).toMatch(/<image [^>]*href="data:image\/png;base64,/);
  if (format === 'pdf') expect(Buffer.from(r.file).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
  const px = await pixelsOf(format, r.file);
  if (px) expect(near(pixel(px, px.width >> 1, px.height >> 1), MAGENTA, 40), `centre of the ${format}`).toBe(true);
  expect(r.body.eccLevel).toBe('H');
  expect((r.body.warnings as string[]).join()).not.toMatch(/not drawn yet/);
}

describe('logos', () => {
  const channels = {
    multipart: (design: Record<string, unknown>, type: string) => multipart(design, { logo: logos[type]! }),
    base64: (design: Record<string, unknown>, type: string) =>
      generate(svc, { ...design, logoBase64: base64(logos[type]!) }),
    url: (design: Record<string, unknown>, type: string) =>
      generate(svc, { ...design, logoUrl: `${images.url}/logo.${type}` }),
  };
  const cases = ['png', 'jpg', 'gif', 'bmp', 'webp'].flatMap((type, t) =>
    Object.keys(channels).map((channel, c) => [type, channel, FORMATS[(t + 2 * c) % FORMATS.length]!] as const),
  );

  it.each(cases)('a %s logo via %s, exported as %s', async (type, channel, format) => {
    const content = `logo ${type} ${channel} ${format}`;
    await expectLogoDrawn(
      await channels[channel as keyof typeof channels]({ content, fileFormat: format }, type),
      format,
      content,
    );
  });

  it('covers every type in several formats and every channel with every type', () => {
    for (const type of ['png', 'jpg', 'gif', 'bmp', 'webp'])
      expect(new Set(cases.filter((c) => c[0] === type).map((c) => c[2])).size).toBe(3);
    expect(new Set(cases.map((c) => c[2]))).toEqual(new Set(FORMATS));
  });

  it('modules under the logo are cleared: a logo transparent but for a dot leaves the background there', async () => {
    const dot = png(image(64, 64, (x, y) => (Math.hypot(x - 31.5, y - 31.5) < 6 ? MAGENTA : [0, 0, 0, 0])));
    const content = 'https://example.com/cleared';
    const withLogo = await generate(svc, {
      content,
      logoBase64: base64(dot),
      logoSizePercent: 20,
      logoPaddingPercent: 0,
      outputWidth: 660,
    });
    const plain = await generate(svc, { content, eccLevel: 'H', outputWidth: 660 });
    expect(withLogo.status).toBe(200);
    expect(withLogo.body.version).toBe(plain.body.version);
    const percent =
      (withLogo.body.corrections as { field: string; to: number }[]).find((c) => c.field === 'logoSizePercent')?.to ??
      20;
    const size = 17 + 4 * (withLogo.body.version as number);
    const m = withLogo.body.modulePx as number;
    const origin = Math.floor((660 - size * m) / 2);
    const side = (size * percent) / 100;
    const [lo, hi] = [Math.ceil(size / 2 - side / 2), Math.floor(size / 2 + side / 2) - 1];
    const [a, b] = [(await pixelsOf('png', withLogo.file))!, (await pixelsOf('png', plain.file))!];
    let darkWithout = 0;
    for (let y = lo; y <= hi; y++) {
      for (let x = lo; x <= hi; x++) {
        const [cx, cy] = [origin + x * m + (m >> 1), origin + y * m + (m >> 1)];
        if (Math.hypot(cx - 330, cy - 330) < (6 / 64) * side * m + m) continue; // the dot
        expect(pixel(a, cx, cy), `module ${x},${y}`).toEqual([255, 255, 255, 255]);
        if (pixel(b, cx, cy)[0] === 0) darkWithout++;
      }
    }
    expect(darkWithout).toBeGreaterThan(3);
    await decodeOne('png', withLogo.file);
  });

  it('a 40 % logo at ECC H is soft-capped at 25 %, reported as a correction', async () => {
    const r = await generate(svc, {
      content: 'https://example.com/big-logo',
      eccLevel: 'H',
      logoSizePercent: 40,
      logoBase64: base64(logos.png!),
    });
    expect(r.status).toBe(200);
    const fixes = (r.body.corrections as { field: string; from: number; to: number }[]).filter(
      (c) => c.field === 'logoSizePercent',
    );
    // This short content fits a 25 % logo, so the cap is the only change.
    expect(fixes).toEqual([expect.objectContaining({ from: 40, to: 25 })]);
    expect((await decodeOne('png', r.file)).text).toBe('https://example.com/big-logo');
  });

  it('a logo that still hides too much at 25 % is shrunk further, with a warning', async () => {
    const content = 'https://example.com/padded-logo';
    const r = await generate(svc, {
      content,
      logoSizePercent: 40,
      logoPaddingPercent: 30,
      logoBase64: base64(logos.png!),
    });
    expect(r.status).toBe(200);
    const fixes = (r.body.corrections as { field: string; from: number; to: number }[]).filter(
      (c) => c.field === 'logoSizePercent',
    );
    expect(fixes[0]).toMatchObject({ from: 40, to: 25 });
    expect(fixes[1]).toMatchObject({ from: 25 });
    expect(fixes[1]!.to).toBeLessThan(25);
    expect((r.body.warnings as string[]).join()).toMatch(/logo was shrunk from 25 %/);
    expect((await decodeOne('png', r.file)).text).toBe(content);
  });

  it('above 25 % with an explicit lower ECC is still LOGO_TOO_LARGE, before anything is fetched', async () => {
    const hits = images.hits.length;
    const r = await generate(svc, {
      content: 'x',
      eccLevel: 'M',
      logoSizePercent: 30,
      logoUrl: `${images.url}/logo.png`,
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'LOGO_TOO_LARGE', field: 'logoSizePercent' });
    expect(images.hits.length).toBe(hits);
  });

  it('an undecodable logo or background is INVALID_FIELD_VALUE naming the field it was sent in', async () => {
    const truncated = base64(logos.png!.slice(0, 40));
    for (const field of ['logoBase64', 'backgroundImageBase64']) {
      const r = await generate(svc, { content: 'x', [field]: truncated });
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ code: 'INVALID_FIELD_VALUE', field });
      expect(r.body.error, field).toMatch(new RegExp(`^${field} `));
    }
  });
});

describe('background images', () => {
  /** Light-module pixels of the symbol area that are not plain white. */
  const tinted = (px: RgbaRaster, body: Record<string, unknown>) => {
    const size = 17 + 4 * (body.version as number);
    const m = body.modulePx as number;
    const origin = Math.floor(((body.width as number) - size * m) / 2);
    let n = 0;
    for (let y = origin; y < origin + size * m; y += 3)
      for (let x = origin; x < origin + size * m; x += 3)
        if (pixel(px, x, y)[0] > 128 && pixel(px, x, y).join() !== '255,255,255,255') n++;
    return n;
  };

  it.each(['png', 'jpg', 'svg'] as const)('is visible behind the code and the %s still decodes', async (format) => {
    const content = `background ${format}`;
    const r = await multipart({ content, fileFormat: format, backgroundImageOpacity: 0.5 }, { background: lightPhoto });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect((await decodeOne(format, r.file)).text).toBe(content);
    expect(tinted((await pixelsOf(format, r.file))!, r.body)).toBeGreaterThan(500);
    expect(r.body.verification).toMatchObject({ quietZoneClean: true, decoded: true });
  });

  it('a dark photo gets its opacity lowered so the modules keep 4:1, and the code decodes', async () => {
    const r = await generate(svc, {
      content: 'dark photo',
      backgroundImageBase64: base64(darkPhoto),
      backgroundImageOpacity: 0.9,
      fileFormat: 'webp',
    });
    expect(r.status).toBe(200);
    const fix = (r.body.corrections as { field: string; from: number; to: number }[]).find(
      (c) => c.field === 'backgroundImageOpacity',
    );
    expect(fix).toMatchObject({ from: 0.9 });
    expect(fix!.to).toBeLessThan(0.9);
    expect((await decodeOne('webp', r.file)).text).toBe('dark photo');
  });

  it('with a logo on top, from URLs, in a PDF', async () => {
    const content = 'both from urls';
    const r = await generate(svc, {
      content,
      fileFormat: 'pdf',
      backgroundImageUrl: `${images.url}/photo.png`,
      logoUrl: `${images.url}/logo.webp`,
      logoPlateShape: 'circle',
    });
    expect(r.status).toBe(200);
    expect((await decodeOne('pdf', r.file)).text).toBe(content);
    // The background and the logo, each with its soft mask (alpha) when it has one.
    const pdf = Buffer.from(r.file).toString('latin1');
    expect(pdf.match(/\/Subtype\s*\/Image/g)!.length - (pdf.match(/\/SMask\s/g) ?? []).length).toBe(2);
  });
});

describe('remote images are never fetched from private addresses', () => {
  const forbidden = [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://[::ffff:127.0.0.1]/',
    'http://192.168.1.1/',
    'http://[fd00:ec2::254]/',
  ];

  it.each(forbidden)('refuses %s with 400, before any connection', async (url) => {
    const before = guard.attempts.length;
    for (const field of ['logoUrl', 'backgroundImageUrl']) {
      const r = await generate(strict, { content: 'ssrf', [field]: url });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, code: 'INVALID_FIELD_VALUE', field });
      expect(r.body.error).not.toMatch(/\d+\.\d+\.\d+\.\d+|::|ECONN|undici/i);
    }
    // The only connections were this test's own requests to the service.
    expect(guard.attempts.slice(before).every((a) => a === `127.0.0.1:${strict.port}`)).toBe(true);
  });

  it('the loopback allowance does not extend to a redirect to metadata or private addresses', async () => {
    for (const path of ['/to-metadata', '/to-private']) {
      const hits = images.hits.length;
      const r = await generate(svc, { content: 'redirect', logoUrl: `${images.url}${path}` });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'logoUrl' });
      expect(images.hits.slice(hits)).toEqual([path]);
    }
  });

  it('without the allowance even the loopback test server is refused', async () => {
    const r = await generate(strict, { content: 'x', logoUrl: `${images.url}/logo.png` });
    expect(r.body).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'logoUrl' });
  });

  it('refuses a file over 10 MB, a file that is not an image, and a server that does not answer in 5 s', async () => {
    const big = await generate(svc, { content: 'x', backgroundImageUrl: `${images.url}/huge.png` });
    expect(big.body).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'backgroundImageUrl',
      error: expect.stringMatching(/10 MB/),
    });
    const page = await generate(svc, { content: 'x', logoUrl: `${images.url}/page` });
    expect(page.body).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'logoUrl',
      error: expect.stringMatching(/not a PNG/),
    });
    const t = performance.now();
    const slow = await generate(svc, { content: 'x', logoUrl: `${images.url}/slow` });
    expect(slow.body).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'logoUrl',
      error: expect.stringMatching(/within 5 s/),
    });
    expect(performance.now() - t).toBeGreaterThan(4900);
    expect(performance.now() - t).toBeLessThan(8000);
  }, 20_000);
});
