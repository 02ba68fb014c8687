// A baseline JPEG's entropy-coded data (ITU T.81, sequential DCT, Huffman) for the JPEG writer
// (src/render/formats/jpeg.ts), which writes the markers around it. Built for what this service draws:
// flat colour and anti-aliased shapes, where most 8×8 blocks are one colour and need no DCT at all, and
// fidelity at sharp edges matters more than the last bytes: no trellis quantisation, no progressive
// scans, no chroma subsampling (4:4:4), and one grey component when the image has no colour. Huffman
// tables are fitted to the image (two passes over the quantised blocks). Like the other kernel modules
// it allocates nothing: the caller lays out the work area (jpegWorkBytes) and the output (jpegOutputBytes).

const BLOCK: i32 = 64;

// The work area, from `work`: per component and block its 64 coefficients (i16, zigzag order), then per
// component and block the zigzag index of its last non-zero coefficient (u8), then the tables.
let blocksX: i32 = 0;
let blocksY: i32 = 0;
let components: i32 = 0;
let coefs: usize = 0;
let lasts: usize = 0;
let tables: usize = 0;

// Offsets in the tables area.
const RECIPROCALS: usize = 0; // 2 × 64 f32, natural order: 1 / (quantiser × AAN scale × 8)
const FREQ: usize = RECIPROCALS + 2 * 64 * 4; // 4 × 257 u32: DC luma, AC luma, DC chroma, AC chroma
const CODE: usize = FREQ + 4 * 257 * 4; // 4 × 256 u32: code << 8 | length
/** Per Huffman table, for the writer's DHT (jpegHuffman): 16 counts of codes by length (u8), then up to 256 symbols. */
export const JPEG_HUFFMAN_BYTES: i32 = 16 + 256;
const HUFFMAN: usize = CODE + 4 * 256 * 4;
const MERGED: usize = HUFFMAN + 4 * <usize>JPEG_HUFFMAN_BYTES; // 257 u32: counts merged while fitting a table
const SIZES: usize = MERGED + 257 * 4; // 257 i32: code sizes while fitting a table
const OTHERS: usize = SIZES + 257 * 4; // 257 i32
const COUNTS: usize = OTHERS + 257 * 4; // 33 i32
const SAMPLES: usize = COUNTS + 33 * 4; // 3 × 64 f32: a block's Y, Cb and Cr, then its DCT in place
const PALETTE: usize = SAMPLES + 3 * 64 * 4; // 256 u32: the palette as 0x00CrCbYY
const TABLES_BYTES: usize = PALETTE + 256 * 4;

/** Zigzag position → natural (row-major) index. */
// @ts-ignore: decorator
@inline export function natural(k: i32): i32 {
  return <i32>load<u8>(
    memory.data<u8>([
      0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
      28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
      54, 47, 55, 62, 63,
    ]) + <usize>k,
  );
}

/** Bytes of work area for a `width`×`height` image. */
export function jpegWorkBytes(width: i32, height: i32): i32 {
  const blocks = ((width + 7) >> 3) * ((height + 7) >> 3);
  return 3 * blocks * (BLOCK * 2 + 1) + <i32>TABLES_BYTES + 16;
}

// ---- Colour: straight RGBA over white, or palette indices, to Y, Cb, Cr (JFIF, as libjpeg's jccolor.c). ----

const FIX_SHIFT: i32 = 16;
const HALF: i32 = 1 << (FIX_SHIFT - 1);

/** The pixel over white, as 0x00BBGGRR. */
// @ts-ignore: decorator
@inline function overWhite(p: u32): u32 {
  const a = p >> 24;
  if (a == 255) return p & 0xffffff;
  const w = 255 * (255 - a) + 127;
  const r = ((p & 0xff) * a + w) / 255;
  const g = (((p >> 8) & 0xff) * a + w) / 255;
  const b = (((p >> 16) & 0xff) * a + w) / 255;
  return r | (g << 8) | (b << 16);
}

/** An opaque 0x00BBGGRR as 0x00CrCbYY. */
function ycc(c: u32): u32 {
  const r = <i32>(c & 0xff);
  const g = <i32>((c >> 8) & 0xff);
  const b = <i32>((c >> 16) & 0xff);
  const y = (19595 * r + 38470 * g + 7471 * b + HALF) >> FIX_SHIFT;
  const cb = (-11059 * r - 21709 * g + 32768 * b + (128 << FIX_SHIFT) + HALF - 1) >> FIX_SHIFT;
  const cr = (32768 * r - 27439 * g - 5329 * b + (128 << FIX_SHIFT) + HALF - 1) >> FIX_SHIFT;
  return <u32>y | (<u32>cb << 8) | (<u32>cr << 16);
}

// The source image, for the block readers below.
let source: usize = 0;
let isRgba: bool = false;
let imageWidth: i32 = 0;
let imageHeight: i32 = 0;
let lastPixel: u32 = 0;
let lastYcc: u32 = 0;

/** The pixel at (x, y) as 0x00CrCbYY, coordinates clamped to the image (the edge repeats into partial blocks). */
// @ts-ignore: decorator
@inline function yccAt(x: i32, y: i32): u32 {
  const i = min(y, imageHeight - 1) * imageWidth + min(x, imageWidth - 1);
  if (!isRgba) return load<u32>(tables + PALETTE + (<usize>load<u8>(source + <usize>i) << 2));
  const p = load<u32>(source + (<usize>i << 2));
  // Neighbouring pixels are nearly always the same colour.
  if (p != lastPixel) {
    lastPixel = p;
    lastYcc = ycc(overWhite(p));
  }
  return lastYcc;
}

/** Whether the 8×8 block at (x0, y0), wholly inside the image, is one source pixel value throughout. */
function uniformBlock(x0: i32, y0: i32): bool {
  if (isRgba) {
    const row = source + (<usize>(y0 * imageWidth + x0) << 2);
    const same = i32x4.splat(load<u32>(row));
    for (let r = 0; r < 8; r++) {
      const p = row + (<usize>(r * imageWidth) << 2);
      if (!i32x4.all_true(i32x4.eq(v128.load(p), same)) || !i32x4.all_true(i32x4.eq(v128.load(p, 16), same)))
        return false;
    }
    return true;
  }
  const row = source + <usize>(y0 * imageWidth + x0);
  const same = <u64>load<u8>(row) * 0x0101010101010101;
  for (let r = 0; r < 8; r++) if (load<u64>(row + <usize>(r * imageWidth)) != same) return false;
  return true;
}

// ---- Forward DCT (Arai, Agui and Nakajima's scaled float DCT, as libjpeg's jfdctflt.c) and quantisation. ----

/** One 8-point AAN DCT over `p`, `p + step`, …, in place; outputs scaled as the AAN algorithm leaves them. */
// @ts-ignore: decorator
@inline function dct8(p: usize, step: usize): void {
  const d0 = load<f32>(p);
  const d1 = load<f32>(p + step);
  const d2 = load<f32>(p + 2 * step);
  const d3 = load<f32>(p + 3 * step);
  const d4 = load<f32>(p + 4 * step);
  const d5 = load<f32>(p + 5 * step);
  const d6 = load<f32>(p + 6 * step);
  const d7 = load<f32>(p + 7 * step);
  const t0 = d0 + d7;
  const t7 = d0 - d7;
  const t1 = d1 + d6;
  const t6 = d1 - d6;
  const t2 = d2 + d5;
  const t5 = d2 - d5;
  const t3 = d3 + d4;
  const t4 = d3 - d4;
  // Even part.
  const e10 = t0 + t3;
  const e13 = t0 - t3;
  const e11 = t1 + t2;
  const e12 = t1 - t2;
  store<f32>(p, e10 + e11);
  store<f32>(p + 4 * step, e10 - e11);
  const z1 = (e12 + e13) * <f32>0.707106781;
  store<f32>(p + 2 * step, e13 + z1);
  store<f32>(p + 6 * step, e13 - z1);
  // Odd part.
  const o10 = t4 + t5;
  const o11 = t5 + t6;
  const o12 = t6 + t7;
  const z5 = (o10 - o12) * <f32>0.382683433;
  const z2 = <f32>0.5411961 * o10 + z5;
  const z4 = <f32>1.306562965 * o12 + z5;
  const z3 = o11 * <f32>0.707106781;
  const z11 = t7 + z3;
  const z13 = t7 - z3;
  store<f32>(p + 5 * step, z13 + z2);
  store<f32>(p + 3 * step, z13 - z2);
  store<f32>(p + step, z11 + z4);
  store<f32>(p + 7 * step, z11 - z4);
}

/** The AAN DCT's scale of frequency k: 1, else cos(kπ/16)·√2. */
function aanScale(k: i32): f64 {
  return k == 0 ? 1.0 : Math.cos((<f64>k * Math.PI) / 16.0) * Math.SQRT2;
}

/**
 * Quantises one component's block: `level`, when the block is that one level throughout (its DCT is the
 * DC term alone, 64 × (level − 128) in the AAN scale), else the 64 samples at `samples` (level − 128,
 * f32), transformed in place. Leaves the coefficients in zigzag order at `out` and returns the zigzag
 * index of the last non-zero one (0 when only DC may be).
 */
function quantise(level: i32, samples: usize, recip: usize, out: usize): i32 {
  if (level >= 0) {
    store<i16>(out, <i16>nearest<f32>(<f32>((level - 128) * 64) * load<f32>(recip)));
    return 0;
  }
  for (let r = 0; r < 8; r++) dct8(samples + (<usize>r << 5), 4);
  for (let x = 0; x < 8; x++) dct8(samples + (<usize>x << 2), 32);
  let last = 0;
  for (let k = 0; k < BLOCK; k++) {
    const i = <usize>natural(k) << 2;
    const v = <i32>nearest<f32>(load<f32>(samples + i) * load<f32>(recip + i));
    store<i16>(out + (<usize>k << 1), <i16>v);
    if (v != 0) last = k;
  }
  return last;
}

/**
 * Transforms and quantises every block of the image (`rgba`: straight RGBA at `src`, taken over white;
 * else one palette index per pixel, the palette's RGBA words at `palette`), with the quantisation tables
 * at `quant` (luma, then chroma: 64 u16 each, natural order), and fits Huffman tables for DC and AC of
 * luma, and of chroma unless the image is grey (jpegComponents). Returns the exact length in bits of the
 * entropy-coded data jpegWrite will write (before byte stuffing), and leaves the tables at jpegHuffman.
 */
export function jpegAnalyze(src: usize, rgba: bool, palette: usize, width: i32, height: i32, quant: usize, work: usize): i32 {
  source = src;
  isRgba = rgba;
  imageWidth = width;
  imageHeight = height;
  blocksX = (width + 7) >> 3;
  blocksY = (height + 7) >> 3;
  const blocks = blocksX * blocksY;
  coefs = work;
  lasts = coefs + <usize>(3 * blocks * BLOCK * 2);
  tables = (lasts + <usize>(3 * blocks) + 15) & ~15;
  for (let t = 0; t < 2; t++)
    for (let i = 0; i < BLOCK; i++) {
      const q = <f64>load<u16>(quant + (<usize>(t * BLOCK + i) << 1));
      store<f32>(tables + RECIPROCALS + (<usize>(t * BLOCK + i) << 2), <f32>(1.0 / (q * aanScale(i >> 3) * aanScale(i & 7) * 8.0)));
    }
  if (!rgba) for (let i = 0; i < 256; i++) store<u32>(tables + PALETTE + (<usize>i << 2), ycc(overWhite(load<u32>(palette + (<usize>i << 2)))));
  lastPixel = 0;
  lastYcc = ycc(0xffffff);
  const samples = tables + SAMPLES;
  let colour: u32 = 0;
  for (let b = 0; b < blocks; b++) {
    const x0 = (b % blocksX) << 3;
    const y0 = (b / blocksX) << 3;
    // Per component: its level when the block is one level throughout, else −1 and its samples.
    let levels: u32;
    if (x0 + 8 <= width && y0 + 8 <= height && uniformBlock(x0, y0)) levels = yccAt(x0, y0);
    else {
      const first = yccAt(x0, y0);
      let differs: u32 = 0;
      for (let i = 0; i < BLOCK; i++) {
        const v = yccAt(x0 + (i & 7), y0 + (i >> 3));
        differs |= v ^ first;
        const o = samples + (<usize>i << 2);
        store<f32>(o, <f32>(<i32>(v & 0xff) - 128));
        store<f32>(o, <f32>(<i32>((v >> 8) & 0xff) - 128), 256);
        store<f32>(o, <f32>(<i32>(v >> 16) - 128), 512);
        colour |= v ^ 0x808000;
      }
      // A component that does not vary keeps its level: DC alone.
      levels = first;
      if (differs & 0xff) levels |= 0x1000000;
      if (differs & 0xff00) levels |= 0x2000000;
      if (differs & 0xff0000) levels |= 0x4000000;
    }
    colour |= (levels & 0xffffff) ^ 0x808000;
    for (let c = 0; c < 3; c++) {
      const level = levels & (0x1000000 << c) ? -1 : <i32>((levels >> (c << 3)) & 0xff);
      const slot = c * blocks + b;
      store<u8>(
        lasts + <usize>slot,
        <u8>quantise(level, samples + (<usize>c << 8), tables + RECIPROCALS + (c == 0 ? 0 : 256), coefs + (<usize>slot << 7)),
      );
    }
  }
  components = colour & 0xffff00 ? 3 : 1;
  memory.fill(tables + FREQ, 0, 4 * 257 * 4);
  for (let c = 0; c < components; c++) {
    let previous = 0;
    for (let b = 0; b < blocks; b++) {
      const slot = c * blocks + b;
      const block = coefs + (<usize>slot << 7);
      const dc = <i32>load<i16>(block);
      codeBlock(block, <i32>load<u8>(lasts + <usize>slot), dc - previous, c == 0 ? 0 : 2, false);
      previous = dc;
    }
  }
  let bits = 0;
  for (let t = 0; t < (components == 1 ? 2 : 4); t++) bits += fitTable(t);
  return bits;
}

/** The components jpegAnalyze found: 1 when every pixel is grey, else 3 (Y, Cb, Cr). */
export function jpegComponents(): i32 {
  return components;
}

// @ts-ignore: decorator
@inline function bump(freq: usize, symbol: i32): void {
  const f = freq + (<usize>symbol << 2);
  store<u32>(f, load<u32>(f) + 1);
}

/** Bits needed for |v| (the JPEG magnitude category): 0 for 0. */
// @ts-ignore: decorator
@inline function magnitude(v: i32): i32 {
  return 32 - clz(v < 0 ? -v : v);
}

/**
 * Fits table `t` (0 DC luma, 1 AC luma, 2 DC chroma, 3 AC chroma) to its symbol counts: code lengths of
 * at most 16 bits with no code of all ones (T.81 K.2 and K.3, as libjpeg's jpeg_gen_optimal_table),
 * written as counts by length and symbols at jpegHuffman, and as codes for jpegWrite. Returns the bits its
 * symbols and their magnitude bits take.
 */
function fitTable(t: i32): i32 {
  const freq = tables + FREQ + <usize>(t * 257 * 4);
  const merged = tables + MERGED;
  const sizes = tables + SIZES;
  const others = tables + OTHERS;
  const counts = tables + COUNTS;
  const out = tables + HUFFMAN + <usize>(t * JPEG_HUFFMAN_BYTES);
  const codes = tables + CODE + <usize>(t * 256 * 4);
  memory.fill(out, 0, JPEG_HUFFMAN_BYTES);
  memory.fill(codes, 0, 256 * 4);
  memory.copy(merged, freq, 256 * 4);
  // One reserved symbol, 256, seen once: its code, the longest, is dropped below, so no code is all ones.
  store<u32>(merged + 1024, 1);
  for (let s = 0; s <= 256; s++) {
    store<i32>(sizes + (<usize>s << 2), 0);
    store<i32>(others + (<usize>s << 2), -1);
  }
  for (;;) {
    // The two least frequent symbols, the higher-numbered first on ties (as libjpeg).
    let c1 = -1;
    let c2 = -1;
    let v1: u32 = 0xffffffff;
    let v2: u32 = 0xffffffff;
    for (let i = 0; i <= 256; i++) {
      const v = load<u32>(merged + (<usize>i << 2));
      if (v == 0) continue;
      if (v <= v1) {
        v2 = v1;
        c2 = c1;
        v1 = v;
        c1 = i;
      } else if (v <= v2) {
        v2 = v;
        c2 = i;
      }
    }
    if (c2 < 0) break;
    store<u32>(merged + (<usize>c1 << 2), v1 + v2);
    store<u32>(merged + (<usize>c2 << 2), 0);
    // Every symbol in both subtrees goes one level deeper; c2's list is appended to c1's.
    for (;;) {
      store<i32>(sizes + (<usize>c1 << 2), load<i32>(sizes + (<usize>c1 << 2)) + 1);
      const o = load<i32>(others + (<usize>c1 << 2));
      if (o < 0) break;
      c1 = o;
    }
    store<i32>(others + (<usize>c1 << 2), c2);
    for (;;) {
      store<i32>(sizes + (<usize>c2 << 2), load<i32>(sizes + (<usize>c2 << 2)) + 1);
      const o = load<i32>(others + (<usize>c2 << 2));
      if (o < 0) break;
      c2 = o;
    }
  }
  memory.fill(counts, 0, 33 * 4);
  let symbols = 0;
  for (let i = 0; i <= 256; i++) {
    const s = load<i32>(sizes + (<usize>i << 2));
    if (s > 0) {
      store<i32>(counts + (<usize>s << 2), load<i32>(counts + (<usize>s << 2)) + 1);
      if (i < 256) symbols++;
    }
  }
  if (symbols == 0) return 0;
  // Lengths over 16 bits: a pair of the longest codes moves up, a shorter code moves down (K.3).
  for (let i = 32; i > 16; i--) {
    while (count(counts, i) > 0) {
      let j = i - 2;
      while (count(counts, j) == 0) j--;
      store<i32>(counts + (<usize>i << 2), count(counts, i) - 2);
      store<i32>(counts + (<usize>(i - 1) << 2), count(counts, i - 1) + 1);
      store<i32>(counts + (<usize>(j + 1) << 2), count(counts, j + 1) + 2);
      store<i32>(counts + (<usize>j << 2), count(counts, j) - 1);
    }
  }
  let longest = 16;
  while (count(counts, longest) == 0) longest--;
  store<i32>(counts + (<usize>longest << 2), count(counts, longest) - 1);
  // Symbols in order of their unlimited code size, then of value; each takes the next length in turn.
  let p = 0;
  for (let size = 1; size <= 32; size++)
    for (let s = 0; s < 256; s++)
      if (load<i32>(sizes + (<usize>s << 2)) == size) {
        store<u8>(out + 16 + <usize>p, <u8>s);
        p++;
      }
  let bits = 0;
  let code: u32 = 0;
  let k = 0;
  for (let l = 1; l <= 16; l++) {
    const n = count(counts, l);
    store<u8>(out + <usize>(l - 1), <u8>n);
    for (let i = 0; i < n; i++) {
      const s = <i32>load<u8>(out + 16 + <usize>k);
      k++;
      store<u32>(codes + (<usize>s << 2), (code << 8) | <u32>l);
      code++;
      // The code, then the magnitude bits: a DC symbol is their number, an AC symbol's low four bits.
      bits += <i32>load<u32>(freq + (<usize>s << 2)) * (l + (t & 1 ? s & 15 : s));
    }
    code <<= 1;
  }
  return bits;
}

// @ts-ignore: decorator
@inline function count(counts: usize, l: i32): i32 {
  return load<i32>(counts + (<usize>l << 2));
}

/** Bytes of output for `bits` bits of entropy-coded data: every byte stuffed, in the worst case, and the padding. */
export function jpegOutputBytes(bits: i32): i32 {
  return 2 * ((bits + 7) >> 3) + 16;
}

/** Where table `t`'s counts by length and symbols are (see JPEG_HUFFMAN_BYTES). */
export function jpegHuffman(t: i32): usize {
  return tables + HUFFMAN + <usize>(t * JPEG_HUFFMAN_BYTES);
}

// ---- The entropy-coded data: bits most significant first, 0xFF bytes followed by a stuffed 0x00. ----

let bitBuffer: u64 = 0;
let bitCount: u32 = 0;
let cursor: usize = 0;

// @ts-ignore: decorator
@inline function put(value: u32, n: u32): void {
  bitBuffer = (bitBuffer << n) | <u64>value;
  bitCount += n;
  while (bitCount >= 8) {
    bitCount -= 8;
    const byte = <u8>(bitBuffer >> bitCount);
    store<u8>(cursor++, byte);
    if (byte == 0xff) store<u8>(cursor++, 0);
  }
}

/** A coefficient's magnitude bits: v itself if positive, else v − 1, in `s` bits. */
// @ts-ignore: decorator
@inline function putMagnitude(v: i32, s: i32): void {
  if (s > 0) put(<u32>(v < 0 ? v - 1 : v) & ((1 << <u32>s) - 1), <u32>s);
}

/**
 * One block's symbols (T.81 F.1.2): its DC difference's magnitude category in table `dc` (0 luma, 2
 * chroma), then each run of zeros and the next coefficient's category in table `dc` + 1 (a run over 15
 * as ZRL, 0xF0; the zeros after the last coefficient as EOB, 0x00), each followed by its magnitude bits.
 * Counted into the tables' frequencies, or written with their codes.
 */
function codeBlock(block: usize, last: i32, diff: i32, dc: i32, write: bool): void {
  symbol(dc, magnitude(diff), diff, write);
  let run = 0;
  for (let k = 1; k <= last; k++) {
    const v = <i32>load<i16>(block + (<usize>k << 1));
    if (v == 0) {
      run++;
      continue;
    }
    while (run > 15) {
      symbol(dc + 1, 0xf0, 0, write);
      run -= 16;
    }
    symbol(dc + 1, (run << 4) | magnitude(v), v, write);
    run = 0;
  }
  if (last < 63) symbol(dc + 1, 0, 0, write);
}

/** Symbol `s` of table `t` with the value `v` its low four bits are the magnitude category of. */
// @ts-ignore: decorator
@inline function symbol(t: i32, s: i32, v: i32, write: bool): void {
  if (!write) {
    bump(tables + FREQ + <usize>(t * 257 * 4), s);
    return;
  }
  const c = load<u32>(tables + CODE + (<usize>(t * 256 + s) << 2));
  put(c >> 8, c & 0xff);
  putMagnitude(v, s & 15);
}

/**
 * Writes the entropy-coded data of the blocks jpegAnalyze quantised to `out`: blocks in raster order, each
 * block's components in turn (one MCU each, as 4:4:4 interleaves them), padded with one bits to a byte.
 * Returns its length in bytes.
 */
export function jpegWrite(out: usize): i32 {
  cursor = out;
  bitBuffer = 0;
  bitCount = 0;
  const blocks = blocksX * blocksY;
  let dcY = 0;
  let dcCb = 0;
  let dcCr = 0;
  for (let b = 0; b < blocks; b++) {
    for (let c = 0; c < components; c++) {
      const block = coefs + (<usize>(c * blocks + b) << 7);
      const last = <i32>load<u8>(lasts + <usize>(c * blocks + b));
      const dc = <i32>load<i16>(block);
      const diff = dc - (c == 0 ? dcY : c == 1 ? dcCb : dcCr);
      if (c == 0) dcY = dc;
      else if (c == 1) dcCb = dc;
      else dcCr = dc;
      codeBlock(block, last, diff, c == 0 ? 0 : 2, true);
    }
  }
  if (bitCount > 0) put((1 << (8 - bitCount)) - 1, 8 - bitCount);
  return <i32>(cursor - out);
}
