import type { ReaderOptions } from 'zxing-wasm/reader';
import type { Raster } from '../model/raster.js';
import type { RenderConfig } from '../model/render-config.js';
import { encodeJpg } from './formats/jpeg.js';
import { jpegGrey } from './formats/jpeg-grey.js';
import { designScene, placeSymbol, sceneRaster } from './pipeline.js';
import type { RenderTask } from './types.js';
import { decodes } from './verify/plan.js';
import { fullSize } from './verify/read.js';
import { zbarReads } from './verify/zbar.js';

/**
 * The phone camera the print check simulates (README, "The print check": each figure's source and the
 * model's limits). Everything the camera does is in the pixels of its analysis frame, so the code's
 * smallest readable width in that frame does not depend on the distance, and the printed width that gives
 * it grows in proportion to the distance.
 */
export const CAMERA = {
  /** Horizontal field of view of a phone's main camera: a 26 mm-equivalent lens on a 4:3 sensor. */
  fieldOfViewDeg: 67,
  /** Pixels across the frame a scanning library analyses. */
  analysisPx: 1280,
  /** Gaussian blur, in frame pixels: the lens, focus a little off, a hand's motion. */
  blurPx: 0.7,
  /** The code turned about its vertical axis, both ways, with perspective (the camera 10 code widths away). */
  tiltDeg: 20,
  /** Sensor noise: Gaussian, in grey levels. */
  noiseLevels: 6,
  /** Light falling off across the frame to this share of the brighter side. */
  lightFalloff: 0.65,
  /** The frame as the library receives it: JPEG at this quality. */
  jpegQuality: 75,
} as const;

/** The model's name in answers: a change to CAMERA changes it. */
export const PRINT_MODEL = 'phone-67deg-1280px-1';

/** The answer to "how small may I print this, read from `distanceCm` away?". */
export interface PrintCheck {
  distanceCm: number;
  /** The smallest printed width of the whole image (quiet zone, frame and caption included); null when even the largest width tried does not read. */
  minWidthMm: number | null;
  model: typeof PRINT_MODEL;
}

/** Frame pixels per millimetre of paper at `distanceMm`. */
const framePxPerMm = (distanceMm: number) =>
  CAMERA.analysisPx / (2 * distanceMm * Math.tan((CAMERA.fieldOfViewDeg * Math.PI) / 360));

/** A design's grey, composited on white as paper shows it. */
function greyOf(r: Raster): Uint8Array {
  const n = r.width * r.height;
  const grey = new Uint8Array(n);
  const lum = (red: number, g: number, b: number, a: number) => {
    const over = (c: number) => (c * a + 255 * (255 - a)) / 255;
    return Math.round(0.299 * over(red) + 0.587 * over(g) + 0.114 * over(b));
  };
  if (r.kind === 'indexed') {
    const table = r.palette.map((c) => lum(c.r, c.g, c.b, c.a));
    for (let i = 0; i < n; i++) grey[i] = table[r.pixels[i]!]!;
  } else {
    const p = r.pixels;
    for (let i = 0; i < n; i++) grey[i] = lum(p[4 * i]!, p[4 * i + 1]!, p[4 * i + 2]!, p[4 * i + 3]!);
  }
  return grey;
}

/** The grey box-averaged by an integer factor: the print seen through a lens before the sensor samples it. */
function shrink(grey: Uint8Array, width: number, height: number, f: number) {
  const w = Math.floor(width / f);
  const h = Math.floor(height / f);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * width + x * f;
        for (let dx = 0; dx < f; dx++) sum += grey[row + dx]!;
      }
      out[y * w + x] = sum / (f * f);
    }
  return { pixels: out, width: w, height: h };
}

function gaussianBlur(img: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const kernel = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((s, v) => s + v, 0);
  const k = kernel.map((v) => v / total);
  const pass = (src: Float32Array, horizontal: boolean) => {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let i = -r; i <= r; i++) {
          const sx = horizontal ? Math.min(w - 1, Math.max(0, x + i)) : x;
          const sy = horizontal ? y : Math.min(h - 1, Math.max(0, y + i));
          s += k[i + r]! * src[sy * w + sx]!;
        }
        out[y * w + x] = s;
      }
    return out;
  };
  return pass(pass(img, true), false);
}

/** mulberry32, then Box–Muller: the same noise for the same seed, so verdicts are stable. */
function gaussianNoise(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

const GREYS = Array.from({ length: 256 }, (_, i) => ({ r: i, g: i, b: i, a: 255 }));
/** The camera 10 code widths from the code: the perspective a tilt shows. */
const DISTANCE_IN_WIDTHS = 10;

/**
 * The frame a camera makes of the design printed `codePx` frame pixels wide, turned `tiltDeg` about its
 * vertical axis: the paper around it the design's corner colour; blurred, lit unevenly, noisy, and passed
 * through JPEG as the library receives it.
 */
function capture(design: Design, codePx: number, tiltDeg: number, phase: number, seed: number) {
  const src = design.shrunk(Math.max(1, Math.floor(design.width / (2 * codePx))));
  const aspect = design.height / design.width;
  const frameW = Math.ceil(codePx * 1.25);
  const frameH = Math.ceil(codePx * aspect * 1.25);
  const paper = design.grey[0]!;
  const theta = (tiltDeg * Math.PI) / 180;
  const [cos, sin] = [Math.cos(theta), Math.sin(theta)];
  const f = codePx * DISTANCE_IN_WIDTHS;
  const frame = new Float32Array(frameW * frameH);
  for (let y = 0; y < frameH; y++) {
    const v = y + 0.5 - frameH / 2 + phase;
    for (let x = 0; x < frameW; x++) {
      const u = x + 0.5 - frameW / 2 + phase;
      // Where (u, v) falls on the page, in code widths from its centre: the inverse of the projection.
      const X = (u * DISTANCE_IN_WIDTHS) / (f * cos - u * sin);
      const Y = (v * (DISTANCE_IN_WIDTHS + X * sin)) / f;
      const sx = (X + 0.5) * src.width - 0.5;
      const sy = (Y + aspect / 2) * src.width - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= src.width || y0 + 1 >= src.height) {
        frame[y * frameW + x] = paper;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const at = (xx: number, yy: number) => src.pixels[yy * src.width + xx]!;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      frame[y * frameW + x] = top * (1 - fy) + bottom * fy;
    }
  }
  const blurred = gaussianBlur(frame, frameW, frameH, CAMERA.blurPx);
  const noise = gaussianNoise(seed);
  const pixels = new Uint8Array(frameW * frameH);
  for (let y = 0; y < frameH; y++)
    for (let x = 0; x < frameW; x++) {
      const light = 1 - (1 - CAMERA.lightFalloff) * (x / frameW);
      const v = blurred[y * frameW + x]! * light + CAMERA.noiseLevels * noise();
      pixels[y * frameW + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  const q = CAMERA.jpegQuality;
  const jpeg = encodeJpg(
    { kind: 'indexed', width: frameW, height: frameH, pixels, palette: GREYS },
    { luma: q, chroma: q },
  );
  return { width: frameW, height: frameH, pixels: jpegGrey(jpeg).pixels.slice() };
}

/** A phone's library with its default options: both polarities, every row. */
const PHONE_READER: ReaderOptions = { formats: ['QRCode'], tryHarder: true, tryInvert: true, maxNumberOfSymbols: 1 };

/** Whether both decoder families read the frame: zbar first, the quicker to say no. */
async function bothRead(frame: { width: number; height: number; pixels: Uint8Array }, expected: Uint8Array) {
  if (!((await zbarReads(frame, expected)) || (await zbarReads(frame, expected, true)))) return false;
  return decodes(fullSize(frame.pixels, frame.width, frame.height), PHONE_READER, expected);
}

/** A design's grey as paper shows it, and its box-averaged reductions, each made once. */
interface Design {
  grey: Uint8Array;
  width: number;
  height: number;
  shrunk(factor: number): { pixels: Float32Array; width: number; height: number };
}

function designOf(raster: Raster): Design {
  const grey = greyOf(raster);
  const { width, height } = raster;
  const made = new Map<number, ReturnType<typeof shrink>>();
  return {
    grey,
    width,
    height,
    shrunk: (f) => made.get(f) ?? made.set(f, shrink(grey, width, height, f)).get(f)!,
  };
}

/** The frame widths tried, 5 % apart: from 1 frame pixel per module of the canvas to MAX_PX_PER_MODULE. */
const STEP = 1.05;
/** A design no phone reads at 6 pixels a module is not read at any size a camera gives it a fair look at. */
const MAX_PX_PER_MODULE = 6;

/**
 * The frames a width is tried in: tilted either way by the full and half tilt and square on, each at its
 * own sub-pixel offset, since where the sensor's pixels fall on small modules decides as much as their
 * size. A scanner gets several frames a second: a width reads when most of these do (MUST_READ).
 */
const VIEWS = [
  [CAMERA.tiltDeg, 0],
  [-CAMERA.tiltDeg, 1 / 3],
  [0, 2 / 3],
  [CAMERA.tiltDeg / 2, 1 / 2],
  [-CAMERA.tiltDeg / 2, 1 / 6],
] as const;
const MUST_READ = 3;

/** The frame widths tried for a canvas `modules` wide. */
function frameWidths(modules: number): number[] {
  const sizes: number[] = [];
  for (let px = modules; px <= modules * MAX_PX_PER_MODULE; px *= STEP) sizes.push(Math.round(px));
  return sizes;
}

/**
 * The index of the smallest frame width in `sizes` at which both decoder families read most of the views
 * of the design (VIEWS), above `below` (an index known not to read, or −1); null when the largest does
 * not read. Bisection: the widths are assumed to read from some width on.
 */
async function smallestReading(design: Design, sizes: number[], expected: Uint8Array, below: number) {
  const reads = async (i: number) => {
    const px = sizes[i]!;
    let failed = 0;
    for (const [i, [tilt, phase]] of VIEWS.entries()) {
      if (!(await bothRead(capture(design, px, tilt, phase, px * VIEWS.length + i), expected))) failed++;
      if (failed > VIEWS.length - MUST_READ) return false;
    }
    return true;
  };
  // The largest width is assumed to read and checked only if the search ends there.
  let [lo, hi] = [below, sizes.length - 1];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (await reads(mid)) hi = mid;
    else lo = mid;
  }
  return hi === sizes.length - 1 && !(await reads(hi)) ? null : hi;
}

/** The same code with square modules and finders, full size, no variation: the easiest of its designs to read. */
function squareOf(cfg: RenderConfig): RenderConfig | null {
  const square = {
    ...cfg,
    moduleShape: 'square',
    finderOuterShape: 'square',
    finderInnerShape: 'square',
    moduleScale: 1,
    moduleSizeVariation: 0,
  } as const;
  const same = (Object.keys(square) as (keyof RenderConfig)[]).every((k) => square[k] === cfg[k]);
  return same ? null : square;
}

/** The print the camera looks at: the design drawn REFERENCE_WIDTH px wide, whatever size the export is. */
const REFERENCE_WIDTH = 1024;

/** The design at the reference width, its canvas's proportions kept, so the answer does not depend on the export's pixels. */
function atReferenceSize(cfg: RenderConfig): RenderConfig {
  const { width, height } = placeSymbol(cfg).layout;
  const { printSize: _, pixelsPerModule: __, ...rest } = cfg;
  return {
    ...rest,
    outputWidth: REFERENCE_WIDTH,
    ...(height !== width && { outputHeight: Math.round((REFERENCE_WIDTH * height) / width) }),
  };
}

/** The design's scene drawn, as paper shows it; the kernel's canvas released once read. */
async function drawn(task: RenderTask): Promise<{ design: Design; modules: number }> {
  const d = await designScene(task);
  const raster = sceneRaster(d);
  try {
    return { design: designOf(raster), modules: d.layout.width / d.layout.modulePx };
  } finally {
    if ('release' in raster) raster.release();
  }
}

/**
 * The smallest printed width of the whole image (quiet zone, frame and caption included) at which a phone
 * `distanceCm` away reads the design: the smallest frame width at which both decoder families read it,
 * turned into millimetres at that distance. The same code with square modules is searched first and its
 * width is the floor: a shape never reads smaller than the square it is drawn in.
 */
export async function printCheck(task: RenderTask, distanceCm: number): Promise<PrintCheck> {
  const config = atReferenceSize(task.config);
  const expected = new TextEncoder().encode(config.content);
  const { design, modules } = await drawn({ ...task, config });
  const sizes = frameWidths(modules);
  const square = squareOf(config);
  let floor = -1;
  if (square) {
    const found = await smallestReading((await drawn({ ...task, config: square })).design, sizes, expected, -1);
    floor = found === null ? sizes.length - 1 : found - 1;
  }
  const found = floor === sizes.length - 1 ? null : await smallestReading(design, sizes, expected, floor);
  const mm = found === null ? null : Math.ceil((sizes[found]! / framePxPerMm(distanceCm * 10)) * 10) / 10;
  return { distanceCm, minWidthMm: mm, model: PRINT_MODEL };
}
