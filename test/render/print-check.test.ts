import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/model/render-config.js';
import { type PrintCheck, printCheck } from '../../src/render/print-check.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';

beforeAll(() => initWasm());

const check = async (over: Partial<RenderConfig>, distanceCm = 30): Promise<PrintCheck> =>
  printCheck(
    {
      config: { ...QR_DEFAULTS, outputWidth: 800, content: 'https://example.com/menu', ...over } as RenderConfig,
      assets: {},
    },
    distanceCm,
  );
const widthOf = async (over: Partial<RenderConfig>, distanceCm = 30) => (await check(over, distanceCm)).minWidthMm!;

describe('the print check', () => {
  it('a plain version-2 code at 30 cm needs about distance ÷ 10 (within a factor of two)', async () => {
    const v2 = await check({ minVersion: 2 });
    expect(v2).toMatchObject({ distanceCm: 30, model: 'phone-67deg-1280px-1' });
    expect(v2.minWidthMm).toBeGreaterThanOrEqual(15);
    expect(v2.minWidthMm).toBeLessThanOrEqual(60);
  });

  it('a denser code never gets a smaller minimum', async () => {
    const widths = [];
    for (const minVersion of [2, 3, 5, 7, 10]) widths.push(await widthOf({ minVersion }));
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
    expect(widths[4]).toBeGreaterThan(widths[0]!);
  });

  it('a longer distance never gets a smaller minimum: the width grows in proportion', async () => {
    const at = [10, 30, 100, 300];
    const widths = [];
    for (const d of at) widths.push(await widthOf({ minVersion: 4 }, d));
    for (let i = 1; i < at.length; i++) {
      expect(widths[i]).toBeGreaterThan(widths[i - 1]!);
      // Within the 0.1 mm the answer is rounded up to.
      expect(Math.abs(widths[i]! / widths[0]! - at[i]! / at[0]!) / (at[i]! / at[0]!)).toBeLessThan(0.02);
    }
  });

  it('a fragile design never gets a smaller minimum than the same code with square modules', async () => {
    const square = await widthOf({ minVersion: 5 });
    for (const design of [
      { moduleShape: 'dots', moduleScale: 0.6 },
      { moduleShape: 'star' },
      { moduleShape: 'dots' },
      { moduleShape: 'rounded', finderOuterShape: 'rounded' },
    ] as const) {
      expect(await widthOf({ minVersion: 5, ...design }), JSON.stringify(design)).toBeGreaterThanOrEqual(square);
    }
    // Small, far apart dots need a larger print than the square code.
    expect(await widthOf({ minVersion: 5, moduleShape: 'dots', moduleScale: 0.6 })).toBeGreaterThan(square);
  });

  it('keeps its verdicts on a fixed set of designs (the model is deterministic; a change to it renames it)', async () => {
    const verdicts = {
      'plain v2': await widthOf({ minVersion: 2 }),
      'plain v10': await widthOf({ minVersion: 10 }),
      'dots at 0.6, v5': await widthOf({ minVersion: 5, moduleShape: 'dots', moduleScale: 0.6 }),
      'navy on cream, rounded, v5': await widthOf({
        minVersion: 5,
        moduleShape: 'rounded',
        primaryColor: '#1a237e',
        backgroundColor: '#fff8e1',
      }),
    };
    expect(verdicts).toEqual({
      'plain v2': 21.5,
      'plain v10': 45,
      'dots at 0.6, v5': 32.3,
      'navy on cream, rounded, v5': 30.8,
    });
  });
});
