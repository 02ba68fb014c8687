import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, parseHex } from '../../src/model/color.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';
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

/** Small modules of uneven size: at 100 px some designs stop decoding, which the ladder then has to mend. */
const SMALL_AND_UNEVEN = { moduleScale: 0.5, moduleSizeVariation: 0.15, outputWidth: 100 };

/**
 * The fields the ladder changes, in the order of its rungs (src/render/guarantee.ts), for designs in black on
 * white: the colour rung then has only primaryColor to deepen.
 */
const LADDER_FIELDS = [
  'eccLevel',
  'logoSizePercent',
  'moduleSizeVariation',
  'moduleScale',
  'backgroundImageOpacity',
  'primaryColor',
  'finderInnerShape',
  'finderOuterShape',
  'moduleShape',
];

const fieldsOf = (body: { corrections: { field: string }[] }) => body.corrections.map((c) => c.field);

/**
 * A design at ECC L with small uneven modules that, left alone (strictScannability false), neither decoder
 * family reads, so the guarantee has to correct it: checked here, so a test of the correction cannot pass
 * without one.
 */
async function unscannableAlone(moduleShape: string, outputWidth: number, moduleScale = SMALL_AND_UNEVEN.moduleScale) {
  const content = 'https://example.com/ladder/order/test';
  const design = { content, moduleShape, eccLevel: 'L', ...SMALL_AND_UNEVEN, outputWidth, moduleScale };
  const alone = await render({ ...design, strictScannability: false });
  expect(alone).toMatchObject({ status: 422, body: { code: 'QR_UNSCANNABLE' } });
  return design;
}

const fileOf = (body: { qrBase64: string }) => new Uint8Array(Buffer.from(body.qrBase64, 'base64'));
const zbarReads = async (body: { qrBase64: string; format: string }, content: string) =>
  (await decodeWithZbar(body.format, fileOf(body))).some((b) => Buffer.from(b).toString('utf8') === content);

/** Both decoder families, independently of the service, read the file to the content, byte for byte. */
const decodesTo = async (body: { qrBase64: string; format: string }, content: string) => {
  expect((await decodeOne(body.format, fileOf(body))).text).toBe(content);
  expect(await decodeWithZbar(body.format, fileOf(body))).toEqual([new TextEncoder().encode(content)]);
};

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
    await decodesTo(body, 'toward white');
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

  it('variation 0.15 at scale 0.5 at 100 px comes back scanning in every module shape, corrected exactly where it had to be', async () => {
    const needed: boolean[] = [];
    for (const moduleShape of ['dots', 'star', 'diamond', 'kite', 'thin-square', 'cross']) {
      const design = { content: `https://example.com/${moduleShape}`, moduleShape, ...SMALL_AND_UNEVEN };
      // The same design without the guarantee says whether it needs correcting: refused, or warned about.
      const lenient = await render({ ...design, strictScannability: false });
      const fails = lenient.status === 422 || lenient.body.warnings.some((w: string) => w.startsWith('verification:'));
      needed.push(fails);
      const { status, body } = await render(design);
      expect(status, moduleShape).toBe(200);
      await decodesTo(body, design.content);
      expect(body.corrections.length > 0, moduleShape).toBe(fails);
      expect(LADDER_FIELDS, moduleShape).toEqual(expect.arrayContaining(fieldsOf(body)));
    }
    // At this size some shapes need the ladder and some do not: both halves of the claim are exercised.
    expect(new Set(needed)).toEqual(new Set([true, false]));
  });

  it('corrections follow the ladder order: ECC is raised before anything visible changes', async () => {
    const design = await unscannableAlone('star', 100);
    const { status, body } = await render(design);
    expect(status).toBe(200);
    expect(body.corrections[0]).toMatchObject({ field: 'eccLevel', from: 'L' });
    expect(body.eccLevel).toBe(body.corrections[0].to);
    // ECC alone was not enough here, so visible changes follow, in the ladder's order.
    const ranks = fieldsOf(body).map((f) => LADDER_FIELDS.indexOf(f));
    expect(ranks.length).toBeGreaterThan(1);
    expect(ranks).not.toContain(-1);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    await decodesTo(body, design.content);
  });

  it('when raising ECC is enough, it is the only correction: nothing visible changes', async () => {
    // Full-size uneven modules, which neither family reads at ECC L: more error correction mends the
    // modules they misread. (At half scale one family reads first, and the module scale is raised.)
    const design = await unscannableAlone('extra-rounded', 100, 1);
    const { status, body } = await render(design);
    expect(status).toBe(200);
    expect(body.corrections).toEqual([expect.objectContaining({ field: 'eccLevel', from: 'L', to: body.eccLevel })]);
    expect(body.eccLevel).not.toBe('L');
    await decodesTo(body, design.content);
  });

  it('strictScannability false reports problems as warnings and changes nothing, as long as the code decodes', async () => {
    const { status, body } = await render({
      content: 'not strict',
      primaryColor: '#777777',
      backgroundColor: '#888888',
      strictScannability: false,
    });
    expect(status).toBe(200);
    expect(body.corrections).toEqual([]);
    expect(body.warnings.join(' ')).toMatch(/contrast/);
    await decodesTo(body, 'not strict');
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
    await decodesTo(body, 'https://example.com/score');
    await decodesTo(styled.body, 'https://example.com/score');
  });
});

describe('two decoder families', () => {
  it('a plain code: both read it from afar, reported one by one', async () => {
    const { status, body } = await render({ content: 'https://example.com/two' });
    expect(status).toBe(200);
    expect(body.verification).toMatchObject({
      decoded: true,
      decodedAt: 'reduced',
      decoders: { zxing: { decoded: true, decodedAt: 'reduced' }, zbar: { decoded: true, decodedAt: 'reduced' } },
    });
    await decodesTo(body, 'https://example.com/two');
  });

  // One pixel per module: zxing reads the file, zbar (a line scanner, which needs a few pixels per
  // module to see the finder's runs) does not, and no rung of the ladder changes the pixel size.
  const onePixel = { content: 'https://example.com/one-pixel', pixelsPerModule: 1 };

  it('strictScannability false: a code only zxing reads comes back with a warning naming zbar, as reported', async () => {
    const { status, body } = await render({ ...onePixel, strictScannability: false });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.corrections).toEqual([]);
    expect(body.verification).toMatchObject({
      decoded: false,
      decodedAt: null,
      decoders: { zxing: { decoded: true }, zbar: { decoded: false, decodedAt: null } },
    });
    expect(body.warnings).toContainEqual(expect.stringMatching(/^verification: zbar does not decode .*; zxing does$/));
    // The report holds for the file itself, read independently of the service.
    expect((await decodeOne(body.format, fileOf(body))).text).toBe(onePixel.content);
    expect(await zbarReads(body, onePixel.content)).toBe(false);
  });

  it('strict: when nothing makes both read it, 422 naming the family that failed', async () => {
    const { status, body } = await render(onePixel);
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'QR_UNSCANNABLE', failedDecoders: ['zbar'] });
    expect(body.error).toMatch(/zbar does not decode/);
  });

  // Half-size square modules at 100 px: zbar reads them and zxing does not.
  const halfScale = { content: 'https://example.com/half-scale', moduleScale: 0.5, outputWidth: 100 };

  it('strictScannability false: a code only zbar reads comes back with a warning naming zxing', async () => {
    const { status, body } = await render({ ...halfScale, strictScannability: false });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.verification.decoders).toMatchObject({ zxing: { decoded: false }, zbar: { decoded: true } });
    expect(body.warnings).toContainEqual(expect.stringMatching(/^verification: zxing does not decode .*; zbar does$/));
    expect(await zbarReads(body, halfScale.content)).toBe(true);
  });

  it('strict: the same code is mended by module scale first, before ECC, and then both read it', async () => {
    const { status, body } = await render(halfScale);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.corrections[0]).toMatchObject({ field: 'moduleScale', from: 0.5 });
    expect(fieldsOf(body)).not.toContain('eccLevel');
    expect(body.verification.decoders).toMatchObject({ zxing: { decoded: true }, zbar: { decoded: true } });
    await decodesTo(body, halfScale.content);
  });
});
