// A zlib stream (RFC 1950 around RFC 1951 deflate) of image scanlines, for the PNG writer
// (src/render/formats/png.ts). It is built for the images this service draws, where nearly every run of
// bytes repeats one a pixel to the left, a row up, or a row up and a pixel to either side (flat colour,
// shapes repeated for a module's height, gradient bands running diagonally). Instead of zlib's hash
// chains it tries exactly those distances, plus one hash-table candidate for anything else (a photo, a
// logo), takes the longest match greedily, and codes each block with its own dynamic Huffman tables, or
// stores it when that is smaller. Like the other kernel modules it allocates nothing: the caller lays
// out the work area (DEFLATE_WORK_BYTES) and the output (deflateBound).

const WINDOW: i32 = 32768;
const MIN_MATCH: i32 = 3;
const MAX_MATCH: i32 = 258;
/** A 3-byte match this far back costs more bits than three literals, as in zlib (TOO_FAR). */
const FAR_FOR_THREE: i32 = 4096;
const HASH_BITS: i32 = 15;
/**
 * The most earlier positions a hash slot can remember; zlibCompress's caller picks how many
 * (src/render/formats/png.ts says why palette and truecolour images differ).
 */
const MAX_WAYS: i32 = 4;
/** A match this long from the image's own distances is kept without asking the hash table. */
const GOOD_ENOUGH: i32 = 16;
/** Symbols (literals or matches) per block: each block gets Huffman tables fitted to its own part of the image. */
const BLOCK_SYMBOLS: i32 = 1 << 15;
const STORED_MAX: i32 = 65535;

const LIT_CODES: i32 = 286;
const DIST_CODES: i32 = 30;
const LEN_CODES: i32 = 19;
const END_OF_BLOCK: i32 = 256;

// The work area, in bytes from `work`.
const HASH: usize = 0;
const SYMBOLS: usize = HASH + (<usize>(4 * MAX_WAYS) << HASH_BITS);
const LIT_FREQ: usize = SYMBOLS + 4 * BLOCK_SYMBOLS;
const DIST_FREQ: usize = LIT_FREQ + 4 * 288;
const LEN_FREQ: usize = DIST_FREQ + 4 * 32;
const LIT_LEN: usize = LEN_FREQ + 4 * 32;
const DIST_LEN: usize = LIT_LEN + 288;
const LEN_LEN: usize = DIST_LEN + 32;
const LIT_CODE: usize = LEN_LEN + 32;
const DIST_CODE: usize = LIT_CODE + 2 * 288;
const LEN_CODE: usize = DIST_CODE + 2 * 32;
const RUNS: usize = LEN_CODE + 2 * 32;
const SORT_KEY: usize = RUNS + 2 * (288 + 32);
const SORT_SYM: usize = SORT_KEY + 4 * 288;
const COUNTS: usize = SORT_SYM + 4 * 288;
const LEN_WRITE: usize = COUNTS + 4 * 32;
const LEN_WRITE_BITS: usize = LEN_WRITE + 4 * 256;
export const DEFLATE_WORK_BYTES: i32 = <i32>(LEN_WRITE_BITS + 256);

/** Bytes the output may need for `n` bytes of input: every block stored, in the worst case, plus the zlib frame. */
export function deflateBound(n: i32): i32 {
  return n + 5 * (n / STORED_MAX + 1) + 5 * (n / BLOCK_SYMBOLS + 1) + 16;
}

/** The order in which code-length code lengths are sent (RFC 1951, 3.2.7). */
// @ts-ignore: decorator
@inline function lengthOrder(i: i32): i32 {
  return <i32>load<u8>(memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]) + <usize>i);
}

// ---- The bit writer: bits go out least significant first, 32 at a time. ----

let bitBuffer: u64 = 0;
let bitCount: u32 = 0;
let cursor: usize = 0;

// @ts-ignore: decorator
@inline function put(value: u32, n: u32): void {
  bitBuffer |= (<u64>value) << bitCount;
  bitCount += n;
  if (bitCount >= 32) {
    store<u32>(cursor, <u32>bitBuffer);
    cursor += 4;
    bitBuffer >>= 32;
    bitCount -= 32;
  }
}

/** Writes out the pending bits, padded with zeros to a whole byte. */
function alignToByte(): void {
  while (bitCount > 0) {
    store<u8>(cursor++, <u8>bitBuffer);
    bitBuffer >>= 8;
    bitCount = bitCount > 8 ? bitCount - 8 : 0;
  }
  bitBuffer = 0;
}

// ---- Length and distance codes (RFC 1951, 3.2.5). ----

/** The length code (0–28, sent as 257 + code) of a match length 3–258. */
// @ts-ignore: decorator
@inline function lengthCode(length: i32): i32 {
  const l = length - MIN_MATCH;
  if (l < 8) return l;
  if (l == 255) return 28;
  const e = 29 - clz(l);
  return ((e + 1) << 2) + ((l >> e) & 3);
}

// @ts-ignore: decorator
@inline function lengthExtraBits(code: i32): i32 {
  return code < 8 || code == 28 ? 0 : (code >> 2) - 1;
}

// @ts-ignore: decorator
@inline function lengthBase(code: i32): i32 {
  if (code < 8) return code + MIN_MATCH;
  if (code == 28) return MAX_MATCH;
  return ((4 + (code & 3)) << lengthExtraBits(code)) + MIN_MATCH;
}

/** The distance code (0–29) of a distance 1–32768. */
// @ts-ignore: decorator
@inline function distanceCode(distance: i32): i32 {
  const d = distance - 1;
  if (d < 4) return d;
  const e = 30 - clz(d);
  return ((e + 1) << 1) + ((d >> e) & 1);
}

// @ts-ignore: decorator
@inline function distanceExtraBits(code: i32): i32 {
  return code < 4 ? 0 : (code >> 1) - 1;
}

// @ts-ignore: decorator
@inline function distanceBase(code: i32): i32 {
  return code < 4 ? code + 1 : ((2 + (code & 1)) << distanceExtraBits(code)) + 1;
}

// ---- Matching. ----

/** How many bytes at `a` equal those at `b`, up to `max`; 16 at a time (the caller pads its input by 16). */
// @ts-ignore: decorator
@inline export function matchLength(a: usize, b: usize, max: i32): i32 {
  let n = 0;
  while (n < max) {
    const same = i8x16.bitmask(i8x16.eq(v128.load(a + <usize>n), v128.load(b + <usize>n)));
    if (same != 0xffff) return min(n + ctz(~same), max);
    n += 16;
  }
  return max;
}

// @ts-ignore: decorator
@inline function hashOf(p: usize): u32 {
  return (load<u32>(p) * 2654435761) >> (32 - HASH_BITS);
}

let matchLen: i32 = 0;
let ways: i32 = 1;
let symbolCount: i32 = 0;
let matchDist: i32 = 0;

/** Takes the match at distance `d` if it is longer than the best so far; byte at the best length first, as it decides. */
// @ts-ignore: decorator
@inline function tryDistance(here: usize, pos: i32, d: i32, max: i32): void {
  if (d <= 0 || d > pos || d > WINDOW) return;
  const there = here - <usize>d;
  if (load<u8>(there + <usize>matchLen) != load<u8>(here + <usize>matchLen)) return;
  const n = matchLength(here, there, max);
  if (n > matchLen) {
    matchLen = n;
    matchDist = d;
  }
}

/**
 * Turns input from `start` into symbols (literals, or length/distance pairs with the top bit set) until
 * the block is full or the input ends, counting each code's frequency. Returns where the block's input ends.
 */
function findMatches(src: usize, start: i32, n: i32, bpp: i32, stride: i32, work: usize): i32 {
  memory.fill(work + LIT_FREQ, 0, 4 * 288);
  memory.fill(work + DIST_FREQ, 0, 4 * 32);
  let count = 0;
  let pos = start;
  while (pos < n && count < BLOCK_SYMBOLS) {
    const here = src + <usize>pos;
    const max = min(MAX_MATCH, n - pos);
    matchLen = 0;
    matchDist = 0;
    if (max >= MIN_MATCH) {
      tryDistance(here, pos, stride - bpp, max);
      if (matchLen < max) tryDistance(here, pos, stride, max);
      if (matchLen < max) tryDistance(here, pos, bpp, max);
      if (matchLen < max) tryDistance(here, pos, stride + bpp, max);
      // The hash table is for what the image's own geometry does not repeat: looked up only then.
      if (matchLen < GOOD_ENOUGH) {
        // The slot's positions, newest first: each is tried, then all move down one for this one.
        const slot = work + HASH + (<usize>(hashOf(here) * ways) << 2);
        for (let w = 0; w < ways; w++) {
          const seen = <i32>load<u32>(slot + (<usize>w << 2));
          if (seen == 0) break;
          tryDistance(here, pos, pos + 1 - seen, max);
        }
        for (let w = ways - 1; w > 0; w--) store<u32>(slot + (<usize>w << 2), load<u32>(slot + (<usize>(w - 1) << 2)));
        store<u32>(slot, pos + 1);
      }
    }
    const slot = work + SYMBOLS + (<usize>count << 2);
    if (matchLen > MIN_MATCH || (matchLen == MIN_MATCH && matchDist <= FAR_FOR_THREE)) {
      const dc = distanceCode(matchDist);
      store<u32>(slot, 0x80000000 | (<u32>(matchLen - MIN_MATCH) << 23) | (<u32>dc << 18) | <u32>(matchDist - 1));
      const l = work + LIT_FREQ + (<usize>(257 + lengthCode(matchLen)) << 2);
      store<u32>(l, load<u32>(l) + 1);
      const d = work + DIST_FREQ + (<usize>dc << 2);
      store<u32>(d, load<u32>(d) + 1);
      pos += matchLen;
    } else {
      const byte = <u32>load<u8>(here);
      store<u32>(slot, byte);
      const l = work + LIT_FREQ + (<usize>byte << 2);
      store<u32>(l, load<u32>(l) + 1);
      pos++;
    }
    count++;
  }
  store<u32>(work + LIT_FREQ + (<usize>END_OF_BLOCK << 2), 1);
  symbolCount = count;
  return pos;
}

// ---- Huffman code lengths (minimum redundancy, length-limited) and canonical codes. ----

/**
 * Code lengths of at most `limit` bits for the `n` frequencies at `freq` (u32), into `lengths` (u8). At
 * least two symbols get a code, so that every code is complete, as every inflater accepts. Moffat and
 * Katajainen's in-place algorithm on the symbols sorted by frequency, then lengths over the limit moved
 * back under it (as miniz does), the shortest going to the most frequent symbols.
 */
export function codeLengths(freq: usize, n: i32, limit: i32, lengths: usize, work: usize): void {
  const key = work + SORT_KEY;
  const sym = work + SORT_SYM;
  memory.fill(lengths, 0, n);
  let used = 0;
  for (let s = 0; s < n; s++) {
    const f = load<u32>(freq + (<usize>s << 2));
    if (f == 0) continue;
    // Insertion sort by frequency: at most 288 symbols, once per block.
    let j = used++;
    while (j > 0 && load<u32>(key + (<usize>(j - 1) << 2)) > f) {
      store<u32>(key + (<usize>j << 2), load<u32>(key + (<usize>(j - 1) << 2)));
      store<u32>(sym + (<usize>j << 2), load<u32>(sym + (<usize>(j - 1) << 2)));
      j--;
    }
    store<u32>(key + (<usize>j << 2), f);
    store<u32>(sym + (<usize>j << 2), s);
  }
  // Pad to two symbols with unused ones (frequency 0, so they sort first).
  for (let s = 0; used < 2; s++) {
    let taken = false;
    for (let j = 0; j < used; j++) if (<i32>load<u32>(sym + (<usize>j << 2)) == s) taken = true;
    if (taken) continue;
    for (let j = used; j > 0; j--) {
      store<u32>(key + (<usize>j << 2), load<u32>(key + (<usize>(j - 1) << 2)));
      store<u32>(sym + (<usize>j << 2), load<u32>(sym + (<usize>(j - 1) << 2)));
    }
    store<u32>(key, 0);
    store<u32>(sym, s);
    used++;
  }
  minimumRedundancy(key, used);
  const counts = work + COUNTS;
  memory.fill(counts, 0, 4 * 32);
  for (let j = 0; j < used; j++) {
    const l = min(<i32>load<u32>(key + (<usize>j << 2)), limit);
    const c = counts + (<usize>l << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  // Lengths clamped to the limit over-fill the code; lengthen shorter codes until it fits (Kraft sum 1).
  let total: u32 = 0;
  for (let l = limit; l > 0; l--) total += load<u32>(counts + (<usize>l << 2)) << <u32>(limit - l);
  while (total != (<u32>1 << <u32>limit)) {
    const top = counts + (<usize>limit << 2);
    store<u32>(top, load<u32>(top) - 1);
    for (let l = limit - 1; l > 0; l--) {
      const c = counts + (<usize>l << 2);
      if (load<u32>(c) != 0) {
        store<u32>(c, load<u32>(c) - 1);
        store<u32>(c + 4, load<u32>(c + 4) + 2);
        break;
      }
    }
    total--;
  }
  let j = used;
  for (let l = 1; l <= limit; l++) {
    for (let k = load<u32>(counts + (<usize>l << 2)); k > 0; k--) {
      store<u8>(lengths + <usize>load<u32>(sym + (<usize>(--j) << 2)), <u8>l);
    }
  }
}

/**
 * Moffat and Katajainen, "In-Place Calculation of Minimum-Redundancy Codes" (1995): `a` holds `n` ≥ 2
 * frequencies in ascending order and is overwritten with each one's code length.
 */
function minimumRedundancy(a: usize, n: i32): void {
  store<u32>(a, load<u32>(a) + load<u32>(a, 4));
  let root = 0;
  let leaf = 2;
  for (let next = 1; next < n - 1; next++) {
    const slot = a + (<usize>next << 2);
    if (leaf >= n || at(a, root) < at(a, leaf)) {
      store<u32>(slot, at(a, root));
      store<u32>(a + (<usize>(root++) << 2), next);
    } else store<u32>(slot, at(a, leaf++));
    if (leaf >= n || (root < next && at(a, root) < at(a, leaf))) {
      store<u32>(slot, load<u32>(slot) + at(a, root));
      store<u32>(a + (<usize>(root++) << 2), next);
    } else store<u32>(slot, load<u32>(slot) + at(a, leaf++));
  }
  store<u32>(a + (<usize>(n - 2) << 2), 0);
  for (let next = n - 3; next >= 0; next--) store<u32>(a + (<usize>next << 2), at(a, <i32>at(a, next)) + 1);
  let available = 1;
  let used = 0;
  let depth: u32 = 0;
  root = n - 2;
  let next = n - 1;
  while (available > 0) {
    while (root >= 0 && at(a, root) == depth) {
      used++;
      root--;
    }
    while (available > used) {
      store<u32>(a + (<usize>(next--) << 2), depth);
      available--;
    }
    available = 2 * used;
    depth++;
    used = 0;
  }
}

// @ts-ignore: decorator
@inline function at(a: usize, i: i32): u32 {
  return load<u32>(a + (<usize>i << 2));
}

/** Canonical codes for `n` code lengths, bit-reversed for the least-significant-first bit writer. */
export function canonicalCodes(lengths: usize, n: i32, codes: usize, work: usize): void {
  const counts = work + COUNTS;
  memory.fill(counts, 0, 4 * 32);
  for (let s = 0; s < n; s++) {
    const c = counts + (<usize>load<u8>(lengths + <usize>s) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  store<u32>(counts, 0);
  // counts[l] becomes the first code of length l.
  let code: u32 = 0;
  let previous: u32 = 0;
  for (let l = 1; l < 16; l++) {
    const c = counts + (<usize>l << 2);
    code = (code + previous) << 1;
    previous = load<u32>(c);
    store<u32>(c, code);
  }
  for (let s = 0; s < n; s++) {
    const l = <u32>load<u8>(lengths + <usize>s);
    if (l == 0) continue;
    const c = counts + (<usize>l << 2);
    const value = load<u32>(c);
    store<u32>(c, value + 1);
    store<u16>(codes + (<usize>s << 1), <u16>(bitReverse(value) >> (32 - l)));
  }
}

// @ts-ignore: decorator
@inline function bitReverse(v: u32): u32 {
  v = ((v >> 1) & 0x55555555) | ((v & 0x55555555) << 1);
  v = ((v >> 2) & 0x33333333) | ((v & 0x33333333) << 2);
  v = ((v >> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
  return bswap(v);
}

// ---- Blocks. ----

/** The last non-zero length among `n` at `lengths`, plus one, at least `least`. */
function usedCodes(lengths: usize, n: i32, least: i32): i32 {
  let count = n;
  while (count > least && load<u8>(lengths + <usize>(count - 1)) == 0) count--;
  return count;
}

/**
 * Run-length codes the literal/length and distance code lengths, sent back to back, into RUNS (u16:
 * the symbol 0–18 in the low byte, the repeat's extra bits above), counting each symbol in LEN_FREQ.
 * Returns how many there are.
 */
function codeLengthRuns(work: usize, litCount: i32, distCount: i32): i32 {
  memory.fill(work + LEN_FREQ, 0, 4 * 32);
  runCount = 0;
  const total = litCount + distCount;
  let i = 0;
  while (i < total) {
    const l = codeLengthAt(work, litCount, i);
    let run = 1;
    while (i + run < total && codeLengthAt(work, litCount, i + run) == l) run++;
    i += run;
    if (l == 0) {
      while (run >= 11) { const r = min(run, 138); addRun(work, 18, r - 11); run -= r; }
      if (run >= 3) { addRun(work, 17, run - 3); run = 0; }
    } else {
      addRun(work, l, 0);
      run--;
      while (run >= 3) { const r = min(run, 6); addRun(work, 16, r - 3); run -= r; }
    }
    for (; run > 0; run--) addRun(work, l, 0);
  }
  return runCount;
}

let runCount: i32 = 0;

// @ts-ignore: decorator
@inline function codeLengthAt(work: usize, litCount: i32, i: i32): u32 {
  return <u32>load<u8>(i < litCount ? work + LIT_LEN + <usize>i : work + DIST_LEN + <usize>(i - litCount));
}

// @ts-ignore: decorator
@inline function addRun(work: usize, symbol: u32, extra: u32): void {
  store<u16>(work + RUNS + (<usize>(runCount++) << 1), <u16>(symbol | (extra << 8)));
  const f = work + LEN_FREQ + (<usize>symbol << 2);
  store<u32>(f, load<u32>(f) + 1);
}

// @ts-ignore: decorator
@inline function runExtraBits(symbol: u32): u32 {
  return symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0;
}

/** Writes the block of input [start, end) whose symbols findMatches left in the work area. */
function writeBlock(src: usize, start: i32, end: i32, last: bool, work: usize): void {
  codeLengths(work + LIT_FREQ, LIT_CODES, 15, work + LIT_LEN, work);
  codeLengths(work + DIST_FREQ, DIST_CODES, 15, work + DIST_LEN, work);
  const litCount = usedCodes(work + LIT_LEN, LIT_CODES, 257);
  const distCount = usedCodes(work + DIST_LEN, DIST_CODES, 1);
  const runCount = codeLengthRuns(work, litCount, distCount);
  codeLengths(work + LEN_FREQ, LEN_CODES, 7, work + LEN_LEN, work);
  let lenCount = LEN_CODES;
  while (lenCount > 4 && load<u8>(work + LEN_LEN + <usize>lengthOrder(lenCount - 1)) == 0) lenCount--;

  // The block's size coded, in bits, against stored.
  let bits: u64 = 3 + 5 + 5 + 4 + 3 * <u64>lenCount;
  for (let s = 0; s < LEN_CODES; s++) {
    bits += <u64>load<u32>(work + LEN_FREQ + (<usize>s << 2)) * (<u64>load<u8>(work + LEN_LEN + <usize>s) + runExtraBits(s));
  }
  for (let s = 0; s < LIT_CODES; s++) {
    const extra = s > END_OF_BLOCK ? lengthExtraBits(s - 257) : 0;
    bits += <u64>load<u32>(work + LIT_FREQ + (<usize>s << 2)) * <u64>(<i32>load<u8>(work + LIT_LEN + <usize>s) + extra);
  }
  for (let s = 0; s < DIST_CODES; s++) {
    bits += <u64>load<u32>(work + DIST_FREQ + (<usize>s << 2)) * <u64>(<i32>load<u8>(work + DIST_LEN + <usize>s) + distanceExtraBits(s));
  }
  const bytes = end - start;
  const storedBits = <u64>8 * <u64>(bytes + 5 * ((bytes + STORED_MAX - 1) / STORED_MAX)) + 7;
  if (storedBits < bits) {
    writeStored(src, start, end, last);
    return;
  }

  canonicalCodes(work + LIT_LEN, LIT_CODES, work + LIT_CODE, work);
  canonicalCodes(work + DIST_LEN, DIST_CODES, work + DIST_CODE, work);
  canonicalCodes(work + LEN_LEN, LEN_CODES, work + LEN_CODE, work);
  put(last ? 1 : 0, 1);
  put(2, 2);
  put(litCount - 257, 5);
  put(distCount - 1, 5);
  put(lenCount - 4, 4);
  for (let i = 0; i < lenCount; i++) put(load<u8>(work + LEN_LEN + <usize>lengthOrder(i)), 3);
  for (let i = 0; i < runCount; i++) {
    const run = <u32>load<u16>(work + RUNS + (<usize>i << 1));
    const s = run & 0xff;
    put(load<u16>(work + LEN_CODE + (<usize>s << 1)), load<u8>(work + LEN_LEN + <usize>s));
    const extra = runExtraBits(s);
    if (extra) put(run >> 8, extra);
  }
  // Each length's code and extra bits, joined into one write.
  for (let l = 0; l <= MAX_MATCH - MIN_MATCH; l++) {
    const lc = lengthCode(l + MIN_MATCH);
    const codeBits = <u32>load<u8>(work + LIT_LEN + <usize>(257 + lc));
    const extra = <u32>(l + MIN_MATCH - lengthBase(lc));
    store<u32>(work + LEN_WRITE + (<usize>l << 2), <u32>load<u16>(work + LIT_CODE + (<usize>(257 + lc) << 1)) | (extra << codeBits));
    store<u8>(work + LEN_WRITE_BITS + <usize>l, <u8>(codeBits + lengthExtraBits(lc)));
  }
  const symbols = work + SYMBOLS;
  for (let i = 0; i < symbolCount; i++) {
    const v = load<u32>(symbols + (<usize>i << 2));
    if (v < 256) {
      put(load<u16>(work + LIT_CODE + (<usize>v << 1)), load<u8>(work + LIT_LEN + <usize>v));
      continue;
    }
    const l = <usize>((v >> 23) & 0xff);
    put(load<u32>(work + LEN_WRITE + (l << 2)), load<u8>(work + LEN_WRITE_BITS + l));
    const dc = <i32>((v >> 18) & 0x1f);
    const codeBits = <u32>load<u8>(work + DIST_LEN + <usize>dc);
    const extra = (v & 0x7fff) + 1 - <u32>distanceBase(dc);
    put(<u32>load<u16>(work + DIST_CODE + (<usize>dc << 1)) | (extra << codeBits), codeBits + <u32>distanceExtraBits(dc));
  }
  put(load<u16>(work + LIT_CODE + (<usize>END_OF_BLOCK << 1)), load<u8>(work + LIT_LEN + <usize>END_OF_BLOCK));
}

/** Input [start, end) as stored blocks of at most 65,535 bytes. */
function writeStored(src: usize, start: i32, end: i32, last: bool): void {
  let pos = start;
  do {
    const n = min(end - pos, STORED_MAX);
    put(last && pos + n == end ? 1 : 0, 1);
    put(0, 2);
    alignToByte();
    store<u16>(cursor, <u16>n);
    store<u16>(cursor, <u16>~n, 2);
    memory.copy(cursor + 4, src + <usize>pos, n);
    cursor += 4 + <usize>n;
    pos += n;
  } while (pos < end);
}

// ---- The zlib frame. ----

/** Adler-32 (RFC 1950) of `n` bytes, 16 at a time: a block's bytes summed, and weighted 16 down to 1. */
export function adler32(src: usize, n: i32): u32 {
  const BASE: u64 = 65521;
  // The most bytes whose sums cannot overflow 32-bit lanes before reducing (zlib's NMAX, rounded to 16).
  const CHUNK = 5536;
  const weights = i8x16(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  let a: u64 = 1;
  let b: u64 = 0;
  let i = 0;
  while (n - i >= 16) {
    const blocks = min(n - i, CHUNK) >> 4;
    let sums = i32x4.splat(0);
    let weighted = i32x4.splat(0);
    let prefix = i32x4.splat(0);
    for (let k = 0; k < blocks; k++, i += 16) {
      const v = v128.load(src + <usize>i);
      prefix = i32x4.add(prefix, sums);
      sums = i32x4.add(sums, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v)));
      const w = i16x8.add(i16x8.extmul_low_i8x16_u(v, weights), i16x8.extmul_high_i8x16_u(v, weights));
      weighted = i32x4.add(weighted, i32x4.extadd_pairwise_i16x8_u(w));
    }
    const s = <u64>horizontal(sums);
    b = (b + <u64>(blocks << 4) * a + 16 * <u64>horizontal(prefix) + <u64>horizontal(weighted)) % BASE;
    a = (a + s) % BASE;
  }
  for (; i < n; i++) {
    a += <u64>load<u8>(src + <usize>i);
    b += a;
  }
  return <u32>(((b % BASE) << 16) | (a % BASE));
}

// @ts-ignore: decorator
@inline function horizontal(v: v128): u32 {
  return <u32>i32x4.extract_lane(v, 0) + <u32>i32x4.extract_lane(v, 1) + <u32>i32x4.extract_lane(v, 2) + <u32>i32x4.extract_lane(v, 3);
}

/**
 * Compresses `n` bytes at `src` into a zlib stream at `out` and returns its length. `bpp` and `stride` are
 * the bytes of a pixel and of a scanline (filter byte included): the distances tried first. `hashWays`
 * (1 to 4) is how many earlier positions each hash slot keeps for the search beyond them. The input
 * needs 16 readable bytes past its end; `work` holds DEFLATE_WORK_BYTES, `out` deflateBound(n).
 */
export function zlibCompress(src: usize, n: i32, bpp: i32, stride: i32, hashWays: i32, work: usize, out: usize): i32 {
  ways = max(1, min(MAX_WAYS, hashWays));
  // A fresh table for every image: the same input always gives the same bytes.
  memory.fill(work + HASH, 0, (4 * ways) << HASH_BITS);
  cursor = out;
  bitBuffer = 0;
  bitCount = 0;
  // CMF 0x78: deflate with a 32 KB window; FLG 0x01: the fastest level, and 0x7801 a multiple of 31.
  store<u8>(cursor++, 0x78);
  store<u8>(cursor++, 0x01);
  let pos = 0;
  do {
    const end = findMatches(src, pos, n, bpp, stride, work);
    writeBlock(src, pos, end, end == n, work);
    pos = end;
  } while (pos < n);
  alignToByte();
  store<u32>(cursor, bswap(adler32(src, n)));
  cursor += 4;
  return <i32>(cursor - out);
}
