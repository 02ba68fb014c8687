// The verifier's read of a raster (src/render/verify/read.ts): grey levels as a decoder computes them, and
// box-filtered reductions as zxing's pyramid makes them, in one pass. Like raster.ts, it works on memory
// laid out by its JS side and allocates nothing.

import { foregroundLanes, onlyBackgroundOrForeground } from './levels';

/** Bytes per box description: factor, flags (BOX_INVERT, BOX_ZBAR), output pointer (grey, a byte per pixel), column-sums pointer, as i32. */
export const BOX_BYTES = 16;
/**
 * The largest box factor: a box's column sums are u16, which hold `f` rows of 255. The verifier's boxes are
 * a third and a half of a module and zxing's 3, far below it for any canvas within the service's budget.
 */
export const BOX_MAX_FACTOR = 257;

/** A grey formula (`formula`): stb_image's (77R + 150G + 29B) >> 8, with which zxing reads PNG and JPEG files. */
export const GREY_STB = 0;
/** zxing's RGBToLum, (306R + 601G + 117B + 512) >> 10, for RGBA pixels it is handed. */
export const GREY_ZXING = 1;
/** zbar-wasm's (19595R + 38469G + 7472B) >> 16, for RGBA pixels it is handed (alpha ignored). */
export const GREY_ZBAR = 2;

/** A box description's flag (its second i32): the box reads 255 − grey. */
export const BOX_INVERT = 1;
/** A box description's flag: the box sums zbar's grey rather than the reader's. */
export const BOX_ZBAR = 2;

/**
 * Reads a raster once. Each pixel becomes a grey level (stored at `grey`) by the formula of the reader
 * that will see it (`formula`, GREY_STB or GREY_ZXING); translucent pixels are taken over white, as a
 * viewer shows them. An indexed raster (`rgba` false) of `colours` palette entries is read through `table`,
 * each entry's grey.
 * When `zbarGrey` is not 0, each pixel is also greyed by zbar's formula (GREY_ZBAR, over white likewise,
 * through `zbarTable` for an indexed raster), row y at `zbarGrey + y × zbarStride`: a stride of 0 keeps
 * only the current row, for boxes alone. Meanwhile each of the `nBoxes` box filters at `boxes` adds every
 * grey row (zbar's when it has BOX_ZBAR) into its column sums (u16 per pixel column, zero at the start, the
 * width rounded up to 16) and, at its last row of a block, sums them by blocks and writes a row of
 * ⌊width / f⌋ grey pixels, each block's mean rounded as zxing-cpp's pyramid rounds it, (sum + f²/2) / f²
 * truncated; a box with BOX_INVERT reads 255 − grey, for light-on-dark codes. `grey` and `zbarGrey` need
 * 16 bytes to spare after what they hold.
 */
export function scan(src: usize, rgba: bool, formula: i32, table: usize, colours: i32, width: i32, height: i32, grey: usize, boxes: usize, nBoxes: i32, zbarTable: usize, zbarGrey: usize, zbarStride: i32): void {
  for (let y = 0; y < height; y++) {
    const row = grey + <usize>(y * width);
    const zbarRow = zbarGrey + <usize>(y * zbarStride);
    if (rgba) {
      // Each combination spelt out, so that the inlined loop is compiled for it with no test per pixel.
      const p = src + (<usize>(y * width) << 2);
      if (zbarGrey == 0) {
        if (formula == GREY_ZXING) greyRow(p, width, GREY_ZXING, row, false, 0);
        else greyRow(p, width, GREY_STB, row, false, 0);
      } else if (formula == GREY_ZXING) greyRow(p, width, GREY_ZXING, row, true, zbarRow);
      else greyRow(p, width, GREY_STB, row, true, zbarRow);
    } else lookUpRow(src + <usize>(y * width), width, table, colours, row, zbarGrey != 0 ? zbarTable : 0, zbarRow);
    for (let k = 0; k < nBoxes; k++) {
      const spec = boxes + <usize>(k * BOX_BYTES);
      const f = load<i32>(spec);
      if (y / f >= height / f) continue;
      const flags = load<i32>(spec, 4);
      const from = flags & BOX_ZBAR ? zbarRow : row;
      const sums = <usize>load<u32>(spec, 12);
      for (let x = 0; x < width; x += 16) {
        const g = v128.load(from + <usize>x);
        const c = sums + (<usize>x << 1);
        v128.store(c, i16x8.add(v128.load(c), i16x8.extend_low_i8x16_u(g)));
        v128.store(c, i16x8.add(v128.load(c, 16), i16x8.extend_high_i8x16_u(g)), 16);
      }
      if (y % f == f - 1) writeBlocks(sums, width, f, (flags & BOX_INVERT) != 0, <usize>load<u32>(spec, 8) + <usize>((y / f) * (width / f)));
    }
  }
}

/**
 * One row of palette indices as grey, each looked up in `table` into `out`, and in `zbarTable` (unless 0) into
 * `zbarOut`; sixteen at a time: by a lane shuffle when the palette has at most 16 `colours` (a flat code has
 * two), else where the sixteen are all 0 or 255 (most of a drawn code's levels, background and foreground:
 * src/render/canvas.ts). `table` and `zbarTable` hold 256 entries when `colours` is over 16.
 */
function lookUpRow(p: usize, width: i32, table: usize, colours: i32, out: usize, zbarTable: usize, zbarOut: usize): void {
  let x = 0;
  if (colours <= 16) {
    const greys = v128.load(table);
    const zbarGreys = v128.load(zbarTable);
    for (; x + 16 <= width; x += 16) {
      const i = v128.load(p + <usize>x);
      v128.store(out + <usize>x, i8x16.swizzle(greys, i));
      if (zbarTable != 0) v128.store(zbarOut + <usize>x, i8x16.swizzle(zbarGreys, i));
    }
  } else {
    const grey0 = i8x16.splat(load<i8>(table));
    const grey255 = i8x16.splat(load<i8>(table + 255));
    const zbar0 = i8x16.splat(load<i8>(zbarTable));
    const zbar255 = i8x16.splat(load<i8>(zbarTable + 255));
    for (; x + 16 <= width; x += 16) {
      const i = v128.load(p + <usize>x);
      const fg = foregroundLanes(i);
      if (!onlyBackgroundOrForeground(i, fg)) {
        lookUpPixels(p + <usize>x, 16, table, out + <usize>x, zbarTable, zbarOut + <usize>x);
        continue;
      }
      v128.store(out + <usize>x, v128.bitselect(grey255, grey0, fg));
      if (zbarTable != 0) v128.store(zbarOut + <usize>x, v128.bitselect(zbar255, zbar0, fg));
    }
  }
  lookUpPixels(p + <usize>x, width - x, table, out + <usize>x, zbarTable, zbarOut + <usize>x);
}

/** `n` palette indices as grey, one by one: lookUpRow's. */
// @ts-ignore: decorator
@inline function lookUpPixels(p: usize, n: i32, table: usize, out: usize, zbarTable: usize, zbarOut: usize): void {
  if (zbarTable == 0) {
    for (let x = 0; x < n; x++) store<u8>(out + <usize>x, load<u8>(table + <usize>load<u8>(p + <usize>x)));
    return;
  }
  for (let x = 0; x < n; x++) {
    const i = <usize>load<u8>(p + <usize>x);
    store<u8>(out + <usize>x, load<u8>(table + i));
    store<u8>(zbarOut + <usize>x, load<u8>(zbarTable + i));
  }
}

/**
 * One row of straight RGBA as grey by `formula` into `out`, and by zbar's into `zbarOut` when `both`, from
 * the same loads: sixteen pixels at a time. A group of one colour (most of a drawn code: flat colour
 * between its edges) takes that colour's grey levels, computed once per colour met; any other group with
 * a translucent pixel goes pixel by pixel.
 */
// @ts-ignore: decorator
@inline function greyRow(p: usize, width: i32, formula: i32, out: usize, both: bool, zbarOut: usize): void {
  const weights = weightsOf(formula);
  const zbarWeights = weightsOf(GREY_ZBAR);
  // The colour of the last one-colour group and its grey levels, sixteen of each.
  let flat = load<u32>(p);
  let flatGrey = i8x16.splat(<i8>greyOf(flat, formula));
  let flatZbar = i8x16.splat(<i8>greyOf(flat, GREY_ZBAR));
  let x = 0;
  for (; x + 16 <= width; x += 16) {
    const q = p + (<usize>x << 2);
    const a = v128.load(q);
    const b = v128.load(q, 16);
    const c = v128.load(q, 32);
    const d = v128.load(q, 48);
    const first = i32x4.splat(i32x4.extract_lane(a, 0));
    if (i32x4.all_true(v128.and(v128.and(i32x4.eq(a, first), i32x4.eq(b, first)), v128.and(i32x4.eq(c, first), i32x4.eq(d, first))))) {
      const colour = <u32>i32x4.extract_lane(a, 0);
      if (colour != flat) {
        flat = colour;
        flatGrey = i8x16.splat(<i8>greyOf(colour, formula));
        if (both) flatZbar = i8x16.splat(<i8>greyOf(colour, GREY_ZBAR));
      }
      v128.store(out + <usize>x, flatGrey);
      if (both) v128.store(zbarOut + <usize>x, flatZbar);
      continue;
    }
    if (!allOpaque(a, b, c, d)) {
      for (let i = 0; i < 16; i++) {
        const px = load<u32>(q + (<usize>i << 2));
        store<u8>(out + <usize>(x + i), <u8>greyOf(px, formula));
        if (both) store<u8>(zbarOut + <usize>(x + i), <u8>greyOf(px, GREY_ZBAR));
      }
      continue;
    }
    v128.store(out + <usize>x, lumas(a, b, c, d, weights, formula));
    if (both) v128.store(zbarOut + <usize>x, lumas(a, b, c, d, zbarWeights, GREY_ZBAR));
  }
  for (; x < width; x++) {
    const px = load<u32>(p + (<usize>x << 2));
    store<u8>(out + <usize>x, <u8>greyOf(px, formula));
    if (both) store<u8>(zbarOut + <usize>x, <u8>greyOf(px, GREY_ZBAR));
  }
}

/**
 * A formula's weights as i16 pairs, summed by a dot product: R·wr + G·wg and B·wb + 0; zbar's weights need
 * more than 16 bits for G, so its pixels are spread to R, G, G, B (lanes) and G is weighed in two halves.
 */
// @ts-ignore: decorator
@inline function weightsOf(formula: i32): v128 {
  return formula == GREY_ZBAR
    ? i16x8(19595, 19235, 19234, 7472, 19595, 19235, 19234, 7472)
    : formula == GREY_ZXING
      ? i16x8(306, 601, 117, 0, 306, 601, 117, 0)
      : i16x8(77, 150, 29, 0, 77, 150, 29, 0);
}

/** The grey levels of sixteen opaque pixels, as bytes. */
// @ts-ignore: decorator
@inline function lumas(a: v128, b: v128, c: v128, d: v128, weights: v128, formula: i32): v128 {
  const lo = i16x8.narrow_i32x4_u(luma(a, weights, formula), luma(b, weights, formula));
  const hi = i16x8.narrow_i32x4_u(luma(c, weights, formula), luma(d, weights, formula));
  return i8x16.narrow_i16x8_u(lo, hi);
}

// @ts-ignore: decorator
@inline function allOpaque(a: v128, b: v128, c: v128, d: v128): bool {
  const alpha = i32x4.splat(0xff000000);
  return i32x4.all_true(i32x4.eq(v128.and(v128.and(v128.and(a, b), v128.and(c, d)), alpha), alpha));
}

/** Two pixels' R, G, B, A as i16 lanes, spread to R, G, G, B for zbar's weights. */
// @ts-ignore: decorator
@inline function lanes(v: v128, formula: i32): v128 {
  return formula == GREY_ZBAR ? i8x16.shuffle(v, v, 0, 1, 2, 3, 2, 3, 4, 5, 8, 9, 10, 11, 10, 11, 12, 13) : v;
}

/** The grey levels of four opaque pixels, as i32 lanes. */
// @ts-ignore: decorator
@inline function luma(v: v128, weights: v128, formula: i32): v128 {
  const lo = i32x4.dot_i16x8_s(lanes(i16x8.extend_low_i8x16_u(v), formula), weights);
  const hi = i32x4.dot_i16x8_s(lanes(i16x8.extend_high_i8x16_u(v), formula), weights);
  // lo = [RG₀, B₀, RG₁, B₁] ([RG₀, GB₀, …] for zbar), hi likewise for pixels 2 and 3: add them pairwise.
  const sum = i32x4.add(
    i8x16.shuffle(lo, hi, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27),
    i8x16.shuffle(lo, hi, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31),
  );
  return formula == GREY_ZBAR
    ? i32x4.shr_u(sum, 16)
    : formula == GREY_ZXING
      ? i32x4.shr_u(i32x4.add(sum, i32x4.splat(512)), 10)
      : i32x4.shr_u(sum, 8);
}

/** One straight-alpha pixel's grey level by `formula`, over white when translucent. */
// @ts-ignore: decorator
@inline function greyOf(p: u32, formula: i32): u32 {
  const r = p & 0xff;
  const g = (p >>> 8) & 0xff;
  const b = (p >>> 16) & 0xff;
  const a = p >>> 24;
  let v =
    formula == GREY_ZBAR
      ? (19595 * r + 38469 * g + 7472 * b) >> 16
      : formula == GREY_ZXING
        ? (306 * r + 601 * g + 117 * b + 512) >> 10
        : (77 * r + 150 * g + 29 * b) >> 8;
  // Rounded half up, as Math.round((v·a + 255·(255 − a)) / 255).
  if (a != 255) v = (2 * (v * a + 255 * (255 - a)) + 255) / 510;
  return v;
}

/** A box's row of blocks from its column sums, which it then clears. */
function writeBlocks(sums: usize, width: i32, f: i32, invert: bool, out: usize): void {
  const area = <u32>(f * f);
  const w = width / f;
  let ox = f == 3 ? writeThrees(sums, w, invert, out) : 0;
  for (; ox < w; ox++) {
    const c = sums + (<usize>(ox * f) << 1);
    let s: u32 = 0;
    for (let i = 0; i < f; i++) s += <u32>load<u16>(c + (<usize>i << 1));
    store<u8>(out + <usize>ox, <u8>(((invert ? 255 * area - s : s) + (area >> 1)) / area));
  }
  memory.fill(sums, 0, <usize>((width + 15) & ~15) << 1);
}

/**
 * The blocks of a box of factor 3 (zxing's pyramid: plan.ts), eight at a time from 24 column sums: each
 * block's three columns gathered into three vectors by shuffles and added, its mean (sum + 4) / 9 as
 * (n × 7282) >> 16, exact for every n up to 9 × 255 + 4. Returns how many of the `w` blocks it wrote.
 */
// @ts-ignore: decorator
@inline function writeThrees(sums: usize, w: i32, invert: bool, out: usize): i32 {
  let ox = 0;
  for (; ox + 8 <= w; ox += 8) {
    const c = sums + (<usize>(ox * 3) << 1);
    const a = v128.load(c);
    const b = v128.load(c, 16);
    const d = v128.load(c, 32);
    // Column 3i + j of block i, for j = 0, 1, 2: lanes of a (columns 0–7), b (8–15) and d (16–23).
    const first = i8x16.shuffle(i8x16.shuffle(a, b, 0, 1, 6, 7, 12, 13, 18, 19, 24, 25, 30, 31, 0, 1, 0, 1), d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20, 21, 26, 27);
    const second = i8x16.shuffle(i8x16.shuffle(a, b, 2, 3, 8, 9, 14, 15, 20, 21, 26, 27, 0, 1, 0, 1, 0, 1), d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 22, 23, 28, 29);
    const third = i8x16.shuffle(i8x16.shuffle(a, b, 4, 5, 10, 11, 16, 17, 22, 23, 28, 29, 0, 1, 0, 1, 0, 1), d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 18, 19, 24, 25, 30, 31);
    let sum = i16x8.add(first, i16x8.add(second, third));
    if (invert) sum = i16x8.sub(i16x8.splat(9 * 255), sum);
    const n = i16x8.add(sum, i16x8.splat(4));
    const magic = i32x4.splat(7282);
    const lo = i32x4.shr_u(i32x4.mul(i32x4.extend_low_i16x8_u(n), magic), 16);
    const hi = i32x4.shr_u(i32x4.mul(i32x4.extend_high_i16x8_u(n), magic), 16);
    const means = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(lo, hi), i16x8.splat(0));
    store<u64>(out + <usize>ox, i64x2.extract_lane(means, 0));
  }
  return ox;
}

/**
 * Whether every pixel of the rectangle [x0, x1) × [y0, y1), except the symbol [sx0, sx1) × [sy0, sy1),
 * sits on the background's side of `mid`: above it on a light background (`light`), below on a dark one.
 */
export function quietZoneClear(grey: usize, width: i32, x0: i32, y0: i32, x1: i32, y1: i32, sx0: i32, sy0: i32, sx1: i32, sy1: i32, mid: f64, light: bool): bool {
  // Grey levels are whole: v ≤ mid is v ≤ ⌊mid⌋, v ≥ mid is v ≥ ⌈mid⌉.
  const edge = <u32>(light ? floor(mid) : ceil(mid));
  for (let y = y0; y < y1; y++) {
    const row = grey + <usize>(y * width);
    if (y >= sy0 && y < sy1) {
      if (!segmentClear(row, x0, min(sx0, x1), edge, light) || !segmentClear(row, max(sx1, x0), x1, edge, light)) return false;
    } else if (!segmentClear(row, x0, x1, edge, light)) return false;
  }
  return true;
}

/** Whether no pixel of [from, to) is on the foreground's side of `edge`: sixteen at a time. */
function segmentClear(row: usize, from: i32, to: i32, edge: u32, light: bool): bool {
  const e = i8x16.splat(<i8>edge);
  let x = from;
  for (; x + 16 <= to; x += 16) {
    const v = v128.load(row + <usize>x);
    const fails = light ? i8x16.le_u(v, e) : i8x16.ge_u(v, e);
    if (v128.any_true(fails)) return false;
  }
  for (; x < to; x++) {
    const v = <u32>load<u8>(row + <usize>x);
    if (light ? v <= edge : v >= edge) return false;
  }
  return true;
}

/**
 * A 3×3 box blur of a grey image (a slightly out-of-focus camera), the window clipped at the edges,
 * and/or its contrast halved around mid-grey (dim light or a glossy print), into `out`. The blur is
 * separable: row sums first (into `rows`, u16), then three of them per pixel.
 */
export function blurDim(src: usize, w: i32, h: i32, blurred: bool, dimmed: bool, rows: usize, out: usize): void {
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = <usize>(y * w + x);
      let v: u32 = load<u8>(src + i);
      if (blurred) {
        if (x > 0) v += load<u8>(src + i - 1);
        if (x < w - 1) v += load<u8>(src + i + 1);
      }
      store<u16>(rows + (i << 1), <u16>v);
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let v = <u32>load<u16>(rows + (<usize>i << 1));
      if (blurred) {
        const nx: u32 = 1 + (x > 0 ? 1 : 0) + (x < w - 1 ? 1 : 0);
        const ny: u32 = 1 + (y > 0 ? 1 : 0) + (y < h - 1 ? 1 : 0);
        if (y > 0) v += <u32>load<u16>(rows + (<usize>(i - w) << 1));
        if (y < h - 1) v += <u32>load<u16>(rows + (<usize>(i + w) << 1));
        // Rounded half up, as Math.round(v / n).
        const n = nx * ny;
        v = (2 * v + n) / (2 * n);
      }
      if (dimmed) v = 64 + (v >> 1);
      store<u8>(out + <usize>i, <u8>v);
    }
  }
}
