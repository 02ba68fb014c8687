import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const expectError = async (res: Response, status: number, code: string, field?: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = await res.json();
  expect(body.success).toBe(false);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  if (field === undefined) expect(body.field).toBeUndefined();
  else expect(body.field).toBe(field);
  return body;
};

describe('validation codes name the offending field', () => {
  // The body: a string or bytes sent as they are, anything else sent as its JSON.
  const cases: [string, string | Uint8Array<ArrayBuffer> | object, number, string, string | undefined][] = [
    ['body is not JSON', '{"content": "x",', 400, 'INVALID_JSON', undefined],
    ['body is a JSON array', '[1,2]', 400, 'INVALID_JSON', undefined],
    ['body is not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, 'INVALID_JSON', undefined],
    ['content missing', { primaryColor: '#000' }, 400, 'MISSING_REQUIRED_FIELD', 'content'],
    ['content empty', { content: '' }, 400, 'MISSING_REQUIRED_FIELD', 'content'],
    ['content over 4296 chars', { content: 'A'.repeat(4297) }, 400, 'CONTENT_TOO_LONG', 'content'],
    [
      'content over capacity at ECC H',
      { content: 'é'.repeat(1000), eccLevel: 'H' },
      400,
      'CONTENT_TOO_LONG',
      'content',
    ],
    ['colour name instead of hex', { content: 'x', primaryColor: 'red' }, 400, 'INVALID_HEX', 'primaryColor'],
    ['hex of 5 digits', { content: 'x', backgroundColor: '#12345' }, 400, 'INVALID_HEX', 'backgroundColor'],
    ['nested hex', { content: 'x', centerText: { text: 'hi', color: 'blue' } }, 400, 'INVALID_HEX', 'centerText.color'],
    ['outputWidth too large', { content: 'x', outputWidth: 5000 }, 400, 'VALUE_OUT_OF_RANGE', 'outputWidth'],
    ['outputHeight too small', { content: 'x', outputHeight: 10 }, 400, 'VALUE_OUT_OF_RANGE', 'outputHeight'],
    ['pixelsPerModule 0', { content: 'x', pixelsPerModule: 0 }, 400, 'VALUE_OUT_OF_RANGE', 'pixelsPerModule'],
    ['moduleScale 0.2', { content: 'x', moduleScale: 0.2 }, 400, 'VALUE_OUT_OF_RANGE', 'moduleScale'],
    [
      'moduleSizeVariation 0.5',
      { content: 'x', moduleSizeVariation: 0.5 },
      400,
      'VALUE_OUT_OF_RANGE',
      'moduleSizeVariation',
    ],
    ['logoSizePercent 50', { content: 'x', logoSizePercent: 50 }, 400, 'VALUE_OUT_OF_RANGE', 'logoSizePercent'],
    ['qrShapeRadius 51', { content: 'x', qrShapeRadius: 51 }, 400, 'VALUE_OUT_OF_RANGE', 'qrShapeRadius'],
    ['quiet zone below 4', { content: 'x', quietZone: 2 }, 400, 'VALUE_OUT_OF_RANGE', 'quietZone'],
    [
      'pixelsPerModule too large for the width',
      { content: 'x', outputWidth: 200, pixelsPerModule: 20 },
      400,
      'VALUE_OUT_OF_RANGE',
      'pixelsPerModule',
    ],
    [
      'pixelsPerModule alone making an image over 4096 px',
      { content: 'x'.repeat(400), pixelsPerModule: 100 },
      400,
      'VALUE_OUT_OF_RANGE',
      'pixelsPerModule',
    ],
    [
      'width too small for the symbol',
      { content: 'x'.repeat(1500), outputWidth: 64 },
      400,
      'VALUE_OUT_OF_RANGE',
      'outputWidth',
    ],
    ['unknown fileFormat', { content: 'x', fileFormat: 'gif' }, 400, 'INVALID_FIELD_VALUE', 'fileFormat'],
    ['unknown eccLevel', { content: 'x', eccLevel: 'X' }, 400, 'INVALID_FIELD_VALUE', 'eccLevel'],
    ['unknown module shape', { content: 'x', moduleShape: 'blob-of-doom' }, 400, 'INVALID_FIELD_VALUE', 'moduleShape'],
    ['unknown field (a typo)', { content: 'x', primaryColour: '#000' }, 400, 'INVALID_FIELD_VALUE', 'primaryColour'],
    ['wrong type', { content: 'x', outputWidth: '800' }, 400, 'INVALID_FIELD_VALUE', 'outputWidth'],
    ['non-integer width', { content: 'x', outputWidth: 800.5 }, 400, 'INVALID_FIELD_VALUE', 'outputWidth'],
    ['content is a number', { content: 42 }, 400, 'INVALID_FIELD_VALUE', 'content'],
    ['__proto__ key', '{"content":"x","__proto__":{"polluted":true}}', 400, 'INVALID_FIELD_VALUE', '__proto__'],
    [
      'nested constructor key',
      '{"content":"x","centerText":{"text":"a","constructor":{"prototype":{}}}}',
      400,
      'INVALID_FIELD_VALUE',
      'prototype',
    ],
    ['non-finite number', '{"content":"x","outputWidth":1e999}', 400, 'VALUE_OUT_OF_RANGE', 'outputWidth'],
    [
      'logoBase64 not an image',
      { content: 'x', logoBase64: Buffer.from('hello, not an image').toString('base64') },
      400,
      'INVALID_FIELD_VALUE',
      'logoBase64',
    ],
    ['logoBase64 not base64', { content: 'x', logoBase64: '***' }, 400, 'INVALID_FIELD_VALUE', 'logoBase64'],
    ['logoUrl not http', { content: 'x', logoUrl: 'file:///etc/passwd' }, 400, 'INVALID_FIELD_VALUE', 'logoUrl'],
    [
      'contrast that no foreground can reach (background from black to white)',
      {
        content: 'x',
        backgroundGradient: {
          type: 'linear',
          stops: [
            { offset: 0, color: '#000000' },
            { offset: 1, color: '#FFFFFF' },
          ],
        },
      },
      400,
      'LOW_CONTRAST',
      'primaryColor',
    ],
    [
      'contrast of one gradient stop',
      {
        content: 'x',
        backgroundColor: '#FFFFFF',
        foregroundGradient: {
          type: 'linear',
          stops: [
            { offset: 0, color: '#000000' },
            { offset: 1, color: '#000000' },
          ],
        },
        backgroundGradient: {
          type: 'radial',
          stops: [
            { offset: 0, color: '#FFFFFF' },
            { offset: 1, color: '#111111' },
          ],
        },
      },
      400,
      'LOW_CONTRAST',
      'foregroundGradient.stops.0.color',
    ],
    [
      'logo over 25 % with explicit ECC below H',
      { content: 'x', logoUrl: 'https://example.com/logo.png', logoSizePercent: 30, eccLevel: 'M' },
      400,
      'LOGO_TOO_LARGE',
      'logoSizePercent',
    ],
  ];
  for (const [name, body, status, code, field] of cases) {
    it(name, async () => {
      const res = await fetch(`${svc.url}/api/qr/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      });
      await expectError(res, status, code, field);
    });
  }

  it('a prototype-pollution attempt leaves Object.prototype untouched', async () => {
    await svc.post('/api/qr/generate', '{"content":"x","__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a good request right after bad ones still renders (nothing leaks between requests)', async () => {
    const res = await svc.post('/api/qr/generate', { content: 'still fine' });
    expect(res.status).toBe(200);
  });
});
