// A lossless WebP bitstream (VP8L, RFC 9649) of a palette image, for the WebP writer
// (src/render/formats/webp.ts), which wraps it in its RIFF container. Built for what this service draws:
// a colour-indexing transform (pixels bundled 8, 4 or 2 to a byte for 2, 4 or 16 colours), then the
// indices coded with backward references to the distances these images repeat at (the row above, the
// pixel to the left), plus one hash-table candidate, and one set of Huffman codes fitted to the image.
// No predictor, cross-colour or subtract-green transform, no colour cache, no meta codes: libwebp
// spends most of its time choosing among those, and a palette image needs none of them. Like the other
// kernel modules it allocates nothing: the caller lays out the work area (vp8lWorkBytes) and the output
// (vp8lOutputBytes).

import { canonicalCodes, codeLengths, DEFLATE_WORK_BYTES, matchLength } from './deflate';

const HASH_BITS: i32 = 15;
/** Earlier positions each hash slot keeps. */
const WAYS: i32 = 4;
const MIN_LENGTH: i32 = 3;
const MAX_LENGTH: i32 = 4096;
/**
 * The farthest a backward reference may reach: distance codes go up to 2^20, and a plain distance is coded
 * as itself plus 120 (VP8L's 120 short codes come first). Images of more than a million packed pixels have
 * farther repeats, which a decoder refuses.
 */
const MAX_DISTANCE: i32 = (1 << 20) - 120;
/** A match this long from the image's own distances is kept without asking the hash table. */
const GOOD_ENOUGH: i32 = 32;
const LITERAL_BITS: i32 = 3;
const MATCH_BITS: i32 = 16;
const LITERALS: i32 = 256;
const GREEN_CODES: i32 = LITERALS + 24;
const DISTANCE_CODES: i32 = 40;
const CODE_LENGTH_CODES: i32 = 19;

// The work area, from `work`: the packed image (16 bytes to spare), the hash table, the symbols (two u32
// each: length or 0, then distance code or literal), the tables, the recent distinct rows, the row
// parser's steps, then the Huffman helpers' scratch (a deflate work area's worth).
let packed: usize = 0;
let hash: usize = 0;
let symbols: usize = 0;
let tables: usize = 0;
let rowSteps: usize = 0;
let scratch: usize = 0;

const FREQ: usize = 0; // 5 × 280 u32: green (literals and lengths), red, blue, alpha, distance
const LENGTHS: usize = FREQ + 5 * 280 * 4; // 5 × 280 u8
const CODES: usize = LENGTHS + 5 * 280; // 5 × 280 u16
const RUNS: usize = CODES + 5 * 280 * 2; // 280 u16: a code's lengths, run-length coded
const RUN_FREQ: usize = RUNS + 280 * 2; // 19 u32
const RUN_LENGTHS: usize = RUN_FREQ + 19 * 4; // 19 u8
const RUN_CODES: usize = RUN_LENGTHS + 20; // 19 u16
const PLANE: usize = RUN_CODES + 19 * 2 + 2; // 128 u8: (dy, 8 − dx) → distance code − 1
const MAX_CANDIDATES: i32 = 96;
/** Lengths the row parser tries of each match before jumping to its longest. */
const SHORT_LENGTHS: i32 = 16;
const CANDIDATES: usize = PLANE + 128; // MAX_CANDIDATES × (distance, length) i32
const TABLES_BYTES: usize = CANDIDATES + 8 * <usize>MAX_CANDIDATES;

/** Pixels per packed pixel's bits, as a shift: 3 (8 pixels) for 2 colours, 2 for 4, 1 for 16, else 0. */
// @ts-ignore: decorator
@inline function bundleBits(colours: i32): i32 {
  return colours <= 2 ? 3 : colours <= 4 ? 2 : colours <= 16 ? 1 : 0;
}

/** Bytes of work area for a `width`×`height` image of `colours` colours. */
export function vp8lWorkBytes(width: i32, height: i32, colours: i32): i32 {
  const bits = bundleBits(colours);
  const xsize = (width + (1 << bits) - 1) >> bits;
  const n = xsize * height;
  return n + 32 + ((4 * WAYS) << HASH_BITS) + 8 * n + <i32>TABLES_BYTES + 16 + 4 * DISTINCT_ROWS + 12 * (xsize + 1) + 16 + DEFLATE_WORK_BYTES;
}

/** Bytes of output, at most, for such an image: every packed pixel a literal of at most 15 bits, the codes and the palette. */
export function vp8lOutputBytes(width: i32, height: i32, colours: i32): i32 {
  const bits = bundleBits(colours);
  return 2 * ((width + (1 << bits) - 1) >> bits) * height + 16 * colours + 4096;
}

// ---- The bit writer: bits go out least significant first (as deflate's). ----

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

// ---- Lengths and distances as prefix codes and extra bits (RFC 9649, 5.2.2). ----

let prefixExtra: u32 = 0;
let prefixExtraBits: u32 = 0;

/** The prefix code of a length or distance code `v` ≥ 1; its extra bits left in prefixExtra(Bits). */
// @ts-ignore: decorator
@inline function prefixOf(v: i32): i32 {
  if (v <= 2) {
    prefixExtra = 0;
    prefixExtraBits = 0;
    return v - 1;
  }
  const d = v - 1;
  const high = 31 - clz(d);
  const second = (d >> (high - 1)) & 1;
  prefixExtraBits = <u32>(high - 1);
  prefixExtra = <u32>d & ((1 << prefixExtraBits) - 1);
  return 2 * high + second;
}

/**
 * The 120 short distance codes, as (dy << 4) | (8 − dx): the decoder's distance is dy × xsize + dx
 * (RFC 9649, 5.2.2). Inverted into PLANE at the start of each image.
 */
// @ts-ignore: decorator
@inline function codeToPlane(i: i32): i32 {
  return <i32>load<u8>(
    memory.data<u8>([
      0x18, 0x07, 0x17, 0x19, 0x28, 0x06, 0x27, 0x29, 0x16, 0x1a, 0x26, 0x2a, 0x38, 0x05, 0x37, 0x39, 0x15, 0x1b, 0x36,
      0x3a, 0x25, 0x2b, 0x48, 0x04, 0x47, 0x49, 0x14, 0x1c, 0x35, 0x3b, 0x46, 0x4a, 0x24, 0x2c, 0x58, 0x45, 0x4b, 0x34,
      0x3c, 0x03, 0x57, 0x59, 0x13, 0x1d, 0x56, 0x5a, 0x23, 0x2d, 0x44, 0x4c, 0x55, 0x5b, 0x33, 0x3d, 0x68, 0x02, 0x67,
      0x69, 0x12, 0x1e, 0x66, 0x6a, 0x22, 0x2e, 0x54, 0x5c, 0x43, 0x4d, 0x65, 0x6b, 0x32, 0x3e, 0x78, 0x01, 0x77, 0x79,
      0x53, 0x5d, 0x11, 0x1f, 0x64, 0x6c, 0x42, 0x4e, 0x76, 0x7a, 0x21, 0x2f, 0x75, 0x7b, 0x31, 0x3f, 0x63, 0x6d, 0x52,
      0x5e, 0x00, 0x74, 0x7c, 0x41, 0x4f, 0x10, 0x20, 0x62, 0x6e, 0x30, 0x73, 0x7d, 0x51, 0x5f, 0x40, 0x72, 0x7e, 0x61,
      0x6f, 0x50, 0x71, 0x7f, 0x60, 0x70,
    ]) + <usize>i,
  );
}

/** The distance code of a distance of `d` packed pixels in rows of `xsize`: a short code when it has one, else d + 120. */
function distanceCode(xsize: i32, d: i32): i32 {
  const dy = d / xsize;
  const dx = d - dy * xsize;
  if (dx <= 8 && dy < 8) return <i32>load<u8>(tables + PLANE + <usize>(dy * 16 + 8 - dx)) + 1;
  if (dx > xsize - 8 && dy < 7) return <i32>load<u8>(tables + PLANE + <usize>((dy + 1) * 16 + 8 + xsize - dx)) + 1;
  return d + 120;
}

// ---- Matching. ----

let bestLength: i32 = 0;
let bestDistance: i32 = 0;

let bestScore: i32 = 0;
/** While true, every match tryDistance finds is also listed at CANDIDATES, for the row parser. */
let collecting = false;
let candidates: i32 = 0;

/** Bits a distance's code takes beyond its prefix code, roughly: its extra bits. */
// @ts-ignore: decorator
@inline function distanceCost(xsize: i32, d: i32): i32 {
  const code = distanceCode(xsize, d);
  return code <= 2 ? 0 : 30 - clz(code - 1);
}

// @ts-ignore: decorator
@inline function tryDistance(pos: i32, d: i32, max: i32, xsize: i32): void {
  if (d <= 0 || d > pos || d > MAX_DISTANCE) return;
  const here = packed + <usize>pos;
  const there = here - <usize>d;
  const n = matchLength(here, there, max);
  if (n < MIN_LENGTH) return;
  if (collecting && candidates < MAX_CANDIDATES) {
    const c = tables + CANDIDATES + (<usize>candidates << 3);
    store<i32>(c, d);
    store<i32>(c, n, 4);
    candidates++;
  }
  // A match is worth its length in literals of about LITERAL_BITS each, less what its distance costs.
  const score = n * LITERAL_BITS - distanceCost(xsize, d) - MATCH_BITS;
  if (score > bestScore) {
    bestScore = score;
    bestLength = n;
    bestDistance = d;
  }
}

// @ts-ignore: decorator
@inline function bump(table: i32, symbol: i32): void {
  const f = tables + FREQ + <usize>((table * 280 + symbol) << 2);
  store<u32>(f, load<u32>(f) + 1);
}

/** The rows, newest last, that did not repeat the row above: where a new row most likely repeats an earlier one. */
const DISTINCT_ROWS: i32 = 64;
let distinct: usize = 0;
let distinctCount: i32 = 0;

/**
 * The longest match for `pos` (into bestLength and bestDistance) among: the row above and the pixel to
 * the left, then, when neither gives GOOD_ENOUGH, the same column in each recent row that did not repeat
 * the row above, and the hash table's earlier positions; records `pos` in the hash table.
 */
function longestMatch(pos: i32, n: i32, xsize: i32, row: i32): void {
  const most = min(MAX_LENGTH, n - pos);
  bestLength = 0;
  bestDistance = 0;
  bestScore = 0;
  if (most < MIN_LENGTH) return;
  tryDistance(pos, xsize, most, xsize);
  if (bestLength < most) tryDistance(pos, 1, most, xsize);
  if (bestLength >= GOOD_ENOUGH || most < 4) return;
  // Each such row repeats until the next one: its last copy is the nearest, and the cheapest distance.
  let next = row;
  for (let k = distinctCount - 1; k >= max(0, distinctCount - DISTINCT_ROWS) && bestLength < most; k--) {
    const earlier = load<i32>(distinct + (<usize>(k % DISTINCT_ROWS) << 2));
    if (earlier < row - 1 && next - 1 < row - 1) tryDistance(pos, (row - next + 1) * xsize, most, xsize);
    next = earlier;
  }
  // The slot's positions, newest first: each is tried, then all move down one for this one.
  const slot = hash + (<usize>(((load<u32>(packed + <usize>pos) * 2654435761) >> (32 - HASH_BITS)) * WAYS) << 2);
  for (let w = 0; w < WAYS; w++) {
    const seen = <i32>load<u32>(slot + (<usize>w << 2));
    if (seen == 0) break;
    tryDistance(pos, pos + 1 - seen, most, xsize);
  }
  for (let w = WAYS - 1; w > 0; w--) store<u32>(slot + (<usize>w << 2), load<u32>(slot + (<usize>(w - 1) << 2)));
  store<u32>(slot, pos + 1);
}

// @ts-ignore: decorator
@inline function addSymbol(count: i32, length: i32, v: i32, xsize: i32): void {
  const s = symbols + (<usize>count << 3);
  if (length == 0) {
    store<u32>(s, 0);
    store<u32>(s, v, 4);
    bump(0, v);
    return;
  }
  const code = distanceCode(xsize, v);
  store<u32>(s, length);
  store<u32>(s, code, 4);
  bump(0, LITERALS + prefixOf(length));
  bump(4, prefixOf(code));
}

let rowDistinct = false;

/** Notes each row the parse enters up to row `y`, and whether it repeats the row above (a match may skip whole rows). */
function enterRows(row: i32, y: i32, xsize: i32): i32 {
  while (row < y) {
    row++;
    const start = packed + <usize>(row * xsize);
    rowDistinct = row == 0 || matchLength(start, start - <usize>xsize, xsize) < xsize;
    if (rowDistinct) {
      store<i32>(distinct + (<usize>(distinctCount % DISTINCT_ROWS) << 2), row);
      distinctCount++;
    }
  }
  return row;
}

/**
 * Turns the packed image (`n` bytes, rows of `xsize`) into symbols, counting each code; returns how many.
 * Greedy, with one step of lazy evaluation: a match is put off for a longer one at the next position.
 * With `rows`, each row that does not repeat the row above is parsed by rowParse instead.
 */
function findMatches(n: i32, xsize: i32, rows: bool): i32 {
  memory.fill(hash, 0, (4 * WAYS) << HASH_BITS);
  memory.fill(tables + FREQ, 0, 280 * 4);
  memory.fill(tables + FREQ + 4 * 280 * 4, 0, 280 * 4);
  distinctCount = 0;
  let count = 0;
  let pos = 0;
  let row = -1;
  let pending = false;
  while (pos < n) {
    const y = pos / xsize;
    row = enterRows(row, y, xsize);
    if (rows && rowDistinct) {
      const end = (y + 1) * xsize;
      count = rowParse(pos, end, n, xsize, y, count);
      pos = extendLast(count, end, n, xsize);
      continue;
    }
    if (!pending) longestMatch(pos, n, xsize, y);
    pending = false;
    if (bestLength < MIN_LENGTH) {
      addSymbol(count++, 0, <i32>load<u8>(packed + <usize>pos), xsize);
      pos++;
      continue;
    }
    const length = bestLength;
    const distance = bestDistance;
    if (length < GOOD_ENOUGH && pos + 1 < n) {
      longestMatch(pos + 1, n, xsize, (pos + 1) / xsize);
      if (bestLength > length) {
        addSymbol(count++, 0, <i32>load<u8>(packed + <usize>pos), xsize);
        pos++;
        pending = true;
        continue;
      }
    }
    addSymbol(count++, length, distance, xsize);
    pos += length;
  }
  return count;
}

/** Bits of a match length: its prefix code by the first pass's code, and its extra bits. */
// @ts-ignore: decorator
@inline function lengthBits(l: i32): i32 {
  const code = prefixOf(l);
  return bitsOf(0, LITERALS + code) + <i32>prefixExtraBits;
}

/**
 * The row parser stops its matches at the row's end; a row ending in a match most often goes on
 * matching into the next rows (its right margin, then rows that repeat it): the last match, if it ends at
 * `end`, is lengthened as far as it goes, one symbol instead of two. Returns where the parse resumes.
 */
function extendLast(count: i32, end: i32, n: i32, xsize: i32): i32 {
  const s = symbols + (<usize>(count - 1) << 3);
  const length = <i32>load<u32>(s);
  if (length == 0) return end;
  const start = end - length;
  const d = distanceOf(<i32>load<u32>(s, 4), xsize);
  const full = matchLength(packed + <usize>start, packed + <usize>(start - d), min(MAX_LENGTH, n - start));
  if (full <= length) return end;
  const f = tables + FREQ + <usize>((LITERALS + prefixOf(length)) << 2);
  store<u32>(f, load<u32>(f) - 1);
  store<u32>(s, full);
  bump(0, LITERALS + prefixOf(full));
  return start + full;
}

/** The distance of a distance code, as the decoder reads it (RFC 9649, 5.2.2): the inverse of distanceCode. */
function distanceOf(code: i32, xsize: i32): i32 {
  if (code > 120) return code - 120;
  const plane = codeToPlane(code - 1);
  return max(1, (plane >> 4) * xsize + 8 - (plane & 15));
}

/** Bits of symbol `s` in table `t` by the code fitted to the first pass; a symbol it did not use is taken as costly. */
// @ts-ignore: decorator
@inline function bitsOf(t: i32, s: i32): i32 {
  const l = <i32>load<u8>(tables + LENGTHS + <usize>(t * 280 + s));
  return l == 0 ? 15 : l;
}

/**
 * The cheapest parse of positions [a, b) of row `y` into literals and matches (capped at b), by the
 * costs of the codes the greedy pass fitted: every match found at each position is tried at every
 * length (shortest path over the row). Appends the symbols after `count`; returns the new count.
 */
function rowParse(a: i32, b: i32, n: i32, xsize: i32, y: i32, count: i32): i32 {
  const len = b - a;
  // Per position: cost to reach it (i32), then the step that reached it (length, value).
  const cost = rowSteps;
  const stepLength = cost + <usize>(4 * (len + 1));
  const stepValue = stepLength + <usize>(4 * (len + 1));
  for (let i = 1; i <= len; i++) store<i32>(cost + (<usize>i << 2), i32.MAX_VALUE);
  // What a match of the row above costs in distance: the code a row that repeats the one above takes.
  const above = bitsOf(4, prefixOf(distanceCode(xsize, xsize))) + <i32>prefixExtraBits;
  // How far the next rows go on repeating the row above from this row's end: what a match from there covers.
  const following =
    b < n && b >= xsize ? max(MIN_LENGTH, matchLength(packed + <usize>b, packed + <usize>(b - xsize), min(MAX_LENGTH, n - b))) : n;
  store<i32>(cost, 0);
  for (let i = 0; i < len; i++) {
    const p = a + i;
    collecting = true;
    candidates = 0;
    longestMatch(p, n, xsize, y);
    collecting = false;
    const c = load<i32>(cost + (<usize>i << 2));
    const literal = <i32>load<u8>(packed + <usize>p);
    relax(cost, stepLength, stepValue, i + 1, c + bitsOf(0, literal), 0, literal);
    // Candidates come nearest first (but for the hash table's): one no longer than a nearer one is no better.
    let longest = 0;
    for (let k = 0; k < candidates; k++) {
      const d = load<i32>(tables + CANDIDATES + (<usize>k << 3));
      const full = load<i32>(tables + CANDIDATES + (<usize>k << 3), 4);
      const most = min(full, b - p);
      if (most <= longest) continue;
      longest = most;
      const code = prefixOf(distanceCode(xsize, d));
      const dc = c + bitsOf(4, code) + <i32>prefixExtraBits;
      // Every length up to SHORT_LENGTHS, then only the longest: a longer match costs about the same.
      for (let l = MIN_LENGTH; l <= most; l = l < SHORT_LENGTHS || l == most ? l + 1 : most) {
        // A match that goes on past the row's end at least as far as the row above's match from there is
        // lengthened (extendLast): one symbol instead of this one and that one, so this row pays only the
        // difference.
        const on = l == b - p && full - l >= following;
        const step = on ? dc + lengthBits(full) - above - lengthBits(following) : dc + lengthBits(l);
        relax(cost, stepLength, stepValue, i + l, step, l, d);
      }
    }
  }
  // Walk back from the end, marking each step's start, then emit forwards.
  let i = len;
  while (i > 0) {
    const l = load<i32>(stepLength + (<usize>i << 2));
    const from = i - max(l, 1);
    store<i32>(cost + (<usize>from << 2), i);
    i = from;
  }
  i = 0;
  while (i < len) {
    const to = load<i32>(cost + (<usize>i << 2));
    addSymbol(count++, load<i32>(stepLength + (<usize>to << 2)), load<i32>(stepValue + (<usize>to << 2)), xsize);
    i = to;
  }
  return count;
}

// @ts-ignore: decorator
@inline function relax(cost: usize, stepLength: usize, stepValue: usize, to: i32, c: i32, length: i32, value: i32): void {
  const at = cost + (<usize>to << 2);
  if (c < load<i32>(at)) {
    store<i32>(at, c);
    store<i32>(stepLength + (<usize>to << 2), length);
    store<i32>(stepValue + (<usize>to << 2), value);
  }
}

// ---- Huffman codes (RFC 9649, 3.7.2.1). ----

/**
 * Fits a code to table `t`'s counts (`n` symbols) and writes it: a simple code when at most two symbols
 * below 256 occur (one of them takes no bits at all), else a normal code, its lengths run-length coded
 * (16: repeat the previous length 3–6 times, 17 and 18: 3–10 and 11–138 zeros) by a code of their own.
 */
function writeCode(t: i32, n: i32): void {
  const freq = tables + FREQ + <usize>(t * 280 * 4);
  const lengths = tables + LENGTHS + <usize>(t * 280);
  const codes = tables + CODES + <usize>(t * 280 * 2);
  let used = 0;
  let first = -1;
  let second = -1;
  for (let s = 0; s < n; s++) {
    if (load<u32>(freq + (<usize>s << 2)) == 0) continue;
    used++;
    if (first < 0) first = s;
    else if (second < 0) second = s;
  }
  memory.fill(lengths, 0, n);
  // A symbol of no bits is written as an empty code: its code must be zero.
  memory.fill(codes, 0, n << 1);
  if (used <= 2 && max(first, second) < 256) {
    const one = max(first, 0);
    put(1, 1);
    put(used == 2 ? 1 : 0, 1);
    if (one < 2) {
      put(0, 1);
      put(one, 1);
    } else {
      put(1, 1);
      put(one, 8);
    }
    if (used == 2) {
      put(second, 8);
      store<u8>(lengths + <usize>first, 1);
      store<u8>(lengths + <usize>second, 1);
    }
    canonicalCodes(lengths, n, codes, scratch);
    return;
  }
  codeLengths(freq, n, 15, lengths, scratch);
  canonicalCodes(lengths, n, codes, scratch);
  // The lengths as runs, counting each run symbol.
  const runFreq = tables + RUN_FREQ;
  memory.fill(runFreq, 0, CODE_LENGTH_CODES * 4);
  let runs = 0;
  let i = 0;
  while (i < n) {
    const l = <u32>load<u8>(lengths + <usize>i);
    let run = 1;
    while (i + run < n && <u32>load<u8>(lengths + <usize>(i + run)) == l) run++;
    i += run;
    if (l == 0) {
      while (run >= 11) {
        const r = min(run, 138);
        runs = addRun(runs, 18, r - 11);
        run -= r;
      }
      if (run >= 3) {
        runs = addRun(runs, 17, run - 3);
        run = 0;
      }
    } else {
      runs = addRun(runs, l, 0);
      run--;
      while (run >= 3) {
        const r = min(run, 6);
        runs = addRun(runs, 16, r - 3);
        run -= r;
      }
    }
    for (; run > 0; run--) runs = addRun(runs, l, 0);
  }
  const runLengths = tables + RUN_LENGTHS;
  const runCodes = tables + RUN_CODES;
  codeLengths(runFreq, CODE_LENGTH_CODES, 7, runLengths, scratch);
  canonicalCodes(runLengths, CODE_LENGTH_CODES, runCodes, scratch);
  let sent = CODE_LENGTH_CODES;
  while (sent > 4 && load<u8>(runLengths + <usize>lengthOrder(sent - 1)) == 0) sent--;
  put(0, 1);
  put(sent - 4, 4);
  for (let k = 0; k < sent; k++) put(load<u8>(runLengths + <usize>lengthOrder(k)), 3);
  // No max_symbol: the runs cover every symbol of the alphabet.
  put(0, 1);
  for (let k = 0; k < runs; k++) {
    const run = <u32>load<u16>(tables + RUNS + (<usize>k << 1));
    const s = run & 0xff;
    put(load<u16>(runCodes + (<usize>s << 1)), load<u8>(runLengths + <usize>s));
    if (s == 16) put(run >> 8, 2);
    else if (s == 17) put(run >> 8, 3);
    else if (s == 18) put(run >> 8, 7);
  }
}

// @ts-ignore: decorator
@inline function addRun(runs: i32, symbol: u32, extra: u32): i32 {
  store<u16>(tables + RUNS + (<usize>runs << 1), <u16>(symbol | (extra << 8)));
  const f = tables + RUN_FREQ + (<usize>symbol << 2);
  store<u32>(f, load<u32>(f) + 1);
  return runs + 1;
}

/** The order in which code-length code lengths are sent (RFC 9649, 3.7.2.1.2). */
// @ts-ignore: decorator
@inline function lengthOrder(i: i32): i32 {
  return <i32>load<u8>(memory.data<u8>([17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]) + <usize>i);
}

// @ts-ignore: decorator
@inline function putSymbol(t: i32, s: i32): void {
  put(load<u16>(tables + CODES + <usize>((t * 280 + s) << 1)), load<u8>(tables + LENGTHS + <usize>(t * 280 + s)));
}

/** Writes the five codes of tables 0–4: green with lengths, red, blue, alpha, distance. */
function writeCodes(): void {
  writeCode(0, GREEN_CODES);
  writeCode(1, LITERALS);
  writeCode(2, LITERALS);
  writeCode(3, LITERALS);
  writeCode(4, DISTANCE_CODES);
}

/**
 * Writes the VP8L bitstream (from its signature; the RIFF container is the caller's) of a `width`×`height`
 * image of one palette index per pixel at `indices`, with `colours` (1–256) palette entries at `palette`
 * (ARGB words, 0xAARRGGBB), to `out`. Returns its length in bytes.
 */
export function vp8lEncode(indices: usize, width: i32, height: i32, palette: usize, colours: i32, work: usize, out: usize): i32 {
  const bits = bundleBits(colours);
  const xsize = (width + (1 << bits) - 1) >> bits;
  const n = xsize * height;
  packed = work;
  hash = (packed + <usize>n + 16 + 15) & ~15;
  symbols = hash + (<usize>(4 * WAYS) << HASH_BITS);
  tables = symbols + <usize>(8 * n);
  distinct = (tables + TABLES_BYTES + 15) & ~15;
  rowSteps = distinct + <usize>(4 * DISTINCT_ROWS);
  scratch = (rowSteps + <usize>(12 * (xsize + 1)) + 15) & ~15;
  for (let i = 0; i < 120; i++) store<u8>(tables + PLANE + <usize>codeToPlane(i), <u8>i);

  // Bundle the indices, the first pixel in the lowest bits (RFC 9649, 4.4).
  const depth = 8 >> bits;
  for (let y = 0; y < height; y++) {
    const row = indices + <usize>(y * width);
    const to = packed + <usize>(y * xsize);
    if (bits == 0) {
      memory.copy(to, row, width);
      continue;
    }
    for (let x = 0; x < xsize; x++) {
      let v: u32 = 0;
      for (let i = 0, px = x << bits; i < 1 << bits && px < width; i++, px++) v |= <u32>load<u8>(row + <usize>px) << (<u32>(i * depth));
      store<u8>(to + <usize>x, <u8>v);
    }
  }
  memory.fill(packed + <usize>n, 0, 16);

  cursor = out;
  bitBuffer = 0;
  bitCount = 0;
  let alpha = false;
  for (let i = 0; i < colours; i++) if (load<u32>(palette + (<usize>i << 2)) >> 24 != 255) alpha = true;
  put(0x2f, 8);
  put(width - 1, 14);
  put(height - 1, 14);
  put(alpha ? 1 : 0, 1);
  put(0, 3);

  // The colour-indexing transform: its palette as a one-row image, each entry the difference from the one before.
  put(1, 1);
  put(3, 2);
  put(colours - 1, 8);
  memory.fill(tables + FREQ, 0, 5 * 280 * 4);
  paletteSymbols(palette, colours, false);
  put(0, 1); // no colour cache
  writeCodes();
  paletteSymbols(palette, colours, true);
  put(0, 1); // no further transform

  // The packed indices: green carries them; red and blue are 0 and alpha 255 throughout.
  let count = findMatches(n, xsize, false);
  if (bits == 3) {
    // A two-colour image (every flat code) has few new rows, 8 pixels to the byte: parse them again at
    // the cost of the codes just fitted. Its files are a few hundred bytes, where every match counts.
    codeLengths(tables + FREQ, GREEN_CODES, 15, tables + LENGTHS, scratch);
    codeLengths(tables + FREQ + 4 * 280 * 4, DISTANCE_CODES, 15, tables + LENGTHS + 4 * 280, scratch);
    count = findMatches(n, xsize, true);
  }
  memory.fill(tables + FREQ + 280 * 4, 0, 3 * 280 * 4);
  bump(1, 0);
  bump(2, 0);
  bump(3, 255);
  put(0, 1); // no colour cache
  put(0, 1); // one set of codes for the whole image
  writeCodes();
  for (let i = 0; i < count; i++) {
    const s = symbols + (<usize>i << 3);
    const length = <i32>load<u32>(s);
    const v = <i32>load<u32>(s, 4);
    if (length == 0) {
      putSymbol(0, v);
      continue;
    }
    putSymbol(0, LITERALS + prefixOf(length));
    put(prefixExtra, prefixExtraBits);
    putSymbol(4, prefixOf(v));
    put(prefixExtra, prefixExtraBits);
  }
  while (bitCount > 0) {
    store<u8>(cursor++, <u8>bitBuffer);
    bitBuffer >>= 8;
    bitCount = bitCount > 8 ? bitCount - 8 : 0;
  }
  return <i32>(cursor - out);
}

/** The palette's entries as the differences from the one before (green, red, blue, alpha): counted, or written. */
function paletteSymbols(palette: usize, colours: i32, write: bool): void {
  let previous: u32 = 0;
  for (let i = 0; i < colours; i++) {
    const c = load<u32>(palette + (<usize>i << 2));
    const d = deltaOf(c, previous);
    previous = c;
    // Green, red, blue, alpha: the ARGB word's bits 8, 16, 0 and 24.
    for (let t = 0; t < 4; t++) {
      const v = <i32>((d >> (t == 3 ? 24 : t == 2 ? 0 : <u32>(8 << t))) & 0xff);
      if (write) putSymbol(t, v);
      else bump(t, v);
    }
  }
}

/** ARGB `c` minus `p`, each component modulo 256. */
// @ts-ignore: decorator
@inline function deltaOf(c: u32, p: u32): u32 {
  let d: u32 = 0;
  for (let shift: u32 = 0; shift < 32; shift += 8) d |= (((c >> shift) - (p >> shift)) & 0xff) << shift;
  return d;
}

