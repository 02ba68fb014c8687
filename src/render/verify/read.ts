import { composite, type Rgba, WHITE } from '../../model/color.js';
import type { Raster } from '../../model/raster.js';
import type { FileFormat } from '../../model/vocabulary.js';
import { kernelFor, kernelWith } from '../kernel.js';
import { type QuietZone, quietZoneClearIn } from './quiet-zone.js';
import type { GreyPixels } from './zbar.js';

/**
 * How a reader of the delivered file turns its pixels into grey: zxing reads PNG and JPEG files itself,
 * through stb_image, (77R + 150G + 29B) >> 8; SVG, PDF and WebP reach it already decoded to RGBA, which it
 * converts with its RGBToLum, (306R + 601G + 117B + 512) >> 10. The two differ by one level on some
 * colours, and a marginal code can decode under one and not the other. (JPEG is only close: stb's JPEG
 * decoder is not the one that produced the raster checked here.)
 */
export const READ_AS_FILE: Record<FileFormat, boolean> = {
  png: true,
  jpg: true,
  svg: false,
  pdf: false,
  webp: false,
  eps: false,
};
const stbGrey = (r: number, g: number, b: number) => (77 * r + 150 * g + 29 * b) >> 8;
const zxingGrey = (r: number, g: number, b: number) => (306 * r + 601 * g + 117 * b + 512) >> 10;
/**
 * How zbar turns pixels into grey: zbar reads grey bytes only, and @undecaf/zbar-wasm, handed RGBA (a
 * canvas's ImageData, a decoded file), greys them itself with (19595R + 38469G + 7472B) >> 16, alpha
 * ignored; zbar's own C conversion of RGB formats ignores alpha too. Every format reaches it so, whatever
 * its file: this differs from both of zxing's formulas by a level on some colours, and on a marginal code
 * one level decides (docs/design-decisions.md, "zbar's own grey"). A JPEG's raster is its luma, grey already,
 * on which every formula agrees.
 */
const zbarGreyOf = (r: number, g: number, b: number) => (19595 * r + 38469 * g + 7472 * b) >> 16;

/**
 * A box filter by an integer factor of the reader's grey, or of zbar's (`zbar`); light-on-dark codes are
 * read inverted (255 − grey), so the decoders need only one polarity.
 */
export interface BoxFilter {
  f: number;
  invert: boolean;
  zbar?: boolean;
}

const boxSize = (width: number, height: number, b: BoxFilter) =>
  [Math.floor(width / b.f), Math.floor(height / b.f)] as const;

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

/** The grey of each palette entry by `formula`, over white as a viewer shows a translucent one. */
const paletteGrey = (palette: Rgba[], formula: (r: number, g: number, b: number) => number): number[] =>
  palette.map((c) => {
    const o = composite(c, WHITE);
    return formula(o.r, o.g, o.b);
  });

/** What one pass over a raster reads: the reader's grey, zbar's when asked for, the box filters, and the quiet zone. */
export interface Scan {
  /** The full-size grey image as the delivered file's reader computes it (READ_AS_FILE). */
  grey: Uint8Array;
  /**
   * The full-size grey image as zbar computes it; null unless asked for. Written to `zbarInto`, it is that
   * image's view, valid until zbar next runs.
   */
  zbarGrey: Uint8Array | null;
  /** Each box filter, in the order asked. */
  reduced: GreyImage[];
  /** Whether the quiet zone asked about reads as background in the reader's grey; null when not asked. */
  quietZoneClear: boolean | null;
}

/**
 * Reads the raster once, in our WASM kernel (wasm/assembly/grey.ts): its grey image, as the delivered
 * file's reader computes it (translucent pixels over white, as a viewer shows them), zbar's grey image
 * (over white likewise) when `zbarNative`, and every box filter of either, each block's mean rounded as
 * zxing-cpp's pyramid rounds it, so a factor-3 box is, bit for bit, the layer zxing makes of the file. A
 * palette on whose colours the two formulas agree (a grey one: black on white, a JPEG's luma) is greyed
 * once for both. `quietZone`, when given, is checked on the reader's grey where the kernel made it. zbar's
 * full-size grey goes to `zbarInto` when given (room in zbar's memory: zbar.ts, ZbarImage), else to a new array.
 */
export function scan(
  r: Raster,
  asFile: boolean,
  requested: BoxFilter[],
  zbarNative = false,
  quietZone?: QuietZone,
  zbarInto?: GreyPixels,
): Scan {
  const { width, height } = r;
  const n = width * height;
  const formula = asFile ? stbGrey : zxingGrey;
  const tables =
    r.kind === 'indexed' ? { reader: paletteGrey(r.palette, formula), zbar: paletteGrey(r.palette, zbarGreyOf) } : null;
  const shared = tables?.reader.every((v, i) => v === tables.zbar[i]) ?? false;
  const zbarOwn = !shared && (zbarNative || requested.some((b) => b.zbar));
  // A box asked twice (one of zbar's grey, when that is the reader's, and its twin) is made once.
  const keyOf = (b: BoxFilter) => `${b.f} ${b.invert} ${zbarOwn && b.zbar === true}`;
  const boxes: BoxFilter[] = [];
  const slots = requested.map((b) => {
    const i = boxes.findIndex((m) => keyOf(m) === keyOf(b));
    return i >= 0 ? i : boxes.push(b) - 1;
  });
  const sizes = boxes.map((b) => boxSize(width, height, b));
  const padded = (bytes: number) => bytes + 16 + ((16 - (bytes % 16)) % 16);
  // Layout: the pixels, then palette greys (the reader's, zbar's), grey image, zbar's grey image or row (each
  // 16 bytes to spare), box descriptions, then each box's column sums (u16 per column, the width rounded up
  // to 16), PGM header and output.
  const table = 0;
  const zbarTable = table + 256;
  const grey = zbarTable + 256;
  const zbar = grey + padded(n);
  const specs = zbar + (zbarOwn ? padded(zbarNative ? n : width) : 0);
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
  if (tables) {
    memory.set(tables.reader, base + table);
    memory.set(tables.zbar, base + zbarTable);
  }
  boxes.forEach((b, i) => {
    if (b.f > k.BOX_MAX_FACTOR.value)
      throw new Error(`a box of factor ${b.f} is over the kernel's ${k.BOX_MAX_FACTOR.value}`);
    const flags = (b.invert ? k.BOX_INVERT.value : 0) | (b.zbar && zbarOwn ? k.BOX_ZBAR.value : 0);
    words.set([b.f, flags, at[i]!.out, at[i]!.sums], ((base + specs) >> 2) + 4 * i);
    memory.fill(0, at[i]!.sums, at[i]!.sums + sumBytes);
  });
  k.scan(
    src,
    r.kind === 'rgba',
    asFile ? k.GREY_STB.value : k.GREY_ZXING.value,
    base + table,
    r.kind === 'indexed' ? r.palette.length : 0,
    width,
    height,
    base + grey,
    base + specs,
    boxes.length,
    base + zbarTable,
    zbarOwn ? base + zbar : 0,
    zbarNative ? width : 0,
  );
  const quietZoneClear = quietZone ? quietZoneClearIn(k, base + grey, width, quietZone) : null;
  const images = sizes.map(([w, h], i) => ({
    width: w,
    height: h,
    pgm: memory.slice(headerBefore(memory, at[i]!.out, w, h), at[i]!.out + w * h),
  }));
  const readerGrey = memory.slice(base + grey, base + grey + n);
  const zbarAt = base + (zbarOwn ? zbar : grey);
  let zbarImage: Uint8Array | null = null;
  if (zbarNative && zbarInto) {
    zbarImage = zbarInto.pixels;
    zbarImage.set(memory.subarray(zbarAt, zbarAt + n));
  } else if (zbarNative) zbarImage = zbarOwn ? memory.slice(zbarAt, zbarAt + n) : readerGrey;
  return { grey: readerGrey, zbarGrey: zbarImage, reduced: slots.map((i) => images[i]!), quietZoneClear };
}

/** The full-size grey image as zxing is handed it. */
export function fullSize(grey: Uint8Array, width: number, height: number): GreyImage {
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
