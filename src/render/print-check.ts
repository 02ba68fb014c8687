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
    for (let i = 0, j = 0; i < n; i++, j += 4) {
      // Opaque pixels, nearly all of them, need no compositing: the same value, sooner.
      const a = p[j + 3]!;
      grey[i] =
        a === 255
          ? Math.round(0.299 * p[j]! + 0.587 * p[j + 1]! + 0.114 * p[j + 2]!)
          : lum(p[j]!, p[j + 1]!, p[j + 2]!, a);
    }
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
  const k = Float64Array.from(kernel, (v) => v / total);
  // One pass along rows (step 1) or columns (step w); taps past an edge repeat the edge pixel.
  const pass = (src: Float32Array, horizontal: boolean) => {
    const out = new Float32Array(w * h);
    const [n, lines, step] = horizontal ? [w, h, 1] : [h, w, w];
    for (let line = 0; line < lines; line++) {
      const base = horizontal ? line * w : line;
      for (let i = 0; i < n; i++) {
        let s = 0;
        if (i >= r && i < n - r) for (let t = -r; t <= r; t++) s += k[t + r]! * src[base + (i + t) * step]!;
        else for (let t = -r; t <= r; t++) s += k[t + r]! * src[base + Math.min(n - 1, Math.max(0, i + t)) * step]!;
        out[base + i * step] = s;
      }
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
  // Where column x falls on the page, in code widths from its centre (the inverse of the projection): the
  // same for every row.
  const X = new Float64Array(frameW);
  for (let x = 0; x < frameW; x++) {
    const u = x + 0.5 - frameW / 2 + phase;
    X[x] = (u * DISTANCE_IN_WIDTHS) / (f * cos - u * sin);
  }
  const { pixels: px, width: sw, height: sh } = src;
  for (let y = 0; y < frameH; y++) {
    const v = y + 0.5 - frameH / 2 + phase;
    for (let x = 0; x < frameW; x++) {
      const Y = (v * (DISTANCE_IN_WIDTHS + X[x]! * sin)) / f;
      const sx = (X[x]! + 0.5) * sw - 0.5;
      const sy = (Y + aspect / 2) * sw - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) {
        frame[y * frameW + x] = paper;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const at = y0 * sw + x0;
      const top = px[at]! * (1 - fx) + px[at + 1]! * fx;
      const bottom = px[at + sw]! * (1 - fx) + px[at + sw + 1]! * fx;
      frame[y * frameW + x] = top * (1 - fy) + bottom * fy;
    }
  }
  const blurred = gaussianBlur(frame, frameW, frameH, CAMERA.blurPx);
  const noise = gaussianNoise(seed);
  const pixels = new Uint8Array(frameW * frameH);
  const light = Float64Array.from({ length: frameW }, (_, x) => 1 - (1 - CAMERA.lightFalloff) * (x / frameW));
  for (let y = 0; y < frameH; y++)
    for (let x = 0; x < frameW; x++) {
      const v = blurred[y * frameW + x]! * light[x]! + CAMERA.noiseLevels * noise();
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

/** Whether both decoder families read most of the views (VIEWS) of the design `px` frame pixels wide. */
async function readsAt(design: Design, px: number, expected: Uint8Array): Promise<boolean> {
  let [read, failed] = [0, 0];
  for (const [i, [tilt, phase]] of VIEWS.entries()) {
    if (await bothRead(capture(design, px, tilt, phase, px * VIEWS.length + i), expected)) read++;
    else failed++;
    if (read === MUST_READ) return true;
    if (failed > VIEWS.length - MUST_READ) return false;
  }
  return false;
}

/**
 * The index of the smallest frame width in `sizes` at which the design reads (readsAt), above `below` (an
 * index known not to read, or −1); null when the largest does not read. Bisection: the widths are assumed
 * to read from some width on.
 */
async function smallestReading(design: Design, sizes: number[], expected: Uint8Array, below: number) {
  // The largest width is assumed to read and checked only if the search ends there.
  let [lo, hi] = [below, sizes.length - 1];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (await readsAt(design, sizes[mid]!, expected)) hi = mid;
    else lo = mid;
  }
  return hi === sizes.length - 1 && !(await readsAt(design, sizes[hi]!, expected)) ? null : hi;
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
const REFERENCE_WIDTH = 768;

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
 * turned into millimetres at that distance. The same code with square modules is the floor: a shape never
 * reads smaller than the square code it is drawn in.
 */
export async function printCheck(task: RenderTask, distanceCm: number): Promise<PrintCheck> {
  const config = atReferenceSize(task.config);
  const expected = new TextEncoder().encode(config.content);
  const { design, modules } = await drawn({ ...task, config });
  const sizes = frameWidths(modules);
  let found = await smallestReading(design, sizes, expected, -1);
  const square = squareOf(config);
  // The square code is the floor: searched further only where it does not read at the design's width.
  if (found !== null && square) {
    const { design: plain } = await drawn({ ...task, config: square });
    if (!(await readsAt(plain, sizes[found]!, expected))) found = await smallestReading(plain, sizes, expected, found);
  }
  const mm = found === null ? null : Math.ceil((sizes[found]! / framePxPerMm(distanceCm * 10)) * 10) / 10;
  return { distanceCm, minWidthMm: mm, model: PRINT_MODEL };
}
