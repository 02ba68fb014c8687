import { beforeAll, describe, expect, it } from 'vitest';
import { modulesPath, type ModuleStyle } from '../../src/design/module-shapes.js';
import { MODULE_SHAPES, type ModuleShape } from '../../src/model/vocabulary.js';
import { gridFor, gridOf, notFinder } from './grid-fixture.js';
import { darkCount, decode, lightness, LONG_TEXT, prepare, rasterize, SHORT_URL, svgFor } from './scan.js';
import { symbolPath } from './symbol.js';

const style = (shape: ModuleShape, scale = 1, variation = 0, seed = 1): ModuleStyle => ({
  shape,
  scale,
  variation,
  seed,
});

/** Shapes that run into their neighbours, and along which axes. */
const JOINING: Record<string, { x: boolean; y: boolean }> = {
  rounded: { x: true, y: true },
  'extra-rounded': { x: true, y: true },
  classy: { x: true, y: true },
  'classy-rounded': { x: true, y: true },
  'smooth-round': { x: true, y: true },
  'smooth-sharp': { x: true, y: true },
  horizontal: { x: true, y: false },
  row: { x: true, y: false },
  vertical: { x: false, y: true },
  column: { x: false, y: true },
};

beforeAll(prepare);

describe('module shape names', () => {
  it('offer at least 24 shapes, each name unique and kebab-case', () => {
    expect(MODULE_SHAPES.length).toBeGreaterThanOrEqual(24);
    expect(new Set(MODULE_SHAPES).size).toBe(MODULE_SHAPES.length);
    for (const name of MODULE_SHAPES) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it("include qr-code-styling's and Uniqode's names and the line styles", () => {
    const required = [
      'square',
      'dots',
      'rounded',
      'extra-rounded',
      'classy',
      'classy-rounded',
      'circle',
      'kite',
      'left-diamond',
      'right-diamond',
      'thin-square',
      'smooth-round',
      'smooth-sharp',
      'diamond',
      'star',
      'squircle',
      'leaf',
      'mosaic',
      'cross',
      'plus',
      'horizontal',
      'vertical',
      'row',
      'column',
    ];
    expect(MODULE_SHAPES).toEqual(expect.arrayContaining(required));
  });
});

describe.each(MODULE_SHAPES)('module shape %s', (shape) => {
  it('decodes exactly at scale 1 and 0.7, with and without 0.15 variation', async () => {
    const misses: string[] = [];
    for (const text of [SHORT_URL, LONG_TEXT]) {
      const grid = gridFor(text);
      for (const scale of [1, 0.7]) {
        for (const variation of [0, 0.15]) {
          const got = await decode(rasterize(svgFor(symbolPath(grid, style(shape, scale, variation, 7)), grid.size)));
          if (got[0] !== text)
            misses.push(`${text.length} chars, scale ${scale}, variation ${variation}: ${JSON.stringify(got)}`);
        }
      }
    }
    expect(misses).toEqual([]);
  });

  it('formats each neighbourhood once without changing the path: the same data as drawing every module afresh', () => {
    // A variation of 1e-12 turns the per-neighbourhood memo off without changing any size that shows in
    // thousandths (a size that rounds at exactly half a thousandth may round the other way).
    const tokens = (d: string) => d.match(/[a-zA-Z]|-?(\d+\.?\d*|\.\d+)/g)!;
    const grid = gridFor(LONG_TEXT);
    for (const scale of [0.95, 0.8]) {
      const memo = tokens(modulesPath(grid, notFinder(grid), style(shape, scale, 0, 3)));
      const fresh = tokens(modulesPath(grid, notFinder(grid), style(shape, scale, 1e-12, 3)));
      expect(memo.length).toBe(fresh.length);
      const off = memo.filter((t, k) => (/[a-zA-Z]/.test(t) ? t !== fresh[k] : Math.abs(+t - +fresh[k]!) > 0.0011));
      expect(off).toEqual([]);
    }
  });

  it('covers the cell centre and at least 45 % of the cell at full size, staying mostly inside it', () => {
    const px = 100;
    const r = rasterize(
      svgFor(
        modulesPath(gridOf(['...', '.#.', '...']), () => true, style(shape)),
        3,
        px,
        0,
      ),
    );
    const inside = darkCount(r, px, px, 2 * px, 2 * px);
    const all = darkCount(r, 0, 0, 3 * px, 3 * px);
    expect(lightness(r, 1.5 * px, 1.5 * px)).toBeLessThan(64);
    expect(inside / (px * px)).toBeGreaterThanOrEqual(0.45);
    expect(inside / all).toBeGreaterThan(0.95);
  });

  it('writes compact path data: integers or at most three decimals, nothing but path commands', () => {
    const grid = gridFor(SHORT_URL);
    for (const s of [style(shape), style(shape, 0.7, 0.15, 3)]) {
      const d = modulesPath(grid, notFinder(grid), s);
      expect(d).toMatch(/^M[MmhvlacZz0-9 .-]*z$/);
      expect(d).not.toMatch(/\.\d{4}/);
    }
  });

  it('is deterministic for a seed and varies with the seed when sizes vary', () => {
    const grid = gridFor(SHORT_URL);
    const select = notFinder(grid);
    expect(modulesPath(grid, select, style(shape, 0.8, 0.1, 5))).toBe(
      modulesPath(grid, select, style(shape, 0.8, 0.1, 5)),
    );
    expect(modulesPath(grid, select, style(shape, 0.8, 0.1, 5))).not.toBe(
      modulesPath(grid, select, style(shape, 0.8, 0.1, 6)),
    );
    if (shape !== 'mosaic')
      expect(modulesPath(grid, select, style(shape, 0.8, 0, 5))).toBe(
        modulesPath(grid, select, style(shape, 0.8, 0, 6)),
      );
  });

  it('fills with the nonzero rule exactly as the union of its pieces (no piece wound against another)', () => {
    const grid = gridFor(SHORT_URL);
    for (const s of [style(shape), style(shape, 0.7, 0.15, 2)]) {
      const d = modulesPath(grid, notFinder(grid), s);
      const whole = rasterize(svgFor(d, grid.size, 30));
      const pieces = d
        .split(/(?=M)/)
        .map((p) => `<path d="${p}"/>`)
        .join('');
      const union = rasterize(svgFor(d, grid.size, 30).replace(/<path d="[^"]*"[^>]*\/>/, pieces));
      let holes = 0;
      for (let i = 0; i < whole.pixels.length; i += 4) if (whole.pixels[i] - union.pixels[i] > 128) holes++;
      expect(holes).toBe(0);
    }
  });
});

describe.each(Object.entries(JOINING))('neighbour-joining shape %s', (shape, axes) => {
  const px = 40;
  /** The lightest pixel beside the shared edge of two modules, across the middle tenth of their band. */
  const seamLightness = (rows: string[], seed: number, scale: number, variation: number): number => {
    const grid = gridOf(rows);
    const r = rasterize(
      svgFor(
        modulesPath(grid, () => true, style(shape as ModuleShape, scale, variation, seed)),
        grid.size,
        px,
        1,
      ),
    );
    let worst = 0;
    for (let t = 0.45 * px; t <= 0.55 * px; t++) {
      for (const edge of [px * 2 - 1, px * 2]) {
        // The modules sit at cell (0, 0) and (1, 0) or (0, 1), after one module of margin.
        const v = rows.length === 1 ? lightness(r, edge, px + t) : lightness(r, px + t, edge);
        worst = Math.max(worst, v);
      }
    }
    return worst;
  };

  for (const [scale, variation] of [
    [1, 0],
    [0.7, 0],
    [0.7, 0.15],
    [0.5, 0.15],
  ]) {
    it(`leaves no light gap where two modules meet (scale ${scale}, variation ${variation})`, () => {
      for (const seed of [1, 2, 3]) {
        if (axes.x) expect(seamLightness(['##'], seed, scale, variation)).toBeLessThan(32);
        if (axes.y) expect(seamLightness(['#', '#'], seed, scale, variation)).toBeLessThan(32);
      }
    });
  }

  // Only shapes that join both ways make a bend; a one-way shape gets no such test rather than an empty one.
  if (!(axes.x && axes.y)) return;
  it('keeps bends free of teeth and notches: an L of three modules is as dark at its elbow as along its arms', () => {
    const grid = gridOf(['##', '#.']);
    const r = rasterize(
      svgFor(
        modulesPath(grid, () => true, style(shape as ModuleShape, 0.7, 0, 1)),
        2,
        px,
        0,
      ),
    );
    // Along the arms' centre lines, through the elbow module.
    for (let t = 0.5 * px; t < 2 * px - 0.35 * px; t++) {
      expect(lightness(r, t, px / 2)).toBeLessThan(32);
      expect(lightness(r, px / 2, t)).toBeLessThan(32);
    }
    // Past the arms' inner edges (0.85 of a module at scale 0.7) only the smooth shapes' fillet may reach.
    if (!shape.startsWith('smooth'))
      expect(darkCount(r, Math.ceil(0.87 * px), Math.ceil(0.87 * px), 2 * px, 2 * px)).toBe(0);
  });
});

describe('Uniqode smooth patterns', () => {
  it('fill the inside of a bend with a concave curve, where rounded leaves the corner square', () => {
    const px = 40;
    const grid = gridOf(['##', '#.']);
    const near = (shape: ModuleShape) => {
      const r = rasterize(
        svgFor(
          modulesPath(grid, () => true, style(shape)),
          2,
          px,
          0,
        ),
      );
      // Just inside the empty cell, next to its top-left corner where the three modules meet.
      return lightness(r, px + 1, px + 1);
    };
    expect(near('smooth-round')).toBeLessThan(64);
    expect(near('smooth-sharp')).toBeLessThan(64);
    expect(near('rounded')).toBeGreaterThan(192);
  });
});

describe('qr-code-styling shapes', () => {
  const px = 40;
  const corner = (shape: ModuleShape, rows: string[], x: number, y: number) =>
    lightness(
      rasterize(
        svgFor(
          modulesPath(gridOf(rows), () => true, style(shape)),
          gridOf(rows).size,
          px,
          0,
        ),
      ),
      x,
      y,
    );

  it('round only corners with no neighbour on either side', () => {
    // A lone module is a dot; the end of a horizontal pair is rounded outside, square where it joins.
    expect(corner('rounded', ['#'], 1, 1)).toBeGreaterThan(192);
    expect(corner('rounded', ['##'], 1, 1)).toBeGreaterThan(192);
    expect(corner('rounded', ['##'], px - 1, 1)).toBeLessThan(64);
  });

  it('classy rounds only the top-left and bottom-right corners', () => {
    expect(corner('classy', ['#'], 1, 1)).toBeGreaterThan(192);
    expect(corner('classy', ['#'], px - 2, 1)).toBeLessThan(64);
    expect(corner('classy', ['#'], px - 2, px - 2)).toBeGreaterThan(192);
    expect(corner('classy', ['#'], 1, px - 2)).toBeLessThan(64);
  });

  it('extra-rounded turns an elbow into a quarter circle of the full module', () => {
    // Module (0, 0) of an L has neighbours right and below: its free top-left corner has radius 1.
    const grid = gridOf(['##', '#.']);
    const r = rasterize(
      svgFor(
        modulesPath(grid, () => true, style('extra-rounded')),
        2,
        px,
        0,
      ),
    );
    expect(lightness(r, Math.round(0.2 * px), Math.round(0.2 * px))).toBeGreaterThan(192);
    expect(lightness(r, Math.round(0.5 * px), Math.round(0.5 * px))).toBeLessThan(64);
  });
});
