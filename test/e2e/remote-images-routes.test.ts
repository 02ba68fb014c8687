import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discPng } from '../../bench/cases.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bytesOf, serve, type TestServer } from '../images/loopback.js';

let svc: TestService;
let images: TestServer;
beforeAll(async () => {
  images = await serve({ '/logo.png': bytesOf(discPng(64, 28, { r: 200, g: 30, b: 40, a: 255 }), 'image/png') });
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
