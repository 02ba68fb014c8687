import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/model/render-config.js';
import {
  type Attempt,
  LADDER,
  LEGIBILITY_FIRST,
  MAX_LADDER_STEPS,
  render,
  rungsFor,
} from '../../src/render/guarantee.js';
import { renderOnce } from '../../src/render/pipeline.js';
import type { RenderSuccess } from '../../src/render/types.js';
import { type Check, DECODERS, type Decoder } from '../../src/render/verify/index.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';

beforeAll(initWasm);

const names = (checks: Check[]) => rungsFor(checks).map((r) => r.name);

describe('the ladder climbs only the rungs that can mend the failure found', () => {
  it('a contrast failure: only deepening the colours', () => {
    expect(names(['contrast'])).toEqual(['deepen the foreground colour']);
  });

  it('a quiet-zone failure: the rungs that change what reaches into it, never the logo, scale or variation', () => {
    expect(names(['quiet-zone'])).toEqual([
      'raise ECC',
      'fade the background image',
      'deepen the foreground colour',
      'square the finder centres',
      'square the finder rings',
      'square the modules',
    ]);
  });

  it('a decode failure: every rung, in ladder order', () => {
    expect(names(['decode'])).toEqual([
      'raise ECC',
      'shrink the logo',
      'shrink the centre text',
      'reduce moduleSizeVariation',
      'raise moduleScale',
      'fade the background image',
      'deepen the foreground colour',
      'square the finder centres',
      'square the finder rings',
      'square the modules',
    ]);
    expect(names(['decode'])).toEqual(LADDER.map((r) => r.name));
  });

  it('a code one decoder family reads and another does not: eyes toward square, modules toward full scale, then the rest', () => {
    const oneFamily = rungsFor(['decode'], true).map((r) => r.name);
    expect(oneFamily.slice(0, 3)).toEqual([
      'square the finder centres',
      'square the finder rings',
      'raise moduleScale',
    ]);
    expect(oneFamily.slice(0, 3)).toEqual(LEGIBILITY_FIRST);
    expect(oneFamily.slice(3)).toEqual(names(['decode']).filter((n) => !LEGIBILITY_FIRST.includes(n)));
    // With a quiet-zone failure beside it, module scale (which cannot mend that) still comes early.
    expect(
      rungsFor(['quiet-zone', 'decode'], true)
        .map((r) => r.name)
        .slice(0, 3),
    ).toEqual(LEGIBILITY_FIRST);
    expect(rungsFor(['contrast'], true).map((r) => r.name)).toEqual(['deepen the foreground colour']);
  });

  it('several failures: every rung that mends one of them, once, in ladder order; none: no rung', () => {
    expect(names(['contrast', 'quiet-zone', 'contrast'])).toEqual(names(['quiet-zone']));
    expect(names([])).toEqual([]);
  });
});

const design = (over: Partial<RenderConfig>): RenderConfig =>
  ({ ...QR_DEFAULTS, content: 'https://example.com/ladder', outputWidth: 240, ...over }) as RenderConfig;

/**
 * Renders and verifies for real, but reports `check` as failed on the first `times` renders: the verifier's
 * findings cannot be had on demand from a real design, and the ladder acts on them alone.
 */
function failing(check: Check, times: number): { attempt: Attempt; seen: RenderConfig[] } {
  const seen: RenderConfig[] = [];
  const attempt: Attempt = async (config, assets) => {
    seen.push(config);
    const rendered = await renderOnce({ config, assets });
    if (seen.length > times) return rendered;
    return { ...rendered, failures: [...rendered.failures, { check, message: `${check} (reported by the test)` }] };
  };
  return { attempt, seen };
}

const fieldsOf = (outcome: Awaited<ReturnType<typeof render>>) =>
  outcome.ok ? outcome.corrections.map((c) => c.field) : [];

async function decodesTo(outcome: Awaited<ReturnType<typeof render>>, content: string) {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  const { bytes, format } = outcome as RenderSuccess;
  expect((await decodeOne(format, bytes)).text).toBe(content);
  expect(await decodeWithZbar(format, bytes)).toEqual([new TextEncoder().encode(content)]);
}

describe('the guarantee corrects by the failure found', () => {
  // Module scale, size variation and a low ECC level are all there for a rung to take: the failure decides.
  const styled = { moduleShape: 'dots', moduleScale: 0.6, moduleSizeVariation: 0.1, primaryColor: '#444444' } as const;

  it('a contrast failure deepens the colour and leaves ECC and the module style alone', async () => {
    const { attempt, seen } = failing('contrast', 2);
    const cfg = design({ ...styled, eccLevel: 'L' });
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen).toHaveLength(3);
    expect(fieldsOf(outcome)).toEqual(['primaryColor']);
    expect(seen.map((c) => [c.eccLevel, c.moduleScale, c.moduleSizeVariation])).toEqual(Array(3).fill(['L', 0.6, 0.1]));
    await decodesTo(outcome, cfg.content);
  });

  it.each([
    ['quiet-zone', 'skips scale and variation and deepens the colour', 'primaryColor'],
    ['decode', 'takes the first rung left: less size variation', 'moduleSizeVariation'],
  ] as const)('a %s failure at ECC H %s', async (check, _, field) => {
    const { attempt, seen } = failing(check, 1);
    const cfg = design({ ...styled, eccLevel: 'H' });
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen).toHaveLength(2);
    expect(fieldsOf(outcome)).toEqual([field]);
    await decodesTo(outcome, cfg.content);
  });
});

describe(`the ladder stops after MAX_LADDER_STEPS (${MAX_LADDER_STEPS}) steps`, () => {
  /** How many steps the decode rungs could give this design, walked without rendering. */
  function stepsAvailable(cfg: RenderConfig): number {
    let n = 0;
    for (let next: RenderConfig | undefined = cfg; next; n++) {
      const from: RenderConfig = next;
      next = rungsFor(['decode'])
        .map((r) => r.rung(from, {}))
        .find((s) => s !== null)?.config;
    }
    return n - 1;
  }

  it('a design that never passes is refused after the cap, although rungs are left', async () => {
    const cfg = design({
      eccLevel: 'L',
      moduleShape: 'dots',
      finderOuterShape: 'rounded',
      moduleScale: 0.5,
      moduleSizeVariation: 0.15,
      primaryColor: '#707070',
    });
    expect(stepsAvailable(cfg)).toBeGreaterThan(MAX_LADDER_STEPS);
    const { attempt, seen } = failing('decode', Number.POSITIVE_INFINITY);
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen).toHaveLength(MAX_LADDER_STEPS + 1);
    expect(outcome).toMatchObject({ ok: false, code: 'QR_UNSCANNABLE' });
    expect(outcome.ok ? '' : outcome.message).toContain(`stops after ${MAX_LADDER_STEPS} steps`);
  }, 120_000);

  it('a ladder that runs out first stops there: three ECC raises, then the refusal', async () => {
    const cfg = design({ eccLevel: 'L' });
    expect(stepsAvailable(cfg)).toBe(3);
    const { attempt, seen } = failing('decode', Number.POSITIVE_INFINITY);
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen.map((c) => c.eccLevel)).toEqual(['L', 'M', 'Q', 'H']);
    expect(outcome).toMatchObject({ ok: false, code: 'QR_UNSCANNABLE' });
    expect(outcome.ok ? '' : outcome.message).not.toContain('stops after');
  });
});

/**
 * Renders and verifies for real, but on the first `times` renders reports, in place of the verifier's own
 * reading, that exactly the families `unread` did not read the content, as the verifier reports it: the
 * failure names them and their readings say so. A verdict of one family alone cannot be had on demand from
 * a real design (the shapes one family misses are being mended), and the ladder acts on the verdict alone.
 */
function unreadBy(unread: Decoder[], times: number): { attempt: Attempt; seen: RenderConfig[] } {
  const seen: RenderConfig[] = [];
  const attempt: Attempt = async (config, assets) => {
    seen.push(config);
    const rendered = await renderOnce({ config, assets });
    if (seen.length > times) return rendered;
    const v = rendered.success.verification;
    // The test's verdict replaces the verifier's on decoding: `unread` did not read it, the others did.
    const decoders = { ...v.decoders };
    for (const d of DECODERS)
      decoders[d] = unread.includes(d)
        ? { decoded: false, decodedAt: null }
        : v.decoders[d].decoded
          ? v.decoders[d]
          : { decoded: true, decodedAt: 'full' };
    const message = `${unread.join(' and ')} does not decode (reported by the test)`;
    return {
      success: {
        ...rendered.success,
        verification: { ...v, decoded: false, decodedAt: null, decoders, failures: [...v.failures, message] },
      },
      failures: [
        ...rendered.failures.filter((f) => f.check !== 'decode'),
        { check: 'decode', message, decoders: unread },
      ],
    };
  };
  return { attempt, seen };
}

describe('the ladder knows which decoder family failed', () => {
  // Every rung has something to give: ECC, variation, scale, eyes and modules are all styled.
  const styled = {
    eccLevel: 'L',
    moduleShape: 'dots',
    moduleScale: 0.6,
    moduleSizeVariation: 0.1,
    finderOuterShape: 'circle',
    finderInnerShape: 'plus',
  } as const;

  it('zbar alone failing: the centres, then the rings are squared, and nothing else changes', async () => {
    const { attempt, seen } = unreadBy(['zbar'], 2);
    const cfg = design(styled);
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen.map((c) => [c.finderInnerShape, c.finderOuterShape])).toEqual([
      ['plus', 'circle'],
      ['square', 'circle'],
      ['square', 'square'],
    ]);
    expect(fieldsOf(outcome)).toEqual(['finderInnerShape', 'finderOuterShape']);
    expect(seen.at(-1)).toMatchObject({
      eccLevel: 'L',
      moduleScale: 0.6,
      moduleSizeVariation: 0.1,
      moduleShape: 'dots',
    });
    await decodesTo(outcome, cfg.content);
  });

  it('after the eyes, module scale rises to full before ECC or anything else', async () => {
    const { attempt, seen } = unreadBy(['zxing'], 5);
    const outcome = await render({ config: design(styled), assets: {} }, attempt);
    expect(fieldsOf(outcome)).toEqual(['finderInnerShape', 'finderOuterShape', 'moduleScale']);
    expect(seen.map((c) => c.moduleScale)).toEqual([0.6, 0.6, 0.6, 0.75, 0.9, 1]);
    expect(seen.at(-1)).toMatchObject({ eccLevel: 'L', moduleSizeVariation: 0.1 });
    await decodesTo(outcome, design(styled).content);
  });

  it('nothing works: refused, naming the family that did not read it', async () => {
    const { attempt, seen } = unreadBy(['zbar'], Number.POSITIVE_INFINITY);
    const outcome = await render({ config: design({ ...styled, moduleScale: 0.9 }), assets: {} }, attempt);
    expect(seen.length).toBeGreaterThan(4);
    expect(outcome).toMatchObject({ ok: false, code: 'QR_UNSCANNABLE', failedDecoders: ['zbar'] });
    expect(outcome.ok ? '' : outcome.message).toContain('zbar does not decode');
  }, 120_000);

  it('strictScannability false: a code one family reads comes back as drawn, with a warning naming the other', async () => {
    const { attempt, seen } = unreadBy(['zbar'], Number.POSITIVE_INFINITY);
    const cfg = design({ ...styled, strictScannability: false });
    const outcome = await render({ config: cfg, assets: {} }, attempt);
    expect(seen).toHaveLength(1);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const out = outcome as RenderSuccess;
    expect(out.corrections).toEqual([]);
    expect(out.warnings).toContainEqual(expect.stringMatching(/^verification: zbar does not decode/));
    expect(out.verification.decoders).toMatchObject({ zxing: { decoded: true }, zbar: { decoded: false } });
    expect((await decodeOne(out.format, out.bytes)).text).toBe(cfg.content);
  });

  it('strictScannability false: a code neither family reads is still refused, naming both', async () => {
    const { attempt } = unreadBy(['zxing', 'zbar'], Number.POSITIVE_INFINITY);
    const outcome = await render({ config: design({ ...styled, strictScannability: false }), assets: {} }, attempt);
    expect(outcome).toMatchObject({ ok: false, code: 'QR_UNSCANNABLE', failedDecoders: ['zxing', 'zbar'] });
  });
});

describe('a centre band over the central alignment pattern', () => {
  // Light text on a dark band lies where decoders look for the central alignment pattern (versions 7 to 13
  // hide it under any centred band): measured, zxing (version 7) or both families (10, 12) fail these as first drawn.
  const valentine = (minVersion: number) =>
    design({
      content: 'https://example.com/a',
      minVersion,
      eccLevel: 'H',
      outputWidth: 1000,
      primaryColor: '#9D0B28',
      backgroundColor: '#FFF0F3',
      centerText: { text: 'LOVE', color: '#FFF0F3', backgroundColor: '#9D0B28' },
    });

  it.each([7, 10, 12])(
    'version %i: as drawn it does not decode; the text is made smaller until both families read it',
    async (v) => {
      const cfg = valentine(v);
      const first = await renderOnce({ config: cfg, assets: {} });
      expect(first.failures.map((f) => f.check)).toContain('decode');
      const outcome = await render({ config: cfg, assets: {} });
      expect(fieldsOf(outcome)).toEqual(['centerText.fontSize']);
      const [shrunk] = (outcome as RenderSuccess).corrections;
      expect(shrunk!.to).toBeLessThan(shrunk!.from as number);
      await decodesTo(outcome, cfg.content);
    },
  );

  it('text asked for at a size is shrunk from that size, and stops at its smallest', async () => {
    const outcome = await render({
      config: {
        ...valentine(10),
        centerText: { text: 'LOVE', color: '#FFF0F3', backgroundColor: '#9D0B28', fontSize: 150 },
      },
      assets: {},
    });
    expect((outcome as RenderSuccess).corrections).toEqual([
      expect.objectContaining({ field: 'centerText.fontSize', from: 150 }),
    ]);
    await decodesTo(outcome, 'https://example.com/a');
    const rung = LADDER.find((r) => r.name === 'shrink the centre text')!.rung;
    let cfg: RenderConfig | undefined = valentine(10);
    let steps = 0;
    for (; cfg; steps++) cfg = rung(cfg, {})?.config;
    expect(steps).toBeGreaterThan(1);
    expect(steps).toBeLessThan(MAX_LADDER_STEPS);
    expect(rung(design({}), {})).toBeNull();
  });
});
