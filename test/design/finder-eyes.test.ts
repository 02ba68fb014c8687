import { beforeAll, describe, expect, it } from 'vitest';
import { finderInnerPath, finderOuterPath, type EyeIndex } from '../../src/design/finder-eyes.js';
import {
  FINDER_INNER_SHAPES,
  FINDER_OUTER_SHAPES,
  type FinderInnerShape,
  type FinderOuterShape,
} from '../../src/model/vocabulary.js';
import { gridFor } from './grid-fixture.js';
import { darkCount, decode, lightness, LONG_TEXT, prepare, rasterize, SHORT_URL, svgFor, type Raster } from './scan.js';
import { symbolPath } from './symbol.js';

const PX = 20;
const MARGIN = 2;

/** One eye drawn alone with its top-left corner at the origin, `MARGIN` modules of white around it. */
const eye = (outer: FinderOuterShape, inner: FinderInnerShape, index: EyeIndex = 0): Raster =>
  rasterize(svgFor(finderOuterPath(outer, 0, 0, index) + finderInnerPath(inner, 2, 2, index), 7, PX, MARGIN));

/** Lengths in modules of the dark and light runs along the eye's centre row (or column), outside margin excluded. */
function runs(r: Raster, vertical: boolean): number[] {
  const mid = Math.floor((MARGIN + 3.5) * PX);
  const out: number[] = [];
  let dark = false;
  let len = 0;
  for (let t = MARGIN * PX; t < (MARGIN + 7) * PX; t++) {
    const d = (vertical ? lightness(r, mid, t) : lightness(r, t, mid)) < 128;
    if (d !== dark && len > 0) {
      out.push(len / PX);
      len = 0;
    }
    dark = d;
    len++;
  }
  out.push(len / PX);
  return out;
}

/** Where the eye's dark pixels begin and end along the row (or column) `t` modules from its centre, in modules. */
function extent(r: Raster, t: number, vertical: boolean): [number, number] {
  const at = Math.floor((MARGIN + 3.5 + t) * PX);
  const dark = (s: number) => (vertical ? lightness(r, at, s) : lightness(r, s, at)) < 128;
  let first = 0;
  while (!dark(first)) first++;
  let last = (7 + 2 * MARGIN) * PX - 1;
  while (!dark(last)) last--;
  return [first / PX - MARGIN, (last + 1) / PX - MARGIN];
}

/** Whether light pixels connect the point (x, y), in modules from the eye's corner, to the image border. */
function escapes(r: Raster, x: number, y: number): boolean {
  const seen = new Uint8Array(r.width * r.height);
  const stack = [Math.floor((MARGIN + y) * PX) * r.width + Math.floor((MARGIN + x) * PX)];
  while (stack.length) {
    const i = stack.pop()!;
    if (seen[i] || r.pixels[i * 4] < 128) continue;
    seen[i] = 1;
    const px = i % r.width;
    const py = (i - px) / r.width;
    if (px === 0 || py === 0 || px === r.width - 1 || py === r.height - 1) return true;
    stack.push(i - 1, i + 1, i - r.width, i + r.width);
  }
  return false;
}

const mirrored = (a: Raster, b: Raster, flipX: boolean, flipY: boolean): number => {
  let differ = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const mx = flipX ? a.width - 1 - x : x;
      const my = flipY ? a.height - 1 - y : y;
      if (Math.abs(lightness(a, x, y) - lightness(b, mx, my)) > 64) differ++;
    }
  }
  return differ;
};

beforeAll(prepare);

describe('finder eye names', () => {
  it('offer at least 16 outer rings and 18 centres, each name unique and kebab-case', () => {
    expect(FINDER_OUTER_SHAPES.length).toBeGreaterThanOrEqual(16);
    expect(FINDER_INNER_SHAPES.length).toBeGreaterThanOrEqual(18);
    for (const names of [FINDER_OUTER_SHAPES, FINDER_INNER_SHAPES]) {
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
  });

  it('include the common vocabulary', () => {
    expect(FINDER_OUTER_SHAPES).toEqual(
      expect.arrayContaining([
        'square',
        'circle',
        'rounded',
        'extra-rounded',
        'left-leaf',
        'right-leaf',
        'octagon',
        'plus',
      ]),
    );
    expect(FINDER_INNER_SHAPES).toEqual(
      expect.arrayContaining([
        'square',
        'circle',
        'dot',
        'rounded',
        'extra-rounded',
        'left-leaf',
        'right-leaf',
        'octagon',
        'plus',
        'diamond',
        'star',
        'heart',
      ]),
    );
  });
});

async function decodeMisses(outer: FinderOuterShape, inner: FinderInnerShape): Promise<string[]> {
  const misses: string[] = [];
  for (const text of [SHORT_URL, LONG_TEXT]) {
    const grid = gridFor(text);
    for (const scale of [1, 0.7]) {
      const style = { shape: 'square' as const, scale, variation: 0, seed: 1 };
      const got = await decode(rasterize(svgFor(symbolPath(grid, style, outer, inner), grid.size)));
      if (got[0] !== text) misses.push(`${text.length} chars, module scale ${scale}: ${JSON.stringify(got)}`);
    }
  }
  return misses;
}

describe.each(FINDER_OUTER_SHAPES)('outer ring %s', (outer) => {
  it('decodes exactly around a square centre', async () => {
    expect(await decodeMisses(outer, 'square')).toEqual([]);
  });

  it('keeps 1:1:3:1:1 across the centre row and column', () => {
    const r = eye(outer, 'square');
    for (const vertical of [false, true]) {
      const got = runs(r, vertical);
      expect(got).toHaveLength(5);
      for (const [k, want] of [1, 1, 3, 1, 1].entries()) expect(Math.abs(got[k] - want)).toBeLessThanOrEqual(0.1);
    }
  });

  it('is a closed ring, unless dashed by design', () => {
    // A point in the gap between ring and centre.
    expect(escapes(eye(outer, 'square'), 1.5, 3.5)).toBe(outer === 'dashed');
  });

  it('on the top-right eye is the mirror image of the top-left one', () => {
    expect(mirrored(eye(outer, 'square', 0), eye(outer, 'square', 1), true, false)).toBe(0);
  });

  it('writes compact path data', () => {
    const d = finderOuterPath(outer, 10, 3, 2);
    expect(d).toMatch(/^M[MmhvlacZz0-9 .-]*z$/);
    expect(d).not.toMatch(/\.\d{4}/);
  });
});

/** Rings drawn as separate pieces (dots, dashes): their runs break between the pieces by design. */
const PIECEWISE: readonly FinderOuterShape[] = ['dots', 'dashed'];

describe.each(FINDER_OUTER_SHAPES.filter((s) => !PIECEWISE.includes(s)))('outer ring %s, one piece', (outer) => {
  it('keeps its outer edge on the 7×7 square across the middle of each side', () => {
    // zbar fits a straight line to where the runs through the eye's centre band begin and end, and takes
    // the module size from those lines: a ring that curves in there reads as smaller than it is.
    const r = eye(outer, 'square');
    for (const vertical of [false, true])
      for (const t of [-1, -0.5, 0, 0.5, 1]) {
        const [first, last] = extent(r, t, vertical);
        expect(Math.abs(first), `${vertical ? 'column' : 'row'} ${t}`).toBeLessThanOrEqual(0.05);
        expect(Math.abs(last - 7), `${vertical ? 'column' : 'row'} ${t}`).toBeLessThanOrEqual(0.05);
      }
  });
});

describe.each(FINDER_INNER_SHAPES)('centre %s', (inner) => {
  it('decodes exactly inside a square ring', async () => {
    expect(await decodeMisses('square', inner)).toEqual([]);
  });

  it('covers the eye centre and at least 40 % of the 3×3 square, leaving equal gaps to the ring', () => {
    const r = eye('square', inner);
    const box = (v: number) => Math.round((MARGIN + v) * PX);
    expect(lightness(r, box(3.5), box(3.5))).toBeLessThan(64);
    expect(darkCount(r, box(2), box(2), box(5), box(5)) / (3 * PX) ** 2).toBeGreaterThanOrEqual(0.4);
    for (const vertical of [false, true]) {
      const [ring1, gap1, centre, gap2, ring2] = runs(r, vertical);
      expect(Math.abs(ring1 - 1)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(ring2 - 1)).toBeLessThanOrEqual(0.1);
      expect(centre).toBeGreaterThanOrEqual(2.5);
      expect(Math.min(gap1, gap2)).toBeGreaterThanOrEqual(0.4);
      if (!['left-leaf', 'right-leaf', 'drop', 'classy', 'cut-corner', 'heart', 'shield'].includes(inner)) {
        expect(Math.abs(gap1 - gap2)).toBeLessThanOrEqual(0.1);
      }
    }
  });

  it('on the top-right eye is the mirror image of the top-left one', () => {
    expect(mirrored(eye('square', inner, 0), eye('square', inner, 1), true, false)).toBe(0);
  });
});

describe('eye orientation', () => {
  const cornerDark = (r: Raster, right: boolean, bottom: boolean) =>
    lightness(r, Math.round((MARGIN + (right ? 6.9 : 0.1)) * PX), Math.round((MARGIN + (bottom ? 6.9 : 0.1)) * PX)) <
    128;

  it('points a leaf’s sharp corner outward on every eye', () => {
    // Left-leaf: sharp top-left corner on the top-left eye, mirrored onto the top-right and bottom-left.
    expect([0, 1, 2].map((e) => cornerDark(eye('left-leaf', 'square', e as EyeIndex), e === 1, e === 2))).toEqual([
      true,
      true,
      true,
    ]);
    expect([0, 1, 2].map((e) => cornerDark(eye('left-leaf', 'square', e as EyeIndex), e !== 1, e === 2))).toEqual([
      false,
      false,
      false,
    ]);
    // Right-leaf rounds the outward corner instead.
    expect([0, 1, 2].map((e) => cornerDark(eye('right-leaf', 'square', e as EyeIndex), e === 1, e === 2))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('mirrors directional shapes up-down on the bottom-left eye, but keeps a shield and a heart upright', () => {
    expect(mirrored(eye('cut-corner', 'drop', 0), eye('cut-corner', 'drop', 2), false, true)).toBe(0);
    expect(mirrored(eye('shield', 'heart', 0), eye('shield', 'heart', 2), false, false)).toBe(0);
  });
});
