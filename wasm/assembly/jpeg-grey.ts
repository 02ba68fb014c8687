// The grey image a reader decodes from one of our JPEG files (src/render/formats/jpeg-grey.ts parses the
// markers and lays out what this reads): the first component's samples, Y, as stb_image returns them when
// zxing asks it for one channel (it copies Y and never converts colour), so the verifier sees the file as
// its reader does. Baseline sequential DCT, Huffman, interleaved, every component sampled 1×1: what our
// writer (jpeg.ts) produces. Cb and Cr are entropy-decoded only to step over their bits; their blocks are
// never transformed. The inverse DCT is libjpeg's ISLOW (jidctint.c: Loeffler, Ligtenberg and Moschytz,
// 13-bit constants), the one mozjpeg's decoder uses, four columns or rows at a time in SIMD, and a block
// with no AC coefficient (most of a QR code) is its DC level without a transform, as ISLOW would compute it.
// Like the other kernel modules it allocates nothing: the caller lays out the work area (JPEG_GREY_WORK_BYTES).

import { natural } from './jpeg';

/** The caller's table area, from `specs`: the luma quantisation table, the scan's table choices, then the Huffman tables. */
export const JPEG_GREY_QUANT: i32 = 0; // 64 u16, natural order: component 0's quantiser
export const JPEG_GREY_SELECT: i32 = 128; // 4 × (DC table u8, AC table u8), per component in scan order
export const JPEG_GREY_HUFFMAN: i32 = 136; // 8 × (16 counts, 256 symbols): DC tables 0–3, then AC tables 0–3
export const JPEG_GREY_HUFFMAN_BYTES: i32 = 16 + 256;

// The work area, from `work`: per Huffman table its lookup of codes up to FAST_BITS long (u16: length << 8 |
// symbol, 0 when longer), its largest code of each length (i32, −1 when none, 18 of them) and offset from
// code to symbol index (i32), its symbols; then the block (64 i32, dequantised, natural order) and two
// 8×8 i32 workspaces of the transform.
const FAST_BITS: i32 = 9;
const FAST: usize = 0;
const MAXCODE: usize = FAST + (<usize>1 << FAST_BITS) * 2;
const VALOFFSET: usize = MAXCODE + 18 * 4;
const SYMBOLS: usize = VALOFFSET + 18 * 4;
const TABLE_BYTES: usize = SYMBOLS + 256;
const BLOCK: usize = 8 * TABLE_BYTES;
const WS: usize = BLOCK + 256;
const WT: usize = WS + 256;
export const JPEG_GREY_WORK_BYTES: i32 = <i32>(WT + 256);

/** Errors, as negative results of jpegGrey. */
const BAD_CODE: i32 = -1;
const BAD_RUN: i32 = -2;
const TRUNCATED: i32 = -3;

/** Builds table `t`'s decoding tables from its counts and symbols (T.81 annex C, canonical codes). False if over-full. */
function buildTable(spec: usize, table: usize): bool {
  memory.fill(table + FAST, 0, (<usize>1 << FAST_BITS) * 2);
  let code: i32 = 0;
  let k: i32 = 0;
  for (let len = 1; len <= 16; len++) {
    const n = <i32>load<u8>(spec + <usize>(len - 1));
    store<i32>(table + VALOFFSET + (<usize>len << 2), k - code);
    for (let i = 0; i < n; i++) {
      if (k >= 256) return false;
      const symbol = load<u8>(spec + 16 + <usize>k);
      store<u8>(table + SYMBOLS + <usize>k, symbol);
      if (len <= FAST_BITS) {
        const shift = FAST_BITS - len;
        const entry = <u16>((len << 8) | symbol);
        for (let j = code << shift; j < (code + 1) << shift; j++) store<u16>(table + FAST + (<usize>j << 1), entry);
      }
      code++;
      k++;
    }
    // A code of all ones is reserved (T.81 C.2): a table using it is over-full.
    if (code > 1 << len || (code == 1 << len && n > 0)) return false;
    store<i32>(table + MAXCODE + (<usize>len << 2), n > 0 ? code - 1 : -1);
    code <<= 1;
  }
  store<i32>(table + MAXCODE + (17 << 2), 0x7fffffff);
  return true;
}

// The bit reader: the entropy-coded bytes from `at` to `end`, stuffed zeros removed; at a marker or the
// end it feeds zero bits and notes that it ran past (a decode that needs them is truncated).
let bits: u64 = 0;
let count: i32 = 0;
let at: usize = 0;
let end: usize = 0;
let overrun: i32 = 0;

// @ts-ignore: decorator
@inline function fill(): void {
  while (count <= 56) {
    let byte: u64 = 0;
    if (at < end) {
      byte = <u64>load<u8>(at);
      if (byte == 0xff) {
        const next = at + 1 < end ? load<u8>(at + 1) : 0xd9;
        if (next == 0) at += 2;
        else {
          byte = 0;
          end = at;
          overrun += 8;
        }
      } else at++;
    } else overrun += 8;
    bits |= byte << <u64>(56 - count);
    count += 8;
  }
}

// @ts-ignore: decorator
@inline function take(n: i32): u32 {
  const v = <u32>(bits >> <u64>(64 - n));
  bits <<= <u64>n;
  count -= n;
  return v;
}

/** The next symbol of Huffman table `table`, or −1 for a code no table has. The reader holds at least 16 bits. */
// @ts-ignore: decorator
@inline function symbol(table: usize): i32 {
  const entry = <i32>load<u16>(table + FAST + (<usize>(bits >> <u64>(64 - FAST_BITS)) << 1));
  if (entry != 0) {
    const len = entry >> 8;
    bits <<= <u64>len;
    count -= len;
    return entry & 0xff;
  }
  let len = FAST_BITS + 1;
  let code = <i32>(bits >> <u64>(64 - len));
  while (code > load<i32>(table + MAXCODE + (<usize>len << 2))) {
    len++;
    code = <i32>(bits >> <u64>(64 - len));
  }
  if (len > 16) return -1;
  bits <<= <u64>len;
  count -= len;
  return <i32>load<u8>(table + SYMBOLS + <usize>(code + load<i32>(table + VALOFFSET + (<usize>len << 2))));
}

/** An `s`-bit magnitude category's value (T.81 F.2.2.1, EXTEND). */
// @ts-ignore: decorator
@inline function extend(v: u32, s: i32): i32 {
  return <i32>v < 1 << (s - 1) ? <i32>v - (1 << s) + 1 : <i32>v;
}

/**
 * Decodes the scan into the grey image at `out` (`width` bytes a row): component 0's samples. `file` holds
 * the entropy-coded data from `start` to `stop`; `specs` the tables (JPEG_GREY_QUANT and after), `work`
 * JPEG_GREY_WORK_BYTES. Returns 0, or a negative error: a code in no table, a run past the block, or data
 * that ends before the image does.
 */
export function jpegGrey(start: usize, stop: usize, width: i32, height: i32, components: i32, specs: usize, work: usize, out: usize): i32 {
  for (let t = 0; t < 8; t++)
    if (!buildTable(specs + <usize>(JPEG_GREY_HUFFMAN + t * JPEG_GREY_HUFFMAN_BYTES), work + <usize>t * TABLE_BYTES)) return BAD_CODE;
  bits = 0;
  count = 0;
  at = start;
  end = stop;
  overrun = 0;
  const quant = specs + <usize>JPEG_GREY_QUANT;
  const block = work + BLOCK;
  const blocksX = (width + 7) >> 3;
  const blocksY = (height + 7) >> 3;
  let p0: i32 = 0;
  for (let by = 0; by < blocksY; by++) {
    for (let bx = 0; bx < blocksX; bx++) {
      for (let c = 0; c < components; c++) {
        const select = specs + <usize>(JPEG_GREY_SELECT + 2 * c);
        const dc = work + <usize>load<u8>(select) * TABLE_BYTES;
        const ac = work + <usize>(4 + load<u8>(select, 1)) * TABLE_BYTES;
        fill();
        const s = symbol(dc);
        if (s < 0 || s > 15) return BAD_CODE;
        const diff = s ? extend(take(s), s) : 0;
        let any = false;
        if (c == 0) {
          p0 += diff;
          for (let i: usize = 0; i < 256; i += 16) v128.store(block + i, i32x4.splat(0));
          store<i32>(block, p0 * <i32>load<u16>(quant));
        }
        for (let k = 1; k < 64; k++) {
          fill();
          const rs = symbol(ac);
          if (rs < 0) return BAD_CODE;
          const r = rs >> 4;
          const size = rs & 15;
          if (size == 0) {
            if (r != 15) break;
            k += 15;
            continue;
          }
          k += r;
          if (k > 63) return BAD_RUN;
          const v = extend(take(size), size);
          if (c == 0) {
            const n = <usize>natural(k);
            store<i32>(block + (n << 2), v * <i32>load<u16>(quant + (n << 1)));
            any = true;
          }
        }
        if (overrun > count) return TRUNCATED;
        if (c == 0) {
          if (any) idct(work);
          else level(work, ((load<i32>(block) * 4 + 16) >> 5) + 128);
          place(work, bx << 3, by << 3, width, height, out);
        }
      }
    }
  }
  return 0;
}

// ---- The inverse DCT: libjpeg's ISLOW, as jidctint.c, on four lanes at once. ----

const CONST_BITS: i32 = 13;
const PASS1_BITS: i32 = 2;

/** A block of one level: every sample of the transform's output (WS, rows of 8 i32) is `v`, clamped as ISLOW's range limit does. */
function level(work: usize, v: i32): void {
  const s = i32x4.splat(min(255, max(0, v)));
  for (let i: usize = 0; i < 256; i += 16) v128.store(work + WS + i, s);
}

/**
 * One 8-point inverse transform of four lanes: inputs at src + 32k, outputs at dst + 32k (k = 0…7), each
 * (x + bias) >> shift. jidctint.c's column and row passes are this same arithmetic.
 */
// @ts-ignore: decorator
@inline function idct8(src: usize, dst: usize, bias: v128, shift: i32): void {
  // Even part.
  let z2 = v128.load(src, 64);
  let z3 = v128.load(src, 192);
  let z1 = i32x4.mul(i32x4.add(z2, z3), i32x4.splat(4433)); // FIX(0.541196100)
  const e2 = i32x4.add(z1, i32x4.mul(z3, i32x4.splat(-15137))); // −FIX(1.847759065)
  const e3 = i32x4.add(z1, i32x4.mul(z2, i32x4.splat(6270))); // FIX(0.765366865)
  z2 = v128.load(src);
  z3 = v128.load(src, 128);
  const e0 = i32x4.shl(i32x4.add(z2, z3), CONST_BITS);
  const e1 = i32x4.shl(i32x4.sub(z2, z3), CONST_BITS);
  const t10 = i32x4.add(e0, e3);
  const t13 = i32x4.sub(e0, e3);
  const t11 = i32x4.add(e1, e2);
  const t12 = i32x4.sub(e1, e2);
  // Odd part.
  let o0 = v128.load(src, 224);
  let o1 = v128.load(src, 160);
  let o2 = v128.load(src, 96);
  let o3 = v128.load(src, 32);
  z1 = i32x4.add(o0, o3);
  z2 = i32x4.add(o1, o2);
  z3 = i32x4.add(o0, o2);
  let z4 = i32x4.add(o1, o3);
  const z5 = i32x4.mul(i32x4.add(z3, z4), i32x4.splat(9633)); // FIX(1.175875602)
  o0 = i32x4.mul(o0, i32x4.splat(2446)); // FIX(0.298631336)
  o1 = i32x4.mul(o1, i32x4.splat(16819)); // FIX(2.053119869)
  o2 = i32x4.mul(o2, i32x4.splat(25172)); // FIX(3.072711026)
  o3 = i32x4.mul(o3, i32x4.splat(12299)); // FIX(1.501321110)
  z1 = i32x4.mul(z1, i32x4.splat(-7373)); // −FIX(0.899976223)
  z2 = i32x4.mul(z2, i32x4.splat(-20995)); // −FIX(2.562915447)
  z3 = i32x4.add(i32x4.mul(z3, i32x4.splat(-16069)), z5); // −FIX(1.961570560)
  z4 = i32x4.add(i32x4.mul(z4, i32x4.splat(-3196)), z5); // −FIX(0.390180644)
  o0 = i32x4.add(o0, i32x4.add(z1, z3));
  o1 = i32x4.add(o1, i32x4.add(z2, z4));
  o2 = i32x4.add(o2, i32x4.add(z2, z3));
  o3 = i32x4.add(o3, i32x4.add(z1, z4));
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.add(t10, o3), bias), shift));
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.sub(t10, o3), bias), shift), 224);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.add(t11, o2), bias), shift), 32);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.sub(t11, o2), bias), shift), 192);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.add(t12, o1), bias), shift), 64);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.sub(t12, o1), bias), shift), 160);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.add(t13, o0), bias), shift), 96);
  v128.store(dst, i32x4.shr_s(i32x4.add(i32x4.sub(t13, o0), bias), shift), 128);
}

/** Transposes the 8×8 i32 matrix at `src` (rows of 32 bytes) into `dst`, four 4×4 quadrants. */
function transpose(src: usize, dst: usize): void {
  for (let q = 0; q < 4; q++) {
    const r = <usize>(q >> 1);
    const c = <usize>(q & 1);
    const s = src + r * 128 + c * 16;
    const a = v128.load(s);
    const b = v128.load(s, 32);
    const e = v128.load(s, 64);
    const d = v128.load(s, 96);
    const t0 = v128.shuffle<i32>(a, b, 0, 4, 1, 5);
    const t1 = v128.shuffle<i32>(a, b, 2, 6, 3, 7);
    const t2 = v128.shuffle<i32>(e, d, 0, 4, 1, 5);
    const t3 = v128.shuffle<i32>(e, d, 2, 6, 3, 7);
    const o = dst + c * 128 + r * 16;
    v128.store(o, v128.shuffle<i32>(t0, t2, 0, 1, 4, 5));
    v128.store(o, v128.shuffle<i32>(t0, t2, 2, 3, 6, 7), 32);
    v128.store(o, v128.shuffle<i32>(t1, t3, 0, 1, 4, 5), 64);
    v128.store(o, v128.shuffle<i32>(t1, t3, 2, 3, 6, 7), 96);
  }
}

/** The block's samples into WS, rows of 8 i32, level-shifted and clamped to 0–255. */
function idct(work: usize): void {
  const block = work + BLOCK;
  const ws = work + WS;
  const wt = work + WT;
  // Columns (lanes are columns): descaled to PASS1_BITS of fraction.
  const b1 = i32x4.splat(1 << (CONST_BITS - PASS1_BITS - 1));
  idct8(block, wt, b1, CONST_BITS - PASS1_BITS);
  idct8(block + 16, wt + 16, b1, CONST_BITS - PASS1_BITS);
  // Rows (lanes are rows, after a transpose), then 128 added, as jidctint's range limit does.
  transpose(wt, ws);
  const shift = CONST_BITS + PASS1_BITS + 3;
  const b2 = i32x4.splat((1 << (shift - 1)) + (128 << shift));
  idct8(ws, wt, b2, shift);
  idct8(ws + 16, wt + 16, b2, shift);
  transpose(wt, ws);
  const lo = i32x4.splat(0);
  const hi = i32x4.splat(255);
  for (let i: usize = 0; i < 256; i += 16) v128.store(ws + i, i32x4.min_s(i32x4.max_s(v128.load(ws + i), lo), hi));
}

/** WS's 8×8 samples into the grey image at (x0, y0), clipped at its right and bottom edges. */
function place(work: usize, x0: i32, y0: i32, width: i32, height: i32, out: usize): void {
  const ws = work + WS;
  const rows = min(8, height - y0);
  if (x0 + 8 <= width) {
    for (let r = 0; r < rows; r++) {
      const row = ws + (<usize>r << 5);
      const v = i16x8.narrow_i32x4_s(v128.load(row), v128.load(row, 16));
      v128.store64_lane(out + <usize>((y0 + r) * width + x0), i8x16.narrow_i16x8_u(v, v), 0);
    }
    return;
  }
  const cols = width - x0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) store<u8>(out + <usize>((y0 + r) * width + x0 + c), <u8>load<i32>(ws + (<usize>(r * 8 + c) << 2)));
}
