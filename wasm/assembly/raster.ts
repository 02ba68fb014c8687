// The scene rasterizer's pixel kernel, compiled to WASM by AssemblyScript (`npm run build`).
//
// It works on raw linear memory laid out by its JS side (src/render/canvas.ts): a premultiplied RGBA
// canvas, a coverage accumulation buffer, edge lists, gradient tables and image pixels. Nothing here
// allocates, so the module needs no runtime.
//
// Coverage is exact signed area (the accumulation method of font-rs and of stb_truetype's v2
// rasterizer): each edge adds, to the cells it crosses, the area it sweeps to its right; a running sum
// along a row then gives each pixel's coverage. Contours of opposite winding cancel (holes), and
// overlapping contours of the same winding saturate at full coverage, as SVG's nonzero rule wants.

/** Rounded x / 255 for x in 0..65025. */
// @ts-ignore: decorator
@inline function div255(x: u32): u32 {
  x += 128;
  return (x + (x >> 8)) >> 8;
}

// @ts-ignore: decorator
@inline function clampf(v: f64, lo: f64, hi: f64): f64 {
  return min(max(v, lo), hi);
}

/**
 * Adds `n` line edges (x0, y0, x1, y1 as f32, in pixels) to the accumulation buffer `acc`, which has
 * `stride` = width + 2 cells per row and `height` rows. Edges outside the canvas vertically are clipped;
 * horizontally they are clamped to [0, width], which keeps every pixel's coverage exact except in the
 * one column an edge leaves the canvas by.
 */
export function accumulate(edges: usize, n: i32, acc: usize, width: i32, height: i32): void {
  const stride = width + 2;
  const w = <f64>width;
  const h = <f64>height;
  for (let e = 0; e < n; e++) {
    const p = edges + (<usize>e << 4);
    let x0 = <f64>load<f32>(p);
    let y0 = <f64>load<f32>(p, 4);
    let x1 = <f64>load<f32>(p, 8);
    let y1 = <f64>load<f32>(p, 12);
    if (y0 == y1) continue;
    let dir: f64 = 1;
    if (y0 > y1) {
      dir = -1;
      let t = x0; x0 = x1; x1 = t;
      t = y0; y0 = y1; y1 = t;
    }
    if (y1 <= 0 || y0 >= h) continue;
    const dxdy = (x1 - x0) / (y1 - y0);
    let x = x0;
    if (y0 < 0) {
      x -= y0 * dxdy;
      y0 = 0;
    }
    const yEnd = min(y1, h);
    for (let y = <i32>floor(y0); <f64>y < yEnd; y++) {
      const fy = <f64>y;
      const dy = min(fy + 1, yEnd) - max(fy, y0);
      const xNext = x + dxdy * dy;
      const d = dy * dir;
      const row = acc + ((<usize>y * <usize>stride) << 2);
      const xa = clampf(min(x, xNext), 0, w);
      const xb = clampf(max(x, xNext), 0, w);
      const xaFloor = floor(xa);
      const ia = <i32>xaFloor;
      const ib = <i32>ceil(xb);
      if (ib <= ia + 1) {
        // The edge stays within one pixel column on this row.
        const xm = (xa + xb) * 0.5 - xaFloor;
        const c = row + (<usize>ia << 2);
        store<f32>(c, <f32>(<f64>load<f32>(c) + d - d * xm));
        store<f32>(c, <f32>(<f64>load<f32>(c, 4) + d * xm), 4);
      } else {
        const s = 1 / (xb - xa);
        const fa = xa - xaFloor;
        const a0 = 0.5 * s * (1 - fa) * (1 - fa);
        const fb = xb - <f64>ib + 1;
        const am = 0.5 * s * fb * fb;
        const c = row + (<usize>ia << 2);
        store<f32>(c, <f32>(<f64>load<f32>(c) + d * a0));
        if (ib == ia + 2) {
          store<f32>(c, <f32>(<f64>load<f32>(c, 4) + d * (1 - a0 - am)), 4);
        } else {
          const a1 = s * (1.5 - fa);
          store<f32>(c, <f32>(<f64>load<f32>(c, 4) + d * (a1 - a0)), 4);
          for (let i = ia + 2; i < ib - 1; i++) {
            const ci = row + (<usize>i << 2);
            store<f32>(ci, <f32>(<f64>load<f32>(ci) + d * s));
          }
          const a2 = a1 + <f64>(ib - ia - 3) * s;
          const cl = row + (<usize>(ib - 1) << 2);
          store<f32>(cl, <f32>(<f64>load<f32>(cl) + d * (1 - a2 - am)));
        }
        const ce = row + (<usize>ib << 2);
        store<f32>(ce, <f32>(<f64>load<f32>(ce) + d * am));
      }
      x = xNext;
    }
  }
}

/**
 * Adds `n` patches of accumulated cells to `acc`: a shape accumulated once (src/render/canvas.ts, patchOf)
 * and placed again, whole pixels away, adds the same cells there. Each patch is three i32 at `patches`:
 * where its cells are (each an i32 cell offset and an f32 value), how many, and the cell they count from.
 */
export function addPatches(acc: usize, patches: usize, n: i32): void {
  for (let k = 0; k < n; k++) {
    const p = patches + <usize>(k * 12);
    const cells = <usize>load<u32>(p);
    const count = load<i32>(p, 4);
    const base = acc + (<usize>load<i32>(p, 8) << 2);
    for (let i = 0; i < count; i++) {
      const cell = cells + (<usize>i << 3);
      const at = base + (<usize>load<i32>(cell) << 2);
      store<f32>(at, load<f32>(at) + load<f32>(cell, 4));
    }
  }
}

/** Source-over of one premultiplied colour at coverage `cov` (0–255) onto the canvas pixel at `px`. */
// @ts-ignore: decorator
@inline function blend(px: usize, color: u32, cov: u32): void {
  const sa = color >>> 24;
  if (cov == 255 && sa == 255) {
    store<u32>(px, color);
    return;
  }
  const a = div255(sa * cov);
  if (a == 0 && (color & 0xffffff) == 0) return;
  const inv = 255 - a;
  const dst = load<u32>(px);
  const r = div255((color & 0xff) * cov) + div255((dst & 0xff) * inv);
  const g = div255(((color >>> 8) & 0xff) * cov) + div255(((dst >>> 8) & 0xff) * inv);
  const b = div255(((color >>> 16) & 0xff) * cov) + div255(((dst >>> 16) & 0xff) * inv);
  const al = a + div255((dst >>> 24) * inv);
  store<u32>(px, min(r, 255) | (min(g, 255) << 8) | (min(b, 255) << 16) | (min(al, 255) << 24));
}

export const PAINT_SOLID = 0;
export const PAINT_LINEAR = 1;
export const PAINT_RADIAL = 2;
/**
 * Coverage as a level, 0 (the background) to 255 (the foreground), on a canvas of one byte per pixel: a
 * scene of one opaque colour over another needs no more (src/render/canvas.ts, levels), a quarter of the
 * bytes to draw, and its writers index it as it is instead of hashing RGBA back into a palette.
 */
export const PAINT_LEVEL = 3;

/** Bytes per canvas pixel, as a shift, for a paint of `kind`. */
// @ts-ignore: decorator
@inline function pixelShift(kind: i32): usize {
  return kind == PAINT_LEVEL ? 0 : 2;
}
/** Entries in a gradient table: four per step of an 8-bit channel, so neighbours differ by at most one level. */
export const LUT_SIZE = 1024;

/**
 * Turns the accumulated coverage of rows [y0, y1) and cells [x0, x1) into paint on the canvas and
 * clears those cells for the next layer; x1 may reach width + 1, the cell an edge at the right border
 * writes to. The paint is a level (PAINT_LEVEL, on a canvas of a byte per pixel), a solid premultiplied
 * colour (`color`), or a
 * gradient table at `lut` indexed by t = a·x + b·y + c (linear) or t = |(x, y) − (a, b)| · c (radial),
 * x and y being pixel centres, t clamped to 0–1 (SVG's pad spread).
 */
export function fill(
  acc: usize, canvas: usize, width: i32,
  x0: i32, y0: i32, x1: i32, y1: i32,
  kind: i32, color: u32, lut: usize, a: f64, b: f64, c: f64,
): void {
  const stride = width + 2;
  const xEnd = min(x1, width);
  const shift = pixelShift(kind);
  for (let y = y0; y < y1; y++) {
    const row = acc + ((<usize>y * <usize>stride) << 2);
    const out = canvas + ((<usize>y * <usize>width) << shift);
    let sum: f64 = 0;
    let x = x0;
    while (x < xEnd) {
      // A cell holding nothing leaves the coverage as it was: walk the run of empty cells that follows
      // this pixel and paint it as one span. Inside a shape, and between shapes, nearly every cell is
      // empty, so most pixels cost one load.
      const cell = row + (<usize>x << 2);
      const v = load<f32>(cell);
      if (v != 0) {
        sum += <f64>v;
        store<f32>(cell, 0);
      }
      // Cleared cells hold +0; four at a time, then one by one.
      let end = x + 1;
      while (end + 4 <= xEnd && !v128.any_true(v128.load(row + (<usize>end << 2)))) end += 4;
      while (end < xEnd && load<u32>(row + (<usize>end << 2)) == 0) end++;
      const cov = coverage(sum);
      if (cov != 0) span(out, x, end, y, cov, kind, color, lut, a, b, c);
      x = end;
    }
    // The cell past the last pixel column can hold what an edge on the right border left.
    for (let k = xEnd; k < x1; k++) store<f32>(row + (<usize>k << 2), 0);
  }
}

/** A pixel's coverage, 0–255, from the accumulated signed area up to it: nonzero, saturating. */
// @ts-ignore: decorator
@inline function coverage(sum: f64): u32 {
  return <u32>(min(abs(sum), 1) * 255 + 0.5);
}

/**
 * Turns a tile's accumulated cells (`width` + 2 a row, `height` rows, as accumulate leaves them) into its
 * pixels' coverage, a byte each, row by row into `out`, as fill reads them; the cells are cleared.
 */
export function coverageTile(acc: usize, width: i32, height: i32, out: usize): void {
  const stride = width + 2;
  for (let y = 0; y < height; y++) {
    const row = acc + ((<usize>y * <usize>stride) << 2);
    let sum: f64 = 0;
    for (let x = 0; x < width; x++) {
      const cell = row + (<usize>x << 2);
      sum += <f64>load<f32>(cell);
      store<f32>(cell, 0);
      store<u8>(out + <usize>(y * width + x), <u8>coverage(sum));
    }
    store<f32>(row + (<usize>width << 2), 0);
    store<f32>(row + (<usize>(width + 1) << 2), 0);
  }
}

/**
 * Paints `n` coverage tiles onto the canvas with one paint, as fill paints (its `kind` to `c`). Each tile
 * is four i32 at `tiles`: where its runs are, how many, and the canvas pixel of its top-left corner; a run
 * is four i32, its row, first and last pixel + 1 in the tile, and its coverage (coverageTile's, in runs of
 * one value, zero left out). The tiles must share no pixel (then each pixel's coverage is its tile's alone,
 * as fill would sum it) and lie inside the canvas.
 */
export function paintTiles(
  canvas: usize, width: i32, tiles: usize, n: i32,
  kind: i32, color: u32, lut: usize, a: f64, b: f64, c: f64,
): void {
  const shift = pixelShift(kind);
  for (let k = 0; k < n; k++) {
    const t = tiles + <usize>(k << 4);
    const runs = <usize>load<u32>(t);
    const count = load<i32>(t, 4);
    const x0 = load<i32>(t, 8);
    const y0 = load<i32>(t, 12);
    for (let i = 0; i < count; i++) {
      const run = runs + <usize>(i << 4);
      const y = y0 + load<i32>(run);
      const out = canvas + ((<usize>y * <usize>width) << shift);
      span(out, x0 + load<i32>(run, 4), x0 + load<i32>(run, 8), y, load<u32>(run, 12), kind, color, lut, a, b, c);
    }
  }
}

/** Paints pixels [x0, x1) of one canvas row at one coverage. */
// @ts-ignore: decorator
@inline function span(out: usize, x0: i32, x1: i32, y: i32, cov: u32, kind: i32, color: u32, lut: usize, a: f64, b: f64, c: f64): void {
  if (kind == PAINT_LEVEL) {
    // Source-over of the foreground at `cov` onto level L: cov + L·(255 − cov)/255, at most 255.
    if (cov == 255) memory.fill(out + <usize>x0, 255, <usize>(x1 - x0));
    else for (let x = x0; x < x1; x++) {
      const p = out + <usize>x;
      store<u8>(p, <u8>(cov + div255(<u32>load<u8>(p) * (255 - cov))));
    }
    return;
  }
  if (kind == PAINT_SOLID) {
    if (cov == 255 && color >>> 24 == 255) {
      const four = i32x4.splat(color);
      let x = x0;
      for (; x + 4 <= x1; x += 4) v128.store(out + (<usize>x << 2), four);
      for (; x < x1; x++) store<u32>(out + (<usize>x << 2), color);
    } else {
      for (let x = x0; x < x1; x++) blend(out + (<usize>x << 2), color, cov);
    }
    return;
  }
  const last = LUT_SIZE - 1;
  const scale = <f64>last;
  const fy = <f64>y + 0.5;
  if (kind == PAINT_LINEAR) {
    // t is linear along the row: step it rather than recompute it, in table units.
    let t = (a * (<f64>x0 + 0.5) + b * fy + c) * scale + 0.5;
    const dt = a * scale;
    let x = x0;
    if (cov == 255 && x + 4 <= x1) {
      // Inside a shape, four pixels at a time: their table indices at once, and the four colours stored
      // whole when they are opaque (as blend stores one at full coverage).
      let lo = f64x2(t, t + dt);
      let hi = f64x2(t + 2 * dt, t + 3 * dt);
      const four = f64x2.splat(4 * dt);
      const top = i32x4.splat(last);
      const zero = i32x4.splat(0);
      const alpha = i32x4.splat(0xff000000);
      for (; x + 4 <= x1; x += 4) {
        const k = i32x4.min_s(i32x4.max_s(i8x16.shuffle(
          i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(lo)),
          i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(hi)),
          0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23,
        ), zero), top);
        let v = i32x4.splat(load<u32>(lut + (<usize>i32x4.extract_lane(k, 0) << 2)));
        v = i32x4.replace_lane(v, 1, load<u32>(lut + (<usize>i32x4.extract_lane(k, 1) << 2)));
        v = i32x4.replace_lane(v, 2, load<u32>(lut + (<usize>i32x4.extract_lane(k, 2) << 2)));
        v = i32x4.replace_lane(v, 3, load<u32>(lut + (<usize>i32x4.extract_lane(k, 3) << 2)));
        const p = out + (<usize>x << 2);
        if (i32x4.all_true(i32x4.eq(v128.and(v, alpha), alpha))) v128.store(p, v);
        else {
          blend(p, <u32>i32x4.extract_lane(v, 0), cov);
          blend(p + 4, <u32>i32x4.extract_lane(v, 1), cov);
          blend(p + 8, <u32>i32x4.extract_lane(v, 2), cov);
          blend(p + 12, <u32>i32x4.extract_lane(v, 3), cov);
        }
        lo = f64x2.add(lo, four);
        hi = f64x2.add(hi, four);
      }
      t = f64x2.extract_lane(lo, 0);
    }
    for (; x < x1; x++) {
      const i = <i32>floor(t);
      const k = i < 0 ? 0 : i > last ? last : i;
      blend(out + (<usize>x << 2), load<u32>(lut + (<usize>k << 2)), cov);
      t += dt;
    }
    return;
  }
  const dy = fy - b;
  for (let x = x0; x < x1; x++) {
    const dx = <f64>x + 0.5 - a;
    const i = <i32>(sqrt(dx * dx + dy * dy) * c * scale + 0.5);
    const k = i > last ? last : i;
    blend(out + (<usize>x << 2), load<u32>(lut + (<usize>k << 2)), cov);
  }
}

/** Fills `n` pixels of the canvas with one premultiplied colour. */
export function clear(canvas: usize, n: i32, color: u32): void {
  const four = i32x4.splat(color);
  let i = 0;
  for (; i + 4 <= n; i += 4) v128.store(canvas + (<usize>i << 2), four);
  for (; i < n; i++) store<u32>(canvas + (<usize>i << 2), color);
}

/** Straight RGBA pixels to premultiplied, in place. */
export function premultiply(pixels: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    const p = pixels + (<usize>i << 2);
    const v = load<u32>(p);
    const a = v >>> 24;
    if (a == 255) continue;
    store<u32>(p, div255((v & 0xff) * a) | (div255(((v >>> 8) & 0xff) * a) << 8) | (div255(((v >>> 16) & 0xff) * a) << 16) | (a << 24));
  }
}

/**
 * Premultiplied pixels back to straight RGBA, in place: the form PNG and the codecs store. A wholly
 * transparent pixel has no colour left; it takes `under` (0x00BBGGRR, alpha 0), the background's own
 * colour, so that a reader ignoring alpha sees the code on its background rather than on black.
 */
export function unpremultiply(pixels: usize, n: i32, under: u32): void {
  for (let i = 0; i < n; i++) {
    const p = pixels + (<usize>i << 2);
    const v = load<u32>(p);
    const a = v >>> 24;
    if (a == 255) continue;
    if (a == 0) {
      store<u32>(p, under & 0xffffff);
      continue;
    }
    const half = a >> 1;
    const r = min(((v & 0xff) * 255 + half) / a, 255);
    const g = min((((v >>> 8) & 0xff) * 255 + half) / a, 255);
    const b = min((((v >>> 16) & 0xff) * 255 + half) / a, 255);
    store<u32>(p, r | (g << 8) | (b << 16) | (a << 24));
  }
}

/** A premultiplied source pixel, its coordinates clamped to the image (edge pixels extend outwards). */
// @ts-ignore: decorator
@inline function texel(src: usize, sw: i32, sh: i32, x: i32, y: i32): u32 {
  const cx = min(max(x, 0), sw - 1);
  const cy = min(max(y, 0), sh - 1);
  return load<u32>(src + ((<usize>cy * <usize>sw + <usize>cx) << 2));
}

// @ts-ignore: decorator
@inline function lerp4(p: u32, q: u32, t: u32): u32 {
  // Each channel of p and q mixed as p + (q − p)·t/256, four at once on two lanes of 16 bits.
  const rb = (((p & 0x00ff00ff) * (256 - t) + (q & 0x00ff00ff) * t) >>> 8) & 0x00ff00ff;
  const ga = ((((p >>> 8) & 0x00ff00ff) * (256 - t) + ((q >>> 8) & 0x00ff00ff) * t) >>> 8) & 0x00ff00ff;
  return rb | (ga << 8);
}

/**
 * Draws a premultiplied image `src` (sw × sh) stretched over the box (bx, by, bw, bh) in pixels, sampled
 * bilinearly at pixel centres, at `opacity` (0–255). Pixels the box only partly covers get that share.
 */
export function drawImage(src: usize, sw: i32, sh: i32, canvas: usize, width: i32, height: i32, bx: f64, by: f64, bw: f64, bh: f64, opacity: u32): void {
  const px0 = max(<i32>floor(bx), 0);
  const py0 = max(<i32>floor(by), 0);
  const px1 = min(<i32>ceil(bx + bw), width);
  const py1 = min(<i32>ceil(by + bh), height);
  const kx = <f64>sw / bw;
  const ky = <f64>sh / bh;
  for (let y = py0; y < py1; y++) {
    const fy = <f64>y;
    const covY = min(fy + 1, by + bh) - max(fy, by);
    const v = (fy + 0.5 - by) * ky - 0.5;
    const vf = floor(v);
    const iy = <i32>vf;
    const ty = <u32>((v - vf) * 256);
    const out = canvas + ((<usize>y * <usize>width) << 2);
    for (let x = px0; x < px1; x++) {
      const fx = <f64>x;
      const covX = min(fx + 1, bx + bw) - max(fx, bx);
      const cov = <u32>(covX * covY * <f64>opacity + 0.5);
      if (cov == 0) continue;
      const u = (fx + 0.5 - bx) * kx - 0.5;
      const uf = floor(u);
      const ix = <i32>uf;
      const tx = <u32>((u - uf) * 256);
      const top = lerp4(texel(src, sw, sh, ix, iy), texel(src, sw, sh, ix + 1, iy), tx);
      const bottom = lerp4(texel(src, sw, sh, ix, iy + 1), texel(src, sw, sh, ix + 1, iy + 1), tx);
      blend(out + (<usize>x << 2), lerp4(top, bottom, ty), cov);
    }
  }
}
