/**
 * Scenes that exercise everything a scene can hold (every module shape, finder ring and centre, gradients,
 * eye transforms, a transparent background, logos, background images, text, frames, a round code), and how
 * far two drawings of the same scene are apart: the raster kernel's tests and the vector exports' tests
 * (test/render/scene-raster.test.ts, vector-check.test.ts) hold drawings to each other with them.
 */
import { parseHex } from '../../src/model/color.js';
import type { RgbaRaster } from '../../src/model/raster.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, FRAME_STYLES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { encodePng } from '../../src/render/formats/png.js';
import type { RenderTask } from '../../src/render/types.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';

type Pixels = Pick<RgbaRaster, 'width' | 'height'> & { pixels: ArrayLike<number> };

/**
 * How far one RGBA drawing is from another, in premultiplied values (what a viewer sees: the colour of a
 * nearly transparent pixel hardly matters): the mean difference per channel, and the share of pixels
 * where some channel differs by more than 64 levels.
 */
export function drawingDiff(ours: Pixels, theirs: Pixels): { meanDiff: number; farShare: number } {
  if (ours.width !== theirs.width || ours.height !== theirs.height)
    throw new Error(`${ours.width}×${ours.height} against ${theirs.width}×${theirs.height}`);
  let sum = 0;
  let far = 0;
  for (let i = 0; i < ours.pixels.length; i += 4) {
    let worst = 0;
    const [oa, ta] = [ours.pixels[i + 3]!, theirs.pixels[i + 3]!];
    for (let k = 0; k < 4; k++) {
      const [o, t] = k === 3 ? [oa, ta] : [(ours.pixels[i + k]! * oa) / 255, (theirs.pixels[i + k]! * ta) / 255];
      const d = Math.abs(o - t);
      sum += d;
      if (d > worst) worst = d;
    }
    if (worst > 64) far++;
  }
  return { meanDiff: sum / ours.pixels.length, farShare: far / (ours.pixels.length / 4) };
}

/** A design (a request body, images in base64) as a render task. */
export const configOf = (design: { content: string } & Record<string, unknown>): RenderTask => {
  const { logoBase64, backgroundImageBase64, ...rest } = design as typeof design & {
    logoBase64?: string;
    backgroundImageBase64?: string;
  };
  const assets: RenderTask['assets'] = {};
  if (logoBase64) assets.logo = new Uint8Array(Buffer.from(logoBase64, 'base64'));
  if (backgroundImageBase64) assets.background = new Uint8Array(Buffer.from(backgroundImageBase64, 'base64'));
  // The designs are request bodies whose fields the type cannot see: the cast stands in for validation.
  return { config: { ...QR_DEFAULTS, ...rest } as RenderConfig, assets };
};

const LOGO = Buffer.from(
  encodePng({
    kind: 'indexed',
    width: 64,
    height: 64,
    pixels: Uint8Array.from({ length: 64 * 64 }, (_, i) =>
      Math.hypot((i % 64) - 31.5, Math.floor(i / 64) - 31.5) < 28 ? 1 : 0,
    ),
    palette: [parseHex('#FFFFFF00'), parseHex('#C62828')],
  }),
).toString('base64');
const GRADIENT = {
  type: 'linear',
  rotation: 30,
  stops: [
    { offset: 0, color: '#0D47A1' },
    { offset: 1, color: '#6A1B9A' },
  ],
};
export const CONTENT = 'https://example.com/raster?id=42';

export const SCENE_CASES: [string, Record<string, unknown>][] = [
  ...MODULE_SHAPES.map((s): [string, Record<string, unknown>] => [
    `module shape ${s}`,
    { moduleShape: s, moduleScale: 0.9, moduleSizeVariation: 0.1 },
  ]),
  ...FINDER_OUTER_SHAPES.map((s): [string, Record<string, unknown>] => [
    `finder ring ${s}`,
    {
      finderOuterShape: s,
      finderEyes: [{ rotation: 90 }, { flip: 'horizontal' }, { rotation: 270, flip: 'vertical' }],
    },
  ]),
  ...FINDER_INNER_SHAPES.map((s): [string, Record<string, unknown>] => [
    `finder centre ${s}`,
    { finderInnerShape: s, finderInnerColor: '#B71C1C' },
  ]),
  [
    'gradients everywhere',
    {
      foregroundGradient: GRADIENT,
      finderOuterGradient: { ...GRADIENT, type: 'radial' },
      finderInnerGradient: { ...GRADIENT, rotation: 200 },
      backgroundGradient: {
        type: 'radial',
        stops: [
          { offset: 0, color: '#FFFFFF' },
          { offset: 1, color: '#E3F2FD' },
        ],
      },
    },
  ],
  [
    'translucent gradient stops',
    {
      foregroundGradient: {
        type: 'linear',
        rotation: 45,
        stops: [
          { offset: 0, color: '#0D47A1' },
          { offset: 0.6, color: '#1B5E20E0' },
          { offset: 1, color: '#6A1B9AC0' },
        ],
      },
      finderOuterGradient: {
        ...GRADIENT,
        type: 'radial',
        stops: [
          { offset: 0.3, color: '#B71C1CD0' },
          { offset: 1, color: '#000000' },
        ],
      },
    },
  ],
  ['transparent background', { backgroundColor: '#FFFFFF00', moduleShape: 'dots', primaryColor: '#1B5E20' }],
  [
    'logo on a round plate',
    { logoBase64: LOGO, logoPlateShape: 'circle', logoPlateColor: '#FFF3E0', eccLevel: 'H', moduleShape: 'rounded' },
  ],
  ['background image', { backgroundImageBase64: LOGO, backgroundImageOpacity: 0.4, outputWidth: 640 }],
  [
    'centre text and caption',
    {
      centerText: { text: 'MENU', color: '#FFFFFF', backgroundColor: '#000000' },
      ctaText: 'Scan for the café menu',
      eccLevel: 'H',
    },
  ],
  ['circular code', { qrShapeRadius: 50, moduleShape: 'dots' }],
  ...FRAME_STYLES.map((s): [string, Record<string, unknown>] => [
    `frame ${s}`,
    { frameStyle: s, ctaText: 'SCAN ME', frameColor: '#263238', outputWidth: 600 },
  ]),
];
