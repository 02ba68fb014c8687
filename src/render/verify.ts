import { readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { composite, effectiveContrast, greyLevel, WHITE, type Rgba } from './color.js';
import type { Layout } from './layout.js';
import type { Raster } from './raster.js';

/** What the verifier found, returned to the client with every successful render. */
export interface Verification {
  /** The decoded payload equals the content, byte for byte. */
  decoded: boolean;
  /**
   * `reduced`: decodes at its own size and as a phone sees it from afar (the box-filtered reduction);
   * `full`: only at its own size.
   */
  decodedAt: 'reduced' | 'full' | null;
  /** WCAG contrast of the foreground against the background, as a viewer sees them. */
  contrastRatio: number;
  /** Width of the light margin around the symbol, in modules. */
  quietZoneModules: number;
  /** Every pixel of the required quiet zone is background-coloured. */
  quietZoneClean: boolean;
  /** Human-readable reasons, empty when everything passed. */
  failures: string[];
  /**
   * Robustness, 0–100: 25 for decoding as seen from afar (the reduced image), plus 25 for each harsher
   * trial that still decodes: about 2 px per module, a 3×3 blur, contrast halved (blur and dim are tried
   * together first; passing that counts for both). A code that decodes only at full size scores 10.
   */
  scanScore: number;
  scanTrials: { name: string; decoded: boolean }[];
}

export interface VerifyInput {
  raster: Raster;
  /**
   * The raster is whole-pixel squares (a flat scene): its reduction averages exact module blocks, so it
   * shows the same geometry as the full-size image and decoding it alone proves the full-size one.
   */
  exact: boolean;
  layout: Layout;
  expected: Uint8Array;
  foreground: Rgba;
  background: Rgba;
}

export const MIN_CONTRAST = 4;
export const MIN_QUIET_ZONE = 4;
/** Pixels per module in the reduced image; enough for zxing, and a quarter of the work of 6. */
const REDUCED_MODULE_PX = 3;
// Polarity is known from the design, so light-on-dark images are inverted here and zxing is spared its
// second, inverted pass (which it runs even after the first pass found the code).
const FAST: ReaderOptions = { formats: ['QRCode'], tryHarder: false, tryRotate: false, tryDownscale: false, tryInvert: false, maxNumberOfSymbols: 1 };
const THOROUGH: ReaderOptions = { formats: ['QRCode'], tryHarder: true, tryInvert: true, maxNumberOfSymbols: 1 };

/**
 * The image as grey levels without copying it: per-pixel values plus a lookup table to grey. An indexed
 * raster is read through its palette's greys; an RGBA one is converted once and read through identity.
 */
interface GreyImage { pix: Uint8Array; lut: Uint8Array; width: number; height: number }

const IDENTITY = Uint8Array.from({ length: 256 }, (_, i) => i);

function greyImage(r: Raster): GreyImage {
  if (r.kind === 'indexed') {
    return { pix: r.pixels, lut: Uint8Array.from(r.palette, (c) => greyLevel(composite(c, WHITE))), width: r.width, height: r.height };
  }
  const grey = new Uint8Array(r.width * r.height);
  const p = r.pixels;
  for (let i = 0, j = 0; i < grey.length; i++, j += 4) {
    // Rec. 601 in 8-bit fixed point (77, 150, 29 sum to 256); translucent pixels over white.
    const y = (77 * p[j]! + 150 * p[j + 1]! + 29 * p[j + 2]!) >> 8;
    const a = p[j + 3]!;
    grey[i] = a === 255 ? y : (y * a + 255 * (255 - a) + 127) / 255;
  }
  return { pix: grey, lut: IDENTITY, width: r.width, height: r.height };
}

/** Box-filters by an integer factor, reading rows in order, and expands to the RGBA zxing reads. */
function reduce({ pix, lut, width, height }: GreyImage, f: number): ImageData {
  const w = Math.floor(width / f);
  const h = Math.floor(height / f);
  const data = new Uint8ClampedArray(w * h * 4);
  const sums = new Uint32Array(w);
  const area = f * f;
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      const row = (y * f + dy) * width;
      for (let x = 0, i = row; x < w; x++) {
        let s = 0;
        for (let dx = 0; dx < f; dx++) s += lut[pix[i++]!]!;
        sums[x]! += s;
      }
    }
    for (let x = 0, o = y * w * 4; x < w; x++, o += 4) {
      const v = Math.round(sums[x]! / area);
      data[o] = data[o + 1] = data[o + 2] = v;
      data[o + 3] = 255;
    }
  }
  return { data, width: w, height: h, colorSpace: 'srgb' } as ImageData;
}

/** A 3×3 box blur of a grey RGBA image: a slightly out-of-focus camera. */
function blur(img: ImageData): ImageData {
  const { width: w, height: h, data } = img;
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < w && yy < h) { sum += data[(yy * w + xx) * 4]!; n++; }
        }
      }
      const o = (y * w + x) * 4;
      out[o] = out[o + 1] = out[o + 2] = Math.round(sum / n);
      out[o + 3] = 255;
    }
  }
  return { data: out, width: w, height: h, colorSpace: 'srgb' } as ImageData;
}

/** Halves the image's contrast around mid-grey: dim light or a glossy print. */
function dim(img: ImageData): ImageData {
  const out = new Uint8ClampedArray(img.data.length);
  for (let i = 0; i < out.length; i += 4) {
    out[i] = out[i + 1] = out[i + 2] = 64 + (img.data[i]! >> 1);
    out[i + 3] = 255;
  }
  return { data: out, width: img.width, height: img.height, colorSpace: 'srgb' } as ImageData;
}

const FAR = 'from further away (about 2 px per module)';
const BLURRED = 'slightly out of focus (3×3 blur)';
const DIM = 'in dim light (contrast halved)';
const BLURRED_AND_DIM = 'out of focus and in dim light at once (counts for both)';

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

async function decodes(image: ImageData, options: ReaderOptions, expected: Uint8Array): Promise<boolean> {
  const results = await readBarcodes(image, options);
  return results.some((r) => r.isValid && sameBytes(r.bytes, expected));
}

/**
 * Checks that every pixel of the required quiet zone (MIN_QUIET_ZONE modules around the symbol) reads as
 * background to a scanner: it sits on the background's side of the midpoint between the two colours.
 * Compression noise (JPEG ringing) that stays on that side is harmless and passes.
 */
function quietZoneClean({ pix, lut }: GreyImage, layout: Layout, bgGrey: number, fgGrey: number): boolean {
  const { width, height, modulePx, size } = layout;
  const q = MIN_QUIET_ZONE * modulePx;
  // A scaled raster puts the symbol's edge mid-pixel; those anti-aliased edge pixels belong to the symbol.
  const sx0 = Math.floor(layout.originX), sy0 = Math.floor(layout.originY);
  const sx1 = Math.ceil(layout.originX + size * modulePx), sy1 = Math.ceil(layout.originY + size * modulePx);
  const x0 = Math.max(0, Math.ceil(layout.originX - q)), y0 = Math.max(0, Math.ceil(layout.originY - q));
  const x1 = Math.min(width, Math.floor(layout.originX + size * modulePx + q)), y1 = Math.min(height, Math.floor(layout.originY + size * modulePx + q));
  const mid = (bgGrey + fgGrey) / 2;
  const light = bgGrey > fgGrey;
  for (let y = y0; y < y1; y++) {
    const inner = y >= sy0 && y < sy1;
    for (let x = x0; x < x1; x++) {
      if (inner && x === sx0) x = sx1;
      const v = lut[pix[y * width + x]!]!;
      if (light ? v <= mid : v >= mid) return false;
    }
  }
  return true;
}

/**
 * Verifies one export: decodes the artifact's own pixels (first a box-filtered reduction, as a phone sees
 * the code from afar, then full size if that fails) and requires the payload to equal `expected` byte for
 * byte; measures contrast and the quiet zone.
 */
export async function verifyRaster(input: VerifyInput): Promise<Verification> {
  const { raster, layout, expected } = input;
  const failures: string[] = [];
  const contrast = effectiveContrast(input.foreground, input.background);
  if (contrast < MIN_CONTRAST) failures.push(`contrast ${contrast.toFixed(2)}:1 is below ${MIN_CONTRAST}:1`);

  const grey = greyImage(raster);
  const bg = composite(input.background, WHITE);
  // A flat raster is filled only inside the symbol and carries no decorations, so its quiet zone is
  // background by construction; anything drawn (shapes, images, frames) is checked pixel by pixel.
  const clean = input.exact || quietZoneClean(grey, layout, greyLevel(bg), greyLevel(composite(input.foreground, bg)));
  if (!clean) failures.push(`the ${MIN_QUIET_ZONE}-module quiet zone is not clear`);
  const quietZoneModules = Math.floor(Math.min(layout.originX, layout.originY, layout.width - layout.originX - layout.size * layout.modulePx, layout.height - layout.originY - layout.size * layout.modulePx) / layout.modulePx);
  if (quietZoneModules < MIN_QUIET_ZONE) failures.push(`quiet zone is ${quietZoneModules} modules, below ${MIN_QUIET_ZONE}`);

  const f = Math.max(1, Math.floor(layout.modulePx / REDUCED_MODULE_PX));
  const lightOnDark = greyLevel(composite(input.foreground, bg)) > greyLevel(bg);
  const seen: GreyImage = lightOnDark ? { ...grey, lut: grey.lut.map((v) => 255 - v) } : grey;
  const reduced = reduce(seen, f);
  const farOk = await decodes(reduced, FAST, expected);
  // Anti-aliased shapes can read differently at another scale, so they must also decode as delivered.
  const full = () => reduce(seen, 1);
  const nativeOk = (input.exact || f === 1) && farOk ? true : (await decodes(full(), FAST, expected)) || (await decodes(full(), THOROUGH, expected));
  const decodedAt: Verification['decodedAt'] = nativeOk ? (farOk ? 'reduced' : 'full') : null;
  if (!nativeOk) failures.push(`the image does not decode to the content at its own size (${raster.width}×${raster.height} px)`);

  const scanTrials: Verification['scanTrials'] = [];
  if (decodedAt === 'reduced') {
    scanTrials.push({ name: FAR, decoded: await decodes(reduce(seen, Math.max(1, Math.floor(layout.modulePx / 2))), FAST, expected) });
    // Blur and dim at once: a code that survives both together survives each alone, so one decode
    // settles the usual case and only a weaker code pays for the two separate trials.
    if (await decodes(dim(blur(reduced)), FAST, expected)) scanTrials.push({ name: BLURRED_AND_DIM, decoded: true });
    else {
      scanTrials.push({ name: BLURRED, decoded: await decodes(blur(reduced), FAST, expected) });
      scanTrials.push({ name: DIM, decoded: await decodes(dim(reduced), FAST, expected) });
    }
  }
  const passed = scanTrials.reduce((n, t) => n + (t.decoded ? (t.name === BLURRED_AND_DIM ? 2 : 1) : 0), 0);
  const scanScore = decodedAt === 'reduced' ? 25 + 25 * passed : decodedAt === 'full' ? 10 : 0;

  return { decoded: decodedAt !== null, decodedAt, contrastRatio: Math.round(contrast * 100) / 100, quietZoneModules, quietZoneClean: clean, failures, scanScore, scanTrials };
}
