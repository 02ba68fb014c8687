/**
 * An SVG or PDF export is verified from the raster kernel's drawing of the scene the file is written from
 * (pipeline.ts, sceneRaster), not from a rasterizer reading the file at request time. That is sound only
 * while the file draws that raster: here every vector export, as renderOnce delivers it, is drawn by
 * renderers that read the file alone (resvg for the SVG; the PDF's content stream, its images and alphas,
 * read back by test/helpers/pdf-to-svg.ts and drawn by resvg) and held to the raster the verifier read,
 * within what two anti-aliasing methods differ by; and each file is decoded to its content by both decoder
 * families. A file that drew anything else (a layer dropped, moved or recoloured) fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbaRaster } from '../../src/model/raster.js';
import { composite, WHITE } from '../../src/model/color.js';
import { weakestContrast } from '../../src/model/contrast.js';
import { designScene, renderOnce, sceneRaster } from '../../src/render/pipeline.js';
import { rasterizeScene, toRgba } from '../../src/render/raster.js';
import { loadResvg, rasterizeSvg } from '../../src/render/resvg.js';
import { sceneToSvg } from '../../src/render/svg.js';
import { judgeRaster } from '../../src/render/verify/index.js';
import type { RenderTask } from '../../src/render/types.js';
import { initWasm } from '../../wasm/index.js';
import { decodeOne, decodeWithZbar, ghostscriptPng, fileToImage, svgToImage } from '../helpers/decode.js';
import { pdfToSvg } from '../helpers/pdf-to-svg.js';
import { randomDesign } from '../helpers/random-design.js';
import { CONTENT, configOf, drawingDiff, SCENE_CASES } from '../helpers/scene-cases.js';

beforeAll(() => Promise.all([initWasm(), loadResvg()]));

const VECTOR = ['svg', 'pdf', 'eps'] as const;
type Vector = (typeof VECTOR)[number];

/** The file as a viewer draws it at the render's pixel size, read from its bytes alone. */
/**
 * The EPS as Ghostscript draws it at 4 × 4 samples a pixel (each sample in or out by its centre), averaged:
 * coverage as the kernel's is, where Ghostscript's own smoothing fills every pixel a shape touches.
 */
async function ghostscriptAt96(file: Uint8Array): Promise<ImageData> {
  const { data, width, height } = await fileToImage('png', ghostscriptPng(file, 4 * 96, 'samples'));
  const [w, h] = [width / 4, height / 4];
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let k = 0; k < 4; k++) {
        let sum = 0;
        for (let dy = 0; dy < 4; dy++)
          for (let dx = 0; dx < 4; dx++) sum += data[((4 * y + dy) * width + 4 * x + dx) * 4 + k]!;
        out[(y * w + x) * 4 + k] = Math.round(sum / 16);
      }
  return { data: out, width: w, height: h, colorSpace: 'srgb' } as ImageData;
}

async function drawFile(format: Vector, file: Uint8Array, width: number): Promise<ImageData> {
  if (format === 'eps') return ghostscriptAt96(file);
  return format === 'svg' ? svgToImage(new TextDecoder().decode(file), width) : svgToImage(await pdfToSvg(file), width);
}

function onWhite(r: RgbaRaster): RgbaRaster {
  const pixels = new Uint8Array(r.pixels.length);
  for (let i = 0; i < pixels.length; i += 4) {
    const c = composite({ r: r.pixels[i]!, g: r.pixels[i + 1]!, b: r.pixels[i + 2]!, a: r.pixels[i + 3]! }, WHITE);
    pixels.set([c.r, c.g, c.b, 255], i);
  }
  return { ...r, pixels };
}

/** The raster the verifier read for this task, as RGBA (copied out of the kernel's memory). */
async function verifiedRaster(task: RenderTask): Promise<RgbaRaster> {
  const raster = sceneRaster(await designScene(task));
  const copy: RgbaRaster = {
    kind: 'rgba',
    width: raster.width,
    height: raster.height,
    pixels: Uint8Array.from(toRgba(raster)),
  };
  if ('release' in raster) raster.release();
  return copy;
}

async function expectFileDrawsVerifiedRaster(format: Vector, design: { content: string } & Record<string, unknown>) {
  const task = configOf({ ...design, fileFormat: format });
  const { success, failures } = await renderOnce(task);
  expect(failures, JSON.stringify(failures)).toEqual([]);
  const drawn = await drawFile(format, success.bytes, success.width);
  const raster = await verifiedRaster(task);
  // EPS has no transparency: it is printed on white paper.
  const verified = format === 'eps' ? onWhite(raster) : raster;
  const { meanDiff, farShare } = drawingDiff(verified, { ...drawn, pixels: drawn.data });
  // The same bounds as the kernel against resvg on the same scene (scene-raster.test.ts).
  expect(meanDiff, `${format} mean difference`).toBeLessThan(1.5);
  expect(farShare, `${format} share of far pixels`).toBeLessThan(0.002);
  const expected = Buffer.from(design.content);
  expect(
    Buffer.from((await decodeOne(format, success.bytes)).bytes).equals(expected),
    `zxing reads the ${format}`,
  ).toBe(true);
  expect(
    (await decodeWithZbar(format, success.bytes)).some((p) => Buffer.from(p).equals(expected)),
    `zbar reads the ${format}`,
  ).toBe(true);
}

describe('every vector export draws the raster it was verified from', () => {
  for (const format of VECTOR) {
    it.each(SCENE_CASES)(`${format}: %s`, async (_name, design) => {
      await expectFileDrawsVerifiedRaster(format, { content: CONTENT, ...design });
    });

    it(`${format}: the plain code (a flat scene, filled run by run) and the bench's styled case`, async () => {
      await expectFileDrawsVerifiedRaster(format, { content: CONTENT });
      await expectFileDrawsVerifiedRaster(format, {
        content: CONTENT,
        moduleShape: 'rounded',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
        primaryColor: '#1a237e',
        backgroundColor: '#fff8e1',
      });
    });

    it(`${format}: 20 random designs from the whole vocabulary`, async () => {
      for (let seed = 100; seed < 120; seed++) {
        const design = randomDesign(seed);
        const task = configOf({ ...design, fileFormat: format });
        const { success } = await renderOnce(task);
        const drawn = await drawFile(format, success.bytes, success.width);
        const { meanDiff, farShare } = drawingDiff(await verifiedRaster(task), {
          ...drawn,
          pixels: drawn.data,
        });
        // Small canvases with scaled modules are mostly anti-aliased edges, where the two methods differ by
        // a few levels (seed 106: 303 px, modules at 0.78: mean 2.3 for the SVG, no pixel off by 64).
        expect(meanDiff, `seed ${seed}`).toBeLessThan(3);
        expect(farShare, `seed ${seed}`).toBeLessThan(0.002);
      }
    });
  }

  it('the comparison sees a file that differs from the verified raster by one finder centre', async () => {
    const task = configOf({ content: CONTENT, finderInnerShape: 'circle', fileFormat: 'svg' });
    const { success } = await renderOnce(task);
    const { scene } = await designScene(task);
    // The last layer is the third eye's ring and centre (scene.ts); drop its centre (the last subpath).
    const last = scene.layers.at(-1)!;
    if (last.kind !== 'path') throw new Error('the last layer is an eye');
    const cut = last.d.lastIndexOf('M');
    const without = rasterizeScene({
      ...scene,
      layers: [...scene.layers.slice(0, -1), { ...last, d: last.d.slice(0, cut) }],
    });
    const drawn = await drawFile('svg', success.bytes, success.width);
    const { farShare } = drawingDiff(without, { ...drawn, pixels: drawn.data });
    without.release();
    expect(farShare).toBeGreaterThan(0.002);
  });

  it('a design the verifier passes on the kernel raster also passes on resvg drawing its SVG (60 random designs)', async () => {
    // Over 300 such designs (docs/design-decisions.md) the two verdicts differed on 5, and where one failed it was
    // the kernel's: reading the kernel's raster never passed a file that resvg's drawing of it failed.
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      const task = configOf({ ...randomDesign(((i + 1) * 2654435761) >>> 0), fileFormat: 'svg' });
      const designed = await designScene(task);
      const verified = await verifiedRaster(task);
      const weakest = weakestContrast(task.config);
      const input = {
        exact: designed.scene.flat,
        format: 'svg' as const,
        layout: designed.layout,
        expected: new TextEncoder().encode(task.config.content),
        foreground: weakest.foreground,
        background: weakest.background,
      };
      const ours = (await judgeRaster({ ...input, raster: verified })).verification;
      if (!ours.decoded) continue;
      const file = rasterizeSvg(sceneToSvg(designed.scene), designed.layout.width);
      const theirs = (await judgeRaster({ ...input, raster: file })).verification;
      expect(theirs.decoders, `design ${i}`).toMatchObject({ zxing: { decoded: true }, zbar: { decoded: true } });
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });
});
