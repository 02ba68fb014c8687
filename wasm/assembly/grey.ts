// The verifier's read of a raster (src/render/verify.ts): grey levels as a decoder computes them, and
// box-filtered reductions as zxing's pyramid makes them, in one pass. Like raster.ts, it works on memory
// laid out by its JS side and allocates nothing.

/** Bytes per box description: factor, invert (0/1), output pointer, column-sums pointer, as i32. */
export const BOX_BYTES = 16;

/**
 * Reads a raster once. Each pixel becomes a grey level (stored at `grey`) by the formula of the reader
 * that will see it: stb_image's (77R + 150G + 29B) >> 8, with which zxing reads PNG and JPEG files, or
 * zxing's own (306R + 601G + 117B + 512) >> 10 for pixels it is handed (`zxing`); translucent pixels are
 * taken over white, as a viewer shows them. An indexed raster (`rgba` false) is read through `table`,
 * each palette entry's grey. Meanwhile each of the `nBoxes` box filters at `boxes` is filled from the
 * row's running sum (`run`, width + 1 u32), a block's row sum being two reads whatever its factor, and
 * written as RGBA (what zxing is handed), ⌊width / f⌋ × ⌊height / f⌋ pixels, each block's mean rounded as
 * zxing-cpp's pyramid rounds it, (sum + f²/2) / f² truncated; an inverted box reads 255 − grey, for
 * light-on-dark codes. Column sums must start at zero.
 */
export function scan(src: usize, rgba: bool, zxing: bool, table: usize, width: i32, height: i32, grey: usize, run: usize, boxes: usize, nBoxes: i32): void {
  store<u32>(run, 0);
  for (let y = 0; y < height; y++) {
    const rowStart = <usize>(y * width);
    let sum: u32 = 0;
    let x = 0;
    if (rgba) {
      // Four opaque pixels at a time; a group with any translucent pixel goes one by one below.
      const mask = i32x4.splat(0xff);
      const opaque = i32x4.splat(0xff);
      for (; x + 4 <= width; x += 4) {
        const i = rowStart + <usize>x;
        const p = v128.load(src + (i << 2));
        if (!i32x4.all_true(i32x4.eq(i32x4.shr_u(p, 24), opaque))) break;
        const r = v128.and(p, mask);
        const g = v128.and(i32x4.shr_u(p, 8), mask);
        const b = v128.and(i32x4.shr_u(p, 16), mask);
        const v = zxing
          ? i32x4.shr_u(i32x4.add(i32x4.add(i32x4.mul(r, i32x4.splat(306)), i32x4.mul(g, i32x4.splat(601))), i32x4.add(i32x4.mul(b, i32x4.splat(117)), i32x4.splat(512))), 10)
          : i32x4.shr_u(i32x4.add(i32x4.add(i32x4.mul(r, i32x4.splat(77)), i32x4.mul(g, i32x4.splat(150))), i32x4.mul(b, i32x4.splat(29))), 8);
        const v0 = <u32>i32x4.extract_lane(v, 0);
        const v1 = <u32>i32x4.extract_lane(v, 1);
        const v2 = <u32>i32x4.extract_lane(v, 2);
        const v3 = <u32>i32x4.extract_lane(v, 3);
        store<u32>(grey + i, v0 | (v1 << 8) | (v2 << 16) | (v3 << 24));
        const at = run + (<usize>(x + 1) << 2);
        store<u32>(at, sum += v0);
        store<u32>(at, sum += v1, 4);
        store<u32>(at, sum += v2, 8);
        store<u32>(at, sum += v3, 12);
      }
    }
    for (; x < width; x++) {
      const i = rowStart + <usize>x;
      let v: u32;
      if (rgba) {
        const p = load<u32>(src + (i << 2));
        const r = p & 0xff;
        const g = (p >>> 8) & 0xff;
        const b = (p >>> 16) & 0xff;
        const a = p >>> 24;
        v = zxing ? (306 * r + 601 * g + 117 * b + 512) >> 10 : (77 * r + 150 * g + 29 * b) >> 8;
        // Rounded half up, as Math.round((v·a + 255·(255 − a)) / 255).
        if (a != 255) v = (2 * (v * a + 255 * (255 - a)) + 255) / 510;
      } else v = load<u8>(table + <usize>load<u8>(src + i));
      store<u8>(grey + i, <u8>v);
      sum += v;
      store<u32>(run + (<usize>(x + 1) << 2), sum);
    }
    for (let k = 0; k < nBoxes; k++) {
      const spec = boxes + <usize>(k * BOX_BYTES);
      const f = load<i32>(spec);
      const w = width / f;
      const oy = y / f;
      if (oy >= height / f) continue;
      const sums = <usize>load<u32>(spec, 12);
      for (let ox = 0; ox < w; ox++) {
        const c = sums + (<usize>ox << 2);
        store<u32>(c, load<u32>(c) + load<u32>(run + (<usize>((ox + 1) * f) << 2)) - load<u32>(run + (<usize>(ox * f) << 2)));
      }
      if (y % f != f - 1) continue;
      const area = <u32>(f * f);
      const invert = load<i32>(spec, 4) != 0;
      const out = <usize>load<u32>(spec, 8) + (<usize>(oy * w) << 2);
      for (let ox = 0; ox < w; ox++) {
        const c = sums + (<usize>ox << 2);
        const s = load<u32>(c);
        const m = ((invert ? 255 * area - s : s) + (area >> 1)) / area;
        store<u32>(out + (<usize>ox << 2), m | (m << 8) | (m << 16) | 0xff000000);
        store<u32>(c, 0);
      }
    }
  }
}

/**
 * Whether every pixel of the rectangle [x0, x1) × [y0, y1), except the symbol [sx0, sx1) × [sy0, sy1),
 * sits on the background's side of `mid`: above it on a light background (`light`), below on a dark one.
 */
export function quietZoneClear(grey: usize, width: i32, x0: i32, y0: i32, x1: i32, y1: i32, sx0: i32, sy0: i32, sx1: i32, sy1: i32, mid: f64, light: bool): bool {
  // Grey levels are whole: v ≤ mid is v ≤ ⌊mid⌋, v ≥ mid is v ≥ ⌈mid⌉.
  const lo = <u32>floor(mid);
  const hi = <u32>ceil(mid);
  for (let y = y0; y < y1; y++) {
    const inner = y >= sy0 && y < sy1;
    const row = grey + <usize>(y * width);
    for (let x = x0; x < x1; x++) {
      if (inner && x == sx0) x = sx1;
      if (x >= x1) break;
      const v = <u32>load<u8>(row + <usize>x);
      if (light ? v <= lo : v >= hi) return false;
    }
  }
  return true;
}

/**
 * A 3×3 box blur of a grey RGBA image (a slightly out-of-focus camera), the window clipped at the edges,
 * and/or its contrast halved around mid-grey (dim light or a glossy print), into `out`. The blur is
 * separable: row sums first (into `rows`, u16), then three of them per pixel.
 */
export function blurDim(src: usize, w: i32, h: i32, blurred: bool, dimmed: bool, rows: usize, out: usize): void {
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let v: u32 = load<u8>(src + (<usize>i << 2));
      if (blurred) {
        if (x > 0) v += load<u8>(src + (<usize>(i - 1) << 2));
        if (x < w - 1) v += load<u8>(src + (<usize>(i + 1) << 2));
      }
      store<u16>(rows + (<usize>i << 1), <u16>v);
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
      store<u32>(out + (<usize>i << 2), v | (v << 8) | (v << 16) | 0xff000000);
    }
  }
}
