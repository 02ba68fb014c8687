import { defaultReaderOptions, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { composite, effectiveContrast, greyLevel, WHITE, type Rgba } from '../model/color.js';
import { MIN_CONTRAST } from '../model/contrast.js';
import type { Layout } from '../model/layout.js';
import type { Raster } from '../model/raster.js';
import type { FileFormat } from '../model/vocabulary.js';
import { kernelFor, kernelWith } from './kernel.js';

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
  /** The delivered file's format: it decides how a reader turns the file's pixels into grey (READ_AS_FILE). */
  format: FileFormat;
  layout: Layout;
  expected: Uint8Array;
  foreground: Rgba;
  background: Rgba;
}

export const MIN_QUIET_ZONE = 4;
/** Pixels per module in the reduced image; enough for zxing, and a quarter of the work of 6. */
const REDUCED_MODULE_PX = 3;
// Polarity is known from the design, so light-on-dark images are inverted here and zxing is spared its
// second, inverted pass (which it runs even after the first pass found the code).
const FAST: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: false,
  tryRotate: false,
  tryDownscale: false,
  tryInvert: false,
  maxNumberOfSymbols: 1,
};
/**
 * How a zxing-based reader with default options reads a delivered file (the test suite's independent
 * decoder does exactly this): tryHarder, both polarities, and an image pyramid (below). Stopping at the
 * first symbol changes nothing for a single code: zxing tries the same candidates in the same order.
 */
const AS_DELIVERED: ReaderOptions = { formats: ['QRCode'], tryHarder: true, tryInvert: true, maxNumberOfSymbols: 1 };
/**
 * zxing's pyramid: an image larger than `downscaleThreshold` is also read as a layer box-filtered by
 * `downscaleFactor` (and further layers while they are still larger). From the library, so the verifier
 * follows its defaults.
 */
const { downscaleThreshold: PYRAMID_ABOVE, downscaleFactor: PYRAMID_FACTOR } = defaultReaderOptions;
/**
 * FAST and tryHarder differ, for QR codes, only in how often zxing scans a row for finder patterns: every
 * third row with tryHarder, every max(3, ⌊3 × height / 388⌋)th without, the same rows below this height.
 */
const FAST_SCANS_EVERY_THIRD_ROW_BELOW = 517;

/**
 * How a reader of the delivered file turns its pixels into grey: zxing reads PNG and JPEG files itself,
 * through stb_image, (77R + 150G + 29B) >> 8; SVG, PDF and WebP reach it already decoded to RGBA, which it
 * converts with its RGBToLum, (306R + 601G + 117B + 512) >> 10. The two differ by one level on some
 * colours, and a marginal code can decode under one and not the other. (JPEG is only close: stb's JPEG
 * decoder is not the one that produced the raster checked here.)
 */
const READ_AS_FILE: Record<FileFormat, boolean> = { png: true, jpg: true, svg: false, pdf: false, webp: false };
const stbGrey = (r: number, g: number, b: number) => (77 * r + 150 * g + 29 * b) >> 8;
const zxingGrey = (r: number, g: number, b: number) => (306 * r + 601 * g + 117 * b + 512) >> 10;

/** A box filter by an integer factor; light-on-dark codes are read inverted (255 − grey), so zxing needs only one polarity. */
export interface Box {
  f: number;
  invert: boolean;
}

const boxSize = (width: number, height: number, b: Box) => [Math.floor(width / b.f), Math.floor(height / b.f)] as const;

/**
 * A grey image as zxing is handed it: a binary PGM file, which its stb_image reads as the grey bytes
 * themselves. Handed RGBA instead, zxing-wasm greys every pixel in a JavaScript loop; these images are
 * grey already.
 */
export interface GreyImage {
  width: number;
  height: number;
  pgm: Uint8Array;
}

const pgmHeader = (width: number, height: number) => new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);

/** The grey pixels of a GreyImage. */
export const pixelsOf = (img: GreyImage): Uint8Array => img.pgm.subarray(img.pgm.length - img.width * img.height);

/** Writes a PGM header into `memory` so that it ends at `pixels`, and returns where it starts. */
function headerBefore(memory: Uint8Array, pixels: number, width: number, height: number): number {
  const header = pgmHeader(width, height);
  memory.set(header, pixels - header.length);
  return pixels - header.length;
}

/** Room for the longest PGM header of a canvas within budget, "P5\n65535 65535\n255\n", rounded up. */
const HEADER_ROOM = 32;

/**
 * Reads the raster once, in our WASM kernel (wasm/assembly/grey.ts): its grey image, as the delivered
 * file's reader computes it (translucent pixels over white, as a viewer shows them), and every box filter
 * of it, each block's mean rounded as zxing-cpp's pyramid rounds it, so a factor-3 box is, bit for bit,
 * the layer zxing makes of the file.
 */
export function scan(r: Raster, asFile: boolean, boxes: Box[]): { grey: Uint8Array; reduced: GreyImage[] } {
  const { width, height } = r;
  const n = width * height;
  const sizes = boxes.map((b) => boxSize(width, height, b));
  // Layout: the pixels, then palette greys, grey image (16 bytes to spare), box descriptions, then each
  // box's column sums (u16 per column, the width rounded up to 16), PGM header and output.
  const table = 0;
  const grey = table + 256;
  const specs = grey + n + 16 + ((16 - (n % 16)) % 16);
  const sumBytes = ((width + 15) & ~15) * 2;
  let end = specs + 16 * boxes.length;
  const offsets = sizes.map(([w, h]) => {
    const sums = end;
    const out = sums + sumBytes + HEADER_ROOM;
    end = out + w * h;
    return { sums, out };
  });
  const { k, pixels: src, base } = kernelWith(r, end);
  const at = offsets.map((o) => ({ sums: base + o.sums, out: base + o.out }));
  if (k.BOX_BYTES.value !== 16) throw new Error('the kernel describes boxes in another layout');
  const memory = new Uint8Array(k.memory.buffer);
  const words = new Int32Array(k.memory.buffer);
  if (r.kind === 'indexed') {
    r.palette.forEach((c, i) => {
      const o = composite(c, WHITE);
      memory[base + table + i] = asFile ? stbGrey(o.r, o.g, o.b) : zxingGrey(o.r, o.g, o.b);
    });
  }
  boxes.forEach((b, i) => {
    if (b.f > k.BOX_MAX_FACTOR.value)
      throw new Error(`a box of factor ${b.f} is over the kernel's ${k.BOX_MAX_FACTOR.value}`);
    words.set([b.f, b.invert ? 1 : 0, at[i]!.out, at[i]!.sums], ((base + specs) >> 2) + 4 * i);
    memory.fill(0, at[i]!.sums, at[i]!.sums + sumBytes);
  });
  k.scan(src, r.kind === 'rgba', !asFile, base + table, width, height, base + grey, base + specs, boxes.length);
  const reduced = sizes.map(([w, h], i) => ({
    width: w,
    height: h,
    pgm: memory.slice(headerBefore(memory, at[i]!.out, w, h), at[i]!.out + w * h),
  }));
  return { grey: memory.slice(base + grey, base + grey + n), reduced };
}

/** The full-size grey image as zxing is handed it. */
function fullSize(grey: Uint8Array, width: number, height: number): GreyImage {
  const header = pgmHeader(width, height);
  const pgm = new Uint8Array(header.length + grey.length);
  pgm.set(header);
  pgm.set(grey, header.length);
  return { width, height, pgm };
}

/**
 * A 3×3 box blur of a grey image (a slightly out-of-focus camera), the window clipped at the edges,
 * and/or its contrast halved around mid-grey (dim light or a glossy print); in the kernel.
 */
export function blurDim(img: GreyImage, blurred: boolean, dimmed: boolean): GreyImage {
  const { width: w, height: h } = img;
  const n = w * h;
  const rowsAt = n + ((2 - (n % 2)) % 2);
  const outAt = rowsAt + n * 2 + HEADER_ROOM;
  const { k, base: src } = kernelFor(outAt + n);
  const rows = src + rowsAt;
  const out = src + outAt;
  const memory = new Uint8Array(k.memory.buffer);
  memory.set(pixelsOf(img), src);
  k.blurDim(src, w, h, blurred, dimmed, rows, out);
  return { width: w, height: h, pgm: memory.slice(headerBefore(memory, out, w, h), out + n) };
}

const FAR = 'from further away (about 2 px per module)';
const BLURRED = 'slightly out of focus (3×3 blur)';
const DIM = 'in dim light (contrast halved)';
const BLURRED_AND_DIM = 'out of focus and in dim light at once (counts for both)';

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

async function decodes(image: GreyImage, options: ReaderOptions, expected: Uint8Array): Promise<boolean> {
  const results = await readBarcodes(image.pgm, options);
  return results.some((r) => r.isValid && sameBytes(r.bytes, expected));
}

/**
 * Checks that every pixel of the required quiet zone (MIN_QUIET_ZONE modules around the symbol) reads as
 * background to a scanner: it sits on the background's side of the midpoint between the two colours.
 * Compression noise (JPEG ringing) that stays on that side is harmless and passes.
 */
function quietZoneClean(grey: Uint8Array, layout: Layout, bgGrey: number, fgGrey: number): boolean {
  const { width, height, modulePx, size } = layout;
  const q = MIN_QUIET_ZONE * modulePx;
  // A scaled raster puts the symbol's edge mid-pixel; those anti-aliased edge pixels belong to the symbol.
  const sx0 = Math.floor(layout.originX),
    sy0 = Math.floor(layout.originY);
  const sx1 = Math.ceil(layout.originX + size * modulePx),
    sy1 = Math.ceil(layout.originY + size * modulePx);
  const x0 = Math.max(0, Math.ceil(layout.originX - q)),
    y0 = Math.max(0, Math.ceil(layout.originY - q));
  const x1 = Math.min(width, Math.floor(layout.originX + size * modulePx + q)),
    y1 = Math.min(height, Math.floor(layout.originY + size * modulePx + q));
  const { k, base } = kernelFor(grey.length);
  new Uint8Array(k.memory.buffer).set(grey, base);
  return (
    k.quietZoneClear(base, width, x0, y0, x1, y1, sx0, sy0, sx1, sy1, (bgGrey + fgGrey) / 2, bgGrey > fgGrey) === 1
  );
}

/**
 * Whether the image decodes to the content as a reader of the delivered file decodes it: AS_DELIVERED, at
 * its own size and on zxing's pyramid. `layer`, when made, is the pyramid's first layer, a ninth of the
 * pixels: it is tried first, and since it is exactly zxing's layer, a code found there is found in the
 * file. The full-size pass, the single most expensive step, is paid only when the layer does not decode
 * or the image is too small to have one. Polarity is left to zxing (tryInvert), as for the file.
 */
async function decodesAsDelivered(
  layer: GreyImage | null,
  grey: Uint8Array,
  width: number,
  height: number,
  expected: Uint8Array,
): Promise<boolean> {
  if (!layer) return decodes(fullSize(grey, width, height), AS_DELIVERED, expected);
  // zxing reads the layers below the first from it, as from the file; only the full size is left.
  return (
    (await decodes(layer, AS_DELIVERED, expected)) ||
    decodes(fullSize(grey, width, height), { ...AS_DELIVERED, tryDownscale: false }, expected)
  );
}

/**
 * Verifies one export: decodes the artifact's own pixels (a box-filtered reduction, as a phone sees the
 * code from afar, and the image as a reader of the delivered file reads it) and requires the payload to
 * equal `expected` byte for byte; measures contrast and the quiet zone.
 */
export async function verifyRaster(input: VerifyInput): Promise<Verification> {
  const { raster, layout, expected } = input;
  const { width, height } = raster;
  const failures: string[] = [];
  const contrast = effectiveContrast(input.foreground, input.background);
  if (contrast < MIN_CONTRAST) failures.push(`contrast ${contrast.toFixed(2)}:1 is below ${MIN_CONTRAST}:1`);

  const bg = composite(input.background, WHITE);
  const bgGrey = greyLevel(bg);
  const fgGrey = greyLevel(composite(input.foreground, bg));
  const lightOnDark = fgGrey > bgGrey;
  const f = Math.max(1, Math.floor(layout.modulePx / REDUCED_MODULE_PX));
  // Anti-aliased shapes can read differently at another scale, so they must also decode as delivered;
  // unless the raster is flat (see `exact`), or the reduction is the delivered image read as delivered
  // (1:1, dark on light, and FAST scanning the same rows as tryHarder).
  const farProvesNative = input.exact || (f === 1 && !lightOnDark && height < FAST_SCANS_EVERY_THIRD_ROW_BELOW);
  // Every image the checks below read, made in one pass over the raster: the reduction (as a phone sees
  // the code from afar), the farther one of the first trial, and zxing's first pyramid layer. zxing makes
  // that layer when the image exceeds the threshold; min, not max, so it does however it compares sides.
  const layered = !farProvesNative && Math.min(width, height) > PYRAMID_ABOVE;
  const boxes: Box[] = [
    { f, invert: lightOnDark },
    { f: Math.max(1, Math.floor(layout.modulePx / 2)), invert: lightOnDark },
  ];
  if (layered) boxes.push({ f: PYRAMID_FACTOR, invert: false });
  const {
    grey,
    reduced: [reduced, far, layer],
  } = scan(raster, READ_AS_FILE[input.format], boxes);

  // A flat raster is filled only inside the symbol and carries no decorations, so its quiet zone is
  // background by construction; anything drawn (shapes, images, frames) is checked pixel by pixel.
  const clean = input.exact || quietZoneClean(grey, layout, bgGrey, fgGrey);
  if (!clean) failures.push(`the ${MIN_QUIET_ZONE}-module quiet zone is not clear`);
  const quietZoneModules = Math.floor(
    Math.min(
      layout.originX,
      layout.originY,
      layout.width - layout.originX - layout.size * layout.modulePx,
      layout.height - layout.originY - layout.size * layout.modulePx,
    ) / layout.modulePx,
  );
  if (quietZoneModules < MIN_QUIET_ZONE)
    failures.push(`quiet zone is ${quietZoneModules} modules, below ${MIN_QUIET_ZONE}`);

  const farOk = await decodes(reduced, FAST, expected);
  const nativeOk =
    (farProvesNative && farOk) || (await decodesAsDelivered(layer ?? null, grey, width, height, expected));
  const decodedAt: Verification['decodedAt'] = nativeOk ? (farOk ? 'reduced' : 'full') : null;
  if (!nativeOk) failures.push(`the image does not decode to the content at its own size (${width}×${height} px)`);

  const scanTrials: Verification['scanTrials'] = [];
  if (decodedAt === 'reduced') {
    scanTrials.push({ name: FAR, decoded: await decodes(far!, FAST, expected) });
    // Blur and dim at once: a code that survives both together survives each alone, so one decode
    // settles the usual case and only a weaker code pays for the two separate trials.
    if (await decodes(blurDim(reduced, true, true), FAST, expected))
      scanTrials.push({ name: BLURRED_AND_DIM, decoded: true });
    else {
      scanTrials.push({ name: BLURRED, decoded: await decodes(blurDim(reduced, true, false), FAST, expected) });
      scanTrials.push({ name: DIM, decoded: await decodes(blurDim(reduced, false, true), FAST, expected) });
    }
  }
  const passed = scanTrials.reduce((n, t) => n + (t.decoded ? (t.name === BLURRED_AND_DIM ? 2 : 1) : 0), 0);
  const scanScore = decodedAt === 'reduced' ? 25 + 25 * passed : decodedAt === 'full' ? 10 : 0;

  return {
    decoded: decodedAt !== null,
    decodedAt,
    contrastRatio: Math.round(contrast * 100) / 100,
    quietZoneModules,
    quietZoneClean: clean,
    failures,
    scanScore,
    scanTrials,
  };
}
