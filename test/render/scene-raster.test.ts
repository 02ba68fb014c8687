/**
 * The raster kernel (wasm/assembly/raster.ts, driven by src/render/canvas.ts and flatten.ts) against exact
 * geometry, and against resvg on the same scenes: every module shape, finder ring and centre, gradients,
 * eye transforms, logos, background images, text and frames, and a set of random designs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHex } from '../../src/model/color.js';
import type { Affine, Placements } from '../../src/model/layer.js';
import { Canvas } from '../../src/render/canvas.js';
import { Edges } from '../../src/render/edges.js';
import { flattenPath, flattenPlaced, placedApart } from '../../src/render/flatten.js';
import { designScene } from '../../src/render/pipeline.js';
import { levelsOf, rasterizeScene, toRgba } from '../../src/render/raster.js';
import { loadResvg, rasterizeSvg } from '../../src/render/resvg.js';
import { sceneToSvg } from '../../src/render/svg.js';
import type { RenderTask } from '../../src/render/types.js';
import { initWasm } from '../../wasm/index.js';
import { randomDesign } from '../helpers/random-design.js';
import { CONTENT, configOf, drawingDiff, SCENE_CASES } from '../helpers/scene-cases.js';

beforeAll(() => Promise.all([initWasm(), loadResvg()]));

const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];
const BLACK = { kind: 'solid', color: parseHex('#000000') } as const;

/** A path (its data, or shapes placed) drawn black on a transparent canvas; returns the alpha channel. */
function coverage(d: string | Placements, width: number, height: number, m: Affine = IDENTITY): Uint8Array {
  const canvas = new Canvas(width, height);
  canvas.background({ kind: 'solid', color: parseHex('#00000000') });
  const edges = new Edges();
  if (typeof d === 'string') flattenPath(d, m, edges);
  else flattenPlaced(d, m, edges);
  canvas.fillPath(edges, BLACK, m);
  const { pixels } = canvas.toRaster();
  return Uint8Array.from({ length: width * height }, (_, i) => pixels[i * 4 + 3]!);
}
const area = (alpha: Uint8Array) => alpha.reduce((s, a) => s + a, 0) / 255;

describe('exact geometry', () => {
  it('a pixel-aligned square covers its pixels fully and nothing else', () => {
    const a = coverage('M2 3h4v5h-4z', 10, 10);
    for (let y = 0; y < 10; y++)
      for (let x = 0; x < 10; x++)
        expect(a[y * 10 + x], `${x},${y}`).toBe(x >= 2 && x < 6 && y >= 3 && y < 8 ? 255 : 0);
  });

  it('edges between pixels give the covered share of each pixel', () => {
    const a = coverage('M1.5 1.25H4.5V3.75H1.5Z', 6, 6);
    expect(a[1 * 6 + 1]).toBe(Math.round(0.5 * 0.75 * 255)); // corner: half wide, three quarters tall
    expect(a[1 * 6 + 2]).toBe(Math.round(0.75 * 255));
    expect(a[2 * 6 + 2]).toBe(255);
    expect(a[2 * 6 + 4]).toBe(Math.round(0.5 * 255));
    expect(area(a)).toBeCloseTo(3 * 2.5, 1);
  });

  it('a sloped edge splits pixels by exact area', () => {
    // The triangle (0,0) (4,4) (0,4): each diagonal pixel is half covered.
    const a = coverage('M0 0L4 4L0 4Z', 4, 4);
    for (let i = 0; i < 4; i++) expect(a[i * 4 + i]).toBe(128);
    expect(a[3 * 4 + 0]).toBe(255);
    expect(a[0 * 4 + 3]).toBe(0);
    expect(area(a)).toBeCloseTo(8, 1);
  });

  it('a hole wound the other way is cut out; shapes wound the same way do not add up past full (nonzero)', () => {
    const ring = coverage('M0 0H8V8H0Z M2 2V6H6V2Z', 8, 8);
    expect(ring[4 * 8 + 4]).toBe(0);
    expect(ring[1 * 8 + 1]).toBe(255);
    const overlap = coverage('M0 0H6V6H0Z M2 2H8V8H2Z', 8, 8);
    expect(overlap[3 * 8 + 3]).toBe(255);
    expect(area(overlap)).toBeCloseTo(36 + 36 - 16, 1);
  });

  it('arcs, cubic and quadratic curves, absolute and relative, shorthand and implicit commands, enclose their true areas', () => {
    const r = 20;
    const circle = `M50 30a${r} ${r} 0 0 1 0 40a${r} ${r} 0 1 1 0-40z`;
    expect(area(coverage(circle, 100, 100))).toBeCloseTo(Math.PI * r * r, 0);
    // Flags written without separators, as SVG allows.
    expect(area(coverage('M50 30a20 20 0 010 40a20 20 0 110-40z', 100, 100))).toBeCloseTo(Math.PI * r * r, 0);
    // A circle from four cubics (kappa 0.5523): area within 0.03 % of πr².
    const k = 0.5523 * r;
    const cubicCircle = `M${50 + r} 50C${50 + r} ${50 + k} ${50 + k} ${50 + r} 50 ${50 + r}S${50 - r} ${50 + k} ${50 - r} 50s${r - k} ${-r} ${r} ${-r}c${k} 0 ${r} ${r - k} ${r} ${r}z`;
    expect(area(coverage(cubicCircle, 100, 100)) / (Math.PI * r * r)).toBeCloseTo(1, 2);
    // A parabolic segment: the area between a quadratic and its chord is 2/3 of the control triangle's.
    const quad = coverage('M10 80Q50 0 90 80Z', 100, 100);
    expect(Math.abs(area(quad) / (((2 / 3) * (80 * 80)) / 2) - 1)).toBeLessThan(0.002);
    // T reflects the control point below the chord: two lobes wound oppositely, both filled (nonzero).
    const smooth = coverage('M10 80Q30 40 50 80T90 80Z', 100, 100);
    expect(Math.abs(area(smooth) / ((2 * (2 / 3) * (40 * 40)) / 2) - 1)).toBeLessThan(0.003);
    expect(smooth[95 * 100 + 70]).toBe(255);
    // Numbers after M are line-tos; H and V.
    expect(area(coverage('M10 10 30 10 30 30 10 30z', 40, 40))).toBeCloseTo(400, 1);
    expect(area(coverage('m10 10h20v20h-20z', 40, 40))).toBeCloseTo(400, 1);
  });

  it('applies the affine it is given, and clips what falls outside the canvas', () => {
    expect(area(coverage('M0 0h1v1h-1z', 40, 40, [10, 0, 0, 10, 5, 5]))).toBeCloseTo(100, 1);
    expect(area(coverage('M-10 -10H50V50H-10Z', 20, 20))).toBeCloseTo(400, 1);
    expect(area(coverage('M-10 5H5V15H-10Z', 20, 20))).toBeCloseTo(50, 1);
  });

  it('draws a canvas too large for the shared kernel memory on an instance of its own, and small ones after it', () => {
    expect(area(coverage('M100 100H1400V1400H100Z', 1500, 1500))).toBeCloseTo(1300 * 1300, 0);
    expect(area(coverage('M1 1h2v2h-2z', 4, 4))).toBeCloseTo(4, 3);
  });

  it('draws a subpath repeated at other places, and at another scale, as the same data written absolutely', () => {
    // The body after each M moves only relatively, so it is flattened once and placed (flatten.ts, stamps):
    // on whole pixels, between them, and past the canvas's edge, where the kernel clips its edges.
    const body = 'h3a1 1 0 0 1 1 1v2l-2 1.5z';
    const absolute = (x: number, y: number) =>
      `M${x} ${y}H${x + 3}A1 1 0 0 1 ${x + 4} ${y + 1}V${y + 3}L${x + 2} ${y + 4.5}Z`;
    const starts = [
      [1, 1],
      [6, 1],
      [10.25, 2.5],
      [13.5, 4],
    ] as const;
    const placed = starts.map(([x, y]) => `M${x} ${y}${body}`).join('');
    const written = starts.map(([x, y]) => absolute(x, y)).join('');
    expect(coverage(placed, 16, 8)).toEqual(coverage(written, 16, 8));
    const scale: Affine = [2.5, 0, 0, 2.5, 0.5, 0];
    expect(coverage(placed, 40, 20, scale)).toEqual(coverage(written, 40, 20, scale));
  });

  it('draws a layer of placed module outlines exactly as its path data', async () => {
    // The scene keeps styled modules as outlines and places (scene.ts, modulesLayer); the raster flattens
    // those (flatten.ts, flattenPlaced), the documents write the path data.
    for (const moduleShape of ['rounded', 'dots', 'classy-rounded']) {
      const { scene } = await designScene(configOf({ content: CONTENT, moduleShape }));
      const layer = scene.layers[0]!;
      if (layer.kind !== 'path' || !layer.placed) throw new Error(`${moduleShape}: no placed outlines`);
      const { modulePx, originX, originY } = scene.layout;
      const m: Affine = [modulePx, 0, 0, modulePx, originX, originY];
      const [w, h] = [scene.layout.width, scene.layout.height];
      expect(coverage(layer.d, w, h, m), moduleShape).toEqual(coverage(layer.placed, w, h, m));
    }
  });

  it('paints module outlines kept apart from their own coverage as filling them paints them', async () => {
    // Whole-pixel modules, one outline to a cell (flatten.ts, placedApart): each is painted from its stamp's
    // coverage (canvas.ts, paintApart) instead of filled; the same scene as path data alone is filled.
    for (const design of [
      { moduleShape: 'rounded' },
      { moduleShape: 'dots', primaryColor: '#1a237e80' },
      {
        moduleShape: 'classy-rounded',
        // A gradient across the modules, painted through each one's coverage as fill paints it.
        foregroundGradient: {
          type: 'radial',
          stops: [0, 1].map((offset) => ({ offset, color: ['#B71C1C', '#1B5E20'][offset] })),
        },
      },
    ]) {
      const { scene } = await designScene(configOf({ content: CONTENT, ...design }));
      const layer = scene.layers[0]!;
      const { modulePx, originX, originY } = scene.layout;
      if (layer.kind !== 'path' || !layer.placed) throw new Error(`${design.moduleShape}: no placed outlines`);
      expect(placedApart(layer.placed, [modulePx, 0, 0, modulePx, originX, originY]), design.moduleShape).toBe(true);
      const apart = rasterizeScene(scene);
      const apartPixels = apart.pixels.slice();
      apart.release();
      const asPathData = scene.layers.map((l) => (l.kind === 'path' ? { ...l, placed: undefined } : l));
      const filled = rasterizeScene({ ...scene, layers: asPathData });
      const differ = apartPixels.filter((v, i) => Math.abs(v - filled.pixels[i]!) > 1).length;
      filled.release();
      expect(differ, design.moduleShape).toBe(0);
    }
  });

  it('refuses malformed path data instead of drawing something else', () => {
    expect(() => coverage('L1 1', 4, 4)).toThrow();
    expect(() => coverage('M1 1 X', 4, 4)).toThrow();
    expect(() => coverage('M0 0a1 1 0 2 1 1 1', 4, 4)).toThrow();
  });
});

describe('paint and compositing', () => {
  it('keeps translucent colours straight (un-premultiplied) and composites source-over', () => {
    const c = new Canvas(4, 1);
    c.background({ kind: 'solid', color: parseHex('#FF000080') });
    const e = new Edges();
    flattenPath('M2 0h2v1h-2z', IDENTITY, e);
    c.fillPath(e, { kind: 'solid', color: parseHex('#0000FF80') }, IDENTITY);
    const p = c.toRaster().pixels;
    expect([...p.subarray(0, 4)]).toEqual([255, 0, 0, 128]);
    // Blue at 50 % over red at 50 %: alpha 0.75, colour one third red, two thirds blue.
    expect(p[11]).toBe(192);
    expect(Math.abs(p[8]! - 85)).toBeLessThanOrEqual(1);
    expect(Math.abs(p[10]! - 170)).toBeLessThanOrEqual(1);
  });

  it('spreads a linear gradient along its axis and pads past its ends', () => {
    const c = new Canvas(100, 1);
    c.background({
      kind: 'linear',
      rotation: 0,
      stops: [
        { offset: 0, color: parseHex('#000000') },
        { offset: 1, color: parseHex('#FF0000') },
      ],
      box: { x: 10, y: 0, w: 80, h: 1 },
    });
    const p = c.toRaster().pixels;
    expect(p[0]).toBe(0);
    expect(p[99 * 4]).toBe(255);
    expect(Math.abs(p[50 * 4]! - Math.round((40.5 / 80) * 255))).toBeLessThanOrEqual(1);
  });
});

/** How far our raster is from resvg's drawing of the SVG document of the same scene. */
async function compareWithResvg(task: RenderTask) {
  const { scene, layout } = await designScene(task);
  return drawingDiff(
    { ...layout, pixels: toRgba(rasterizeScene(scene)) },
    rasterizeSvg(sceneToSvg(scene), layout.width),
  );
}

describe('a scene of one opaque colour over another is drawn as levels between them (canvas.ts, Levels)', () => {
  it('only such a scene: paths of one solid colour over a solid background, both opaque', async () => {
    const levelsIn = async (design: Record<string, unknown>) =>
      levelsOf((await designScene(configOf({ content: CONTENT, ...design }))).scene);
    expect(await levelsIn({ moduleShape: 'rounded', primaryColor: '#1a237e', backgroundColor: '#fff8e1' })).toEqual({
      background: parseHex('#fff8e1'),
      foreground: parseHex('#1a237e'),
    });
    for (const other of [
      { primaryColor: '#1a237e80' },
      { backgroundColor: '#fff8e180' },
      { finderOuterColor: '#B71C1C' },
      {
        backgroundGradient: {
          type: 'linear',
          stops: [0, 1].map((offset) => ({ offset, color: ['#FFFFFF', '#E0E0E0'][offset] })),
        },
      },
      {
        foregroundGradient: {
          type: 'radial',
          stops: [0, 1].map((offset) => ({ offset, color: ['#B71C1C', '#1B5E20'][offset] })),
        },
      },
    ])
      expect(await levelsIn({ moduleShape: 'rounded', ...other }), JSON.stringify(other)).toBeNull();
  });

  it('shows what the RGBA canvas shows, each channel within a level, on the scene cases and 40 random designs', async () => {
    const designs = [...SCENE_CASES.map(([, d]) => d), ...Array.from({ length: 40 }, (_, seed) => randomDesign(seed))];
    let drawn = 0;
    for (const design of designs) {
      const { scene } = await designScene(configOf({ content: CONTENT, ...design }));
      if (!levelsOf(scene)) continue;
      drawn++;
      const levels = rasterizeScene(scene);
      expect(levels).toMatchObject({ kind: 'indexed', sparse: true });
      const shown = Buffer.from(toRgba(levels));
      levels.release();
      const rgba = rasterizeScene(scene, null);
      expect(rgba.kind).toBe('rgba');
      let worst = 0;
      for (let i = 0; i < shown.length; i++) worst = Math.max(worst, Math.abs(shown[i]! - rgba.pixels[i]!));
      rgba.release();
      expect(worst, JSON.stringify(design)).toBeLessThanOrEqual(1);
    }
    expect(drawn).toBeGreaterThan(20);
  });
});

// Anti-aliasing differs in method (exact area here, supersampling in resvg's tiny-skia), so edge pixels
// differ by a few levels; a missing or misplaced shape would differ by far more, over many pixels.
describe('the raster kernel draws what resvg draws', () => {
  it.each(SCENE_CASES)('%s', async (_name, design) => {
    const { meanDiff, farShare } = await compareWithResvg(configOf({ content: CONTENT, ...design }));
    expect(meanDiff).toBeLessThan(1.5);
    expect(farShare).toBeLessThan(0.002);
  });

  it('on 40 random designs from the whole vocabulary', async () => {
    for (let seed = 0; seed < 40; seed++) {
      const design = randomDesign(seed);
      const { meanDiff, farShare } = await compareWithResvg(configOf(design));
      expect(meanDiff, `seed ${seed}`).toBeLessThan(1.5);
      expect(farShare, `seed ${seed}`).toBeLessThan(0.002);
    }
  });
});
