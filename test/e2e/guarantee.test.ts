import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, parseHex } from '../../src/model/color.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ cacheBytes: 0 });
});
afterAll(() => svc.close());

const render = async (design: Record<string, unknown>) => {
  const res = await svc.post('/api/qr/generate', design);
  return { status: res.status, body: await res.json() };
};

const decodesTo = async (body: { qrBase64: string; format: string }, content: string) =>
  expect((await decodeOne(body.format, new Uint8Array(Buffer.from(body.qrBase64, 'base64')))).text).toBe(content);

describe('the scannability guarantee', () => {
  it('grey on grey is deepened until it reaches 4:1, every step reported, and the result scans', async () => {
    const { status, body } = await render({
      content: 'grey on grey',
      primaryColor: '#777777',
      backgroundColor: '#888888',
    });
    expect(status).toBe(200);
    const fix = body.corrections.find((c: { field: string }) => c.field === 'primaryColor');
    expect(fix).toMatchObject({ from: '#777777', reason: expect.stringMatching(/contrast/) });
    expect(contrastRatio(parseHex(fix.to), parseHex('#888888'))).toBeGreaterThanOrEqual(4);
    expect(body.verification.contrastRatio).toBeGreaterThanOrEqual(4);
    await decodesTo(body, 'grey on grey');
  });

  it('light on dark is allowed and verified', async () => {
    const { status, body } = await render({
      content: 'light on dark',
      primaryColor: '#F5F5F5',
      backgroundColor: '#102030',
    });
    expect(status).toBe(200);
    expect(body.corrections).toEqual([]);
    await decodesTo(body, 'light on dark');
  });

  it('light on a darkish background is deepened toward white, not black', async () => {
    const { status, body } = await render({
      content: 'toward white',
      primaryColor: '#556677',
      backgroundColor: '#223344',
    });
    expect(status).toBe(200);
    const fix = body.corrections.find((c: { field: string }) => c.field === 'primaryColor');
    expect(fix).toBeDefined();
    expect(parseHex(fix.to).r).toBeGreaterThan(0x55);
  });

  it('a 40 % logo at ECC L is refused as LOGO_TOO_LARGE, never a broken 200', async () => {
    const res = await svc.post('/api/qr/generate', {
      content: 'logo',
      logoUrl: 'https://example.com/l.png',
      logoSizePercent: 40,
      eccLevel: 'L',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'LOGO_TOO_LARGE', field: 'logoSizePercent' });
  });

  it('variation 0.15 at scale 0.5 in every module shape comes back scanning, corrected where it had to be', async () => {
    for (const moduleShape of ['dots', 'star', 'diamond', 'kite', 'thin-square', 'cross']) {
      const content = `https://example.com/${moduleShape}`;
      const { status, body } = await render({
        content,
        moduleShape,
        moduleScale: 0.5,
        moduleSizeVariation: 0.15,
        outputWidth: 300,
      });
      expect(status, moduleShape).toBe(200);
      await decodesTo(body, content);
      for (const c of body.corrections)
        expect([
          'eccLevel',
          'moduleSizeVariation',
          'moduleScale',
          'finderOuterShape',
          'finderInnerShape',
          'moduleShape',
          'primaryColor',
        ]).toContain(c.field);
    }
  });

  it('corrections follow the ladder order: ECC is raised before anything visible changes', async () => {
    const { status, body } = await render({
      content: 'https://example.com/ladder/order/test',
      moduleShape: 'star',
      moduleScale: 0.5,
      moduleSizeVariation: 0.15,
      eccLevel: 'L',
      outputWidth: 200,
    });
    expect(status).toBe(200);
    if (body.corrections.length) expect(body.corrections[0].field).toBe('eccLevel');
    await decodesTo(body, 'https://example.com/ladder/order/test');
  });

  it('strictScannability false reports problems as warnings and changes nothing, as long as the code decodes', async () => {
    const { status, body } = await render({
      content: 'not strict',
      primaryColor: '#777777',
      backgroundColor: '#888888',
      strictScannability: false,
    });
    if (status === 200) {
      expect(body.corrections).toEqual([]);
      expect(body.warnings.join(' ')).toMatch(/contrast/);
      await decodesTo(body, 'not strict');
    } else {
      expect(body.code).toBe('QR_UNSCANNABLE');
    }
  });

  it('reports a scanScore with the trials it made', async () => {
    const { body } = await render({ content: 'https://example.com/score' });
    expect(body.verification.scanScore).toBe(100);
    expect(body.verification.scanTrials).toEqual([
      { name: expect.stringMatching(/further away/), decoded: true },
      { name: expect.stringMatching(/at once/), decoded: true },
    ]);
    const styled = await render({
      content: 'https://example.com/score',
      moduleShape: 'dots',
      moduleScale: 0.6,
      outputWidth: 200,
    });
    expect(styled.body.verification.scanScore).toBeGreaterThanOrEqual(25);
    expect(styled.body.verification.scanScore).toBeLessThanOrEqual(100);
  });
});
