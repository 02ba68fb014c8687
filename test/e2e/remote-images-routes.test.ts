import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/render/formats/png.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bytesOf, serve, type TestServer } from '../images/loopback.js';

/** A red disc logo, served by a loopback image host. */
const disc = (() => {
  const n = 64;
  const pixels = new Uint8Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) pixels[y * n + x] = Math.hypot(x - 31.5, y - 31.5) < 28 ? 1 : 0;
  return encodePng({
    kind: 'indexed',
    width: n,
    height: n,
    pixels,
    palette: [
      { r: 255, g: 255, b: 255, a: 0 },
      { r: 200, g: 30, b: 40, a: 255 },
    ],
  });
})();

let svc: TestService;
let images: TestServer;
beforeAll(async () => {
  images = await serve({ '/logo.png': bytesOf(disc, 'image/png') });
  svc = await startTestService({ fetchAllowLoopback: true });
});
afterAll(async () => {
  await svc.close();
  await images.close();
});

describe('remote images reach every render route, not only /api/qr/generate', () => {
  it('a template rendered with a logoUrl override draws the fetched logo', async () => {
    const list = await (await fetch(`${svc.url}/api/qr/templates`)).json();
    const id = list.templates[0].id;
    const res = await svc.post(`/api/qr/templates/${id}`, {
      content: 'template with a remote logo',
      logoUrl: `${images.url}/logo.png`,
      fileFormat: 'svg',
      responseType: 'binary',
    });
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(svg).toContain('<image');
    expect((await decodeOne('svg', new TextEncoder().encode(svg))).text).toBe('template with a remote logo');
  });

  it('an unreachable logoUrl on a template render is refused naming the field', async () => {
    const list = await (await fetch(`${svc.url}/api/qr/templates`)).json();
    const res = await svc.post(`/api/qr/templates/${list.templates[0].id}`, {
      content: 'x',
      logoUrl: 'http://169.254.169.254/latest/meta-data',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'logoUrl' });
  });
});
