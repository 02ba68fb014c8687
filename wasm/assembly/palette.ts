// The palette of a raster, for the writers that store one (src/render/palette.ts: PNG, lossless WebP):
// an RGBA raster's colours, or the levels a level raster uses (markUsed, remapIndices). In JavaScript a
// Map lookup per colour change over 640,000 pixels cost several milliseconds on an anti-aliased 800 px code
// (docs/design-decisions.md, "The palette finder in the kernel"); here a colour change costs a hash probe
// and a run of one colour is indexed sixteen pixels at a time. Like the other modules it works on memory
// laid out by its JS side and allocates nothing.

import { foregroundLanes, onlyBackgroundOrForeground } from './levels';

/** Hash slots for the colours seen: 4 × the 256 a palette holds, so probes stay short. */
const SLOTS: i32 = 1024;
/** Bytes of scratch `paletteIndex` needs at `table`: each slot's colour (u32), then its index + 1 (u16, 0 empty). */
export const PALETTE_TABLE_BYTES: i32 = SLOTS * 6;

/** The slot of colour `c`, found or claimed (its index + 1 stored, and the colour appended to the palette); -1 when a 257th colour arrives. */
@inline
function indexOf(c: u32, table: usize, palette: usize, count: i32): i32 {
  let slot = <i32>((c * 0x9e3779b1) >> 22);
  while (true) {
    const mark = table + (<usize>SLOTS << 2) + (<usize>slot << 1);
    const k = <i32>load<u16>(mark);
    if (k == 0) {
      if (count == 256) return -1;
      store<u32>(table + (<usize>slot << 2), c);
      store<u16>(mark, <u16>(count + 1));
      store<u32>(palette + (<usize>count << 2), c);
      return count;
    }
    if (load<u32>(table + (<usize>slot << 2)) == c) return k - 1;
    slot = (slot + 1) & (SLOTS - 1);
  }
}

/**
 * Indexes `width` RGBA pixels at `p` through the hash table (`count` colours so far), writing each index
 * to `o` when `write`: four pixels of one colour at a time, sixteen in a run of one colour. Returns how many
 * colours there are then, or -1 at a 257th.
 */
// @ts-ignore: decorator
@inline function indexRow(p: usize, o: usize, width: i32, table: usize, palette: usize, count: i32, write: bool): i32 {
  const end = p + (<usize>width << 2);
  let last = load<u32>(p);
  let k = indexOf(last, table, palette, count);
  if (k < 0) return -1;
  if (k == count) count++;
  let run = i32x4.splat(last);
  let fill = i8x16.splat(<i8>k);
  while (p < end) {
    // Sixteen, else four pixels of the current colour at once; at a change, one pixel through the hash.
    if (p + 64 <= end) {
      const same = v128.and(
        v128.and(i32x4.eq(v128.load(p), run), i32x4.eq(v128.load(p, 16), run)),
        v128.and(i32x4.eq(v128.load(p, 32), run), i32x4.eq(v128.load(p, 48), run)),
      );
      if (i32x4.all_true(same)) {
        if (write) v128.store(o, fill);
        p += 64;
        o += 16;
        continue;
      }
    }
    if (p + 16 <= end && i32x4.all_true(i32x4.eq(v128.load(p), run))) {
      if (write) store<u32>(o, <u32>k * 0x01010101);
      p += 16;
      o += 4;
      continue;
    }
    const c = load<u32>(p);
    if (c != last) {
      k = indexOf(c, table, palette, count);
      if (k < 0) return -1;
      if (k == count) count++;
      last = c;
      run = i32x4.splat(c);
      fill = i8x16.splat(<i8>k);
    }
    if (write) store<u8>(o, <u8>k);
    p += 4;
    o++;
  }
  return count;
}

/**
 * Indexes `width`×`height` RGBA pixels at `src` when they hold at most 256 distinct colours: row y's
 * indices go to `out + y × stride + (stride − width)`, a leading byte per row (the PNG writer's filter
 * byte) set to 0, and the colours, as RGBA words in the order first met, to `palette` (256 u32). Returns
 * how many colours, or -1 at a 257th. `table` is PALETTE_TABLE_BYTES of scratch.
 *
 * Every `probe`th row, from the middle of the first `probe`, is read first: an anti-aliased gradient
 * shows its 257th colour within a few of those rows, where reading from the top first crosses the quiet
 * zone and meets it only 75,000 pixels in (docs/design-decisions.md, "The palette finder in the kernel"). Its
 * colours are then first met there.
 */
export function paletteIndex(src: usize, width: i32, height: i32, out: usize, stride: i32, palette: usize, table: usize, probe: i32): i32 {
  memory.fill(table + (<usize>SLOTS << 2), 0, <usize>SLOTS << 1);
  let count = 0;
  for (let y = probe >> 1; y < height; y += probe) {
    count = indexRow(src + (<usize>(y * width) << 2), 0, width, table, palette, count, false);
    if (count < 0) return -1;
  }
  const lead = stride - width;
  for (let y = 0; y < height; y++) {
    const o = out + <usize>(y * stride);
    if (lead > 0) memory.fill(o, 0, <usize>lead);
    count = indexRow(src + (<usize>(y * width) << 2), o + <usize>lead, width, table, palette, count, true);
    if (count < 0) return -1;
  }
  return count;
}

/**
 * Packs PNG scanlines of 8-bit indices (`width` + 1 bytes a row, filter byte first) in place to `bitDepth`
 * (1, 2 or 4) bits per index, most significant first, the last byte of a row padded with zeros: row y
 * then starts at y × (⌈width × bitDepth / 8⌉ + 1). In place works because a packed row never starts after
 * the unpacked row it is made from.
 */
export function packIndices(lines: usize, width: i32, height: i32, bitDepth: i32): void {
  const perByte = 8 / bitDepth;
  const stride = (width + perByte - 1) / perByte + 1;
  for (let y = 0; y < height; y++) {
    let src = lines + <usize>(y * (width + 1)) + 1;
    const end = src + <usize>width;
    const o = lines + <usize>(y * stride);
    store<u8>(o, 0);
    for (let i = 1; i < stride; i++) {
      let byte: u32 = 0;
      for (let b = 0; b < perByte; b++) byte = (byte << <u32>bitDepth) | (src < end ? <u32>load<u8>(src++) : 0);
      store<u8>(o + <usize>i, <u8>byte);
    }
  }
}

/**
 * Marks at `used` (256 bytes, zero at the start) every index among the `n` bytes at `src` with 1: sixteen
 * at a time where they are all 0 or 255, as most of a drawn code's levels are (background and foreground:
 * src/render/canvas.ts), one by one elsewhere.
 */
export function markUsed(src: usize, n: i32, used: usize): void {
  let i = 0;
  for (; i + 16 <= n; i += 16) {
    const v = v128.load(src + <usize>i);
    const fg = foregroundLanes(v);
    if (onlyBackgroundOrForeground(v, fg)) {
      if (!i8x16.all_true(fg)) store<u8>(used, 1);
      if (v128.any_true(fg)) store<u8>(used + 255, 1);
    } else for (let j = 0; j < 16; j++) store<u8>(used + <usize>load<u8>(src + <usize>(i + j)), 1);
  }
  for (; i < n; i++) store<u8>(used + <usize>load<u8>(src + <usize>i), 1);
}

/**
 * Rewrites `width`×`height` indices at `src` through `map` (256 bytes) into rows laid out as paletteIndex
 * lays them: row y at `out + y × stride + (stride − width)`, the bytes before it zero. Sixteen at a time
 * where they are all 0 or 255 (markUsed).
 */
export function remapIndices(src: usize, width: i32, height: i32, map: usize, out: usize, stride: i32): void {
  const lead = stride - width;
  const to0 = i8x16.splat(load<i8>(map));
  const to255 = i8x16.splat(load<i8>(map + 255));
  for (let y = 0; y < height; y++) {
    const p = src + <usize>(y * width);
    const o = out + <usize>(y * stride);
    if (lead > 0) memory.fill(o, 0, <usize>lead);
    const q = o + <usize>lead;
    let x = 0;
    for (; x + 16 <= width; x += 16) {
      const v = v128.load(p + <usize>x);
      const fg = foregroundLanes(v);
      if (onlyBackgroundOrForeground(v, fg)) v128.store(q + <usize>x, v128.bitselect(to255, to0, fg));
      else for (let j = 0; j < 16; j++) store<u8>(q + <usize>(x + j), load<u8>(map + <usize>load<u8>(p + <usize>(x + j))));
    }
    for (; x < width; x++) store<u8>(q + <usize>x, load<u8>(map + <usize>load<u8>(p + <usize>x)));
  }
}
