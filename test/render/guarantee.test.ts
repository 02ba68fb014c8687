import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/model/render-config.js';
import { type Attempt, LADDER, MAX_LADDER_STEPS, render, rungsFor } from '../../src/render/guarantee.js';
import { renderOnce } from '../../src/render/pipeline.js';
import type { RenderSuccess } from '../../src/render/types.js';
import type { Check } from '../../src/render/verify/index.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';
import { decodeOne } from '../helpers/decode.js';

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
      'square the finder eyes',
      'square the modules',
    ]);
  });

  it('a decode failure: every rung, in ladder order', () => {
    expect(names(['decode'])).toEqual([
      'raise ECC',
      'shrink the logo',
      'reduce moduleSizeVariation',
      'raise moduleScale',
      'fade the background image',
      'deepen the foreground colour',
      'square the finder eyes',
      'square the modules',
    ]);
    expect(names(['decode'])).toEqual(LADDER.map((r) => r.name));
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
