/**
 * The grey images zbar is handed for a design, in zbar's own grey (read.ts), to compare two builds of zbar
 * on them: those the verifier reads (verify/index.ts: the reduction, inverted already when the code is light
 * on dark, and the export at its own size in the polarity it is read in), and, to test more of zbar's paths
 * on the same pixels, the farther reduction of the first scan trial (2 px per module), the reductions to 4
 * and 5 px per module, and the export at its own size in the other polarity (where zbar should find nothing).
 */
import { addBase64Assets } from '../../src/api/render-request.js';
import { composite, greyLevel, WHITE } from '../../src/model/color.js';
import { weakestContrast } from '../../src/model/contrast.js';
import { designScene } from '../../src/render/pipeline.js';
import { rasterizeFlat, rasterizeScene } from '../../src/render/raster.js';
import { planReads } from '../../src/render/verify/plan.js';
import { type GreyImage, pixelsOf, READ_AS_FILE, scan } from '../../src/render/verify/read.js';
import type { GreyPixels } from '../../src/render/verify/zbar.js';
import { type QrConfigBody, prepareRender } from '../../src/schema/prepare-render.js';

export interface ZbarImage {
  name: string;
  image: GreyPixels;
  invert: boolean;
}

const pixels = (img: GreyImage): GreyPixels => ({ width: img.width, height: img.height, pixels: pixelsOf(img) });

/** `design` (a request body) drawn as the pipeline draws it, and the images above, named; `tag` says what it is. */
export async function zbarImages(design: Record<string, unknown>): Promise<{ tag: string; images: ZbarImage[] }> {
  const assets = addBase64Assets(design, {});
  const { config } = prepareRender(design as QrConfigBody, assets);
  const { grid, scene, layout } = await designScene({ config, assets });
  const raster = scene.flat ? rasterizeFlat(grid, scene) : rasterizeScene(scene);
  const weakest = weakestContrast(config);
  const bg = composite(weakest.background, WHITE);
  const lightOnDark = greyLevel(composite(weakest.foreground, bg)) > greyLevel(bg);
  const { width, height } = raster;
  const { boxes } = planReads(layout, width, height, scene.flat, lightOnDark);
  const box = (px: number) => ({ f: Math.max(1, Math.floor(layout.modulePx / px)), invert: lightOnDark, zbar: true });
  const zbarBoxes = [boxes.find((b) => b.zbar)!, { ...boxes[1]!, zbar: true }, box(4), box(5)];
  const { zbarGrey, reduced } = scan(raster, READ_AS_FILE[config.fileFormat], zbarBoxes, true);
  if ('release' in raster) raster.release();
  const native = { width, height, pixels: zbarGrey! };
  const [far, trial, r4, r5] = reduced.map(pixels) as [GreyPixels, GreyPixels, GreyPixels, GreyPixels];
  return {
    tag: `${config.fileFormat} ${width} px, ${layout.modulePx} px/module, ${config.moduleShape}/${config.finderOuterShape}/${config.finderInnerShape}${lightOnDark ? ', light on dark' : ''}`,
    images: [
      { name: 'reduction', image: far, invert: false },
      { name: 'own size', image: native, invert: lightOnDark },
      { name: '2 px/module', image: trial, invert: false },
      { name: '4 px/module', image: r4, invert: false },
      { name: '5 px/module', image: r5, invert: false },
      { name: 'own size, other polarity', image: native, invert: !lightOnDark },
    ],
  };
}
