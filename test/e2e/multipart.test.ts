import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discPng } from '../../bench/cases.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
const logoPng = discPng(64, 28, { r: 200, g: 30, b: 40, a: 255 });
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const form = (parts: Record<string, string | Blob>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, v, 'upload.bin');
  }
  return fetch(`${svc.url}/api/qr/generate`, { method: 'POST', body: fd });
};

describe('multipart/form-data', () => {
  it('renders the config field and accepts a logo identified by its bytes, whatever its declared type', async () => {
    const res = await form({
      config: JSON.stringify({ content: 'multipart works', responseType: 'binary' }),
      logo: new Blob([logoPng], { type: 'text/plain' }),
    });
    expect(res.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(await res.arrayBuffer()))).text).toBe('multipart works');
    expect(res.headers.get('x-qr-ecc-level')).toBe('H');
  });

  it('answers JSON with the logo-driven corrections', async () => {
    const res = await form({ config: JSON.stringify({ content: 'with a logo' }), logo: new Blob([logoPng]) });
    const body = await res.json();
    expect(body.corrections).toEqual([expect.objectContaining({ field: 'eccLevel', from: 'M', to: 'H' })]);
    expect(body.eccLevel).toBe('H');
  });

  it('no config field: MULTIPART_CONFIG_MISSING', async () => {
    const res = await form({ logo: new Blob([logoPng]) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'MULTIPART_CONFIG_MISSING', field: 'config' });
  });

  it('config that is not JSON: INVALID_JSON; config that fails the schema: its own code and field', async () => {
    expect(await (await form({ config: '{nope' })).json()).toMatchObject({ code: 'INVALID_JSON' });
    expect(await (await form({ config: JSON.stringify({ content: 'x', primaryColor: 'red' }) })).json()).toMatchObject({
      code: 'INVALID_HEX',
      field: 'primaryColor',
    });
  });

  it('a file that is not an accepted image type is refused by its magic bytes', async () => {
    const res = await form({
      config: JSON.stringify({ content: 'x' }),
      background: new Blob(['%PDF-1.7 not an image'], { type: 'image/png' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'background' });
  });

  it('a file over 10 MB: FILE_TOO_LARGE naming the field', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(logoPng.subarray(0, 8));
    const res = await form({ config: JSON.stringify({ content: 'x' }), logo: new Blob([big]) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', field: 'logo' });
  });

  it('an unknown file field is refused, not ignored', async () => {
    const res = await form({ config: JSON.stringify({ content: 'x' }), avatar: new Blob([logoPng]) });
    expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'avatar' });
  });

  it('the same logo as a file and as logoBase64 is ambiguous and refused', async () => {
    const res = await form({
      config: JSON.stringify({ content: 'x', logoBase64: Buffer.from(logoPng).toString('base64') }),
      logo: new Blob([logoPng]),
    });
    expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'logoBase64' });
  });

  it('a file with a valid signature but no image behind it is refused naming the field', async () => {
    const stubs = {
      gif: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
      bmp: Buffer.concat([Buffer.from('BM'), Buffer.alloc(40)]),
      jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
      webp: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]),
    };
    for (const [type, bytes] of Object.entries(stubs)) {
      const res = await form({ config: JSON.stringify({ content: 'sig' }), background: new Blob([bytes]) });
      expect(res.status, type).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_FIELD_VALUE', field: 'background' });
    }
  });

  it('a truncated multipart body is a clear 400', async () => {
    const res = await fetch(`${svc.url}/api/qr/generate`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="config"\r\n\r\n{"content":"x"}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_MULTIPART' });
  });
});
