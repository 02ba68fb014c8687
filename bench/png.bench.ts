/**
 * `npm run bench:png`: the PNG writer on the rasters a render hands it (bench/png-inputs.ts), the encoder
 * before the truecolour rewrite (bench/png-before.ts) beside the current one, then the stages and the
 * filter × deflate choices behind it, each with time and size.
 *
 * The machine is shared, so every table is measured in ROUNDS short tinybench runs, alternating the task
 * order, and reports the median of all samples: candidates see the same load, and the ratios hold even
 * when absolute figures drift. `ROUNDS=… TASK_MS=… npm run bench:png` to change the effort.
 */
import { constants, crc32 as zlibCrc32, deflateSync, type ZlibOptions } from 'node:zlib';
import { Bench } from 'tinybench';
import { encodePng, over256Colours, rgbScanlines } from '../src/render/formats/png.js';
import type { RgbaRaster } from '../src/render/raster.js';
import { crc32 as jsCrc32, encodePngBefore, toPalette } from './png-before.js';
import { inputs } from './png-inputs.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TASK_MS = Number(process.env.TASK_MS ?? 200);

async function medians(tasks: [string, () => unknown][]): Promise<Map<string, number>> {
  const samples = new Map<string, number[]>(tasks.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TASK_MS, iterations: 4, warmupTime: round === 0 ? 100 : 20, warmupIterations: 2 });
    for (const [name, fn] of round % 2 ? [...tasks].reverse() : tasks) bench.add(name, fn);
    await bench.run();
    for (const t of bench.tasks) samples.get(t.name)!.push(...t.result!.latency.samples);
  }
  return new Map([...samples].map(([name, s]) => [name, s.sort((a, b) => a - b)[s.length >> 1]!]));
}

const ms = (t: number) => t.toFixed(2);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const bytes = (n: number) => `${n.toLocaleString('en')} B`;

// ---------------------------------------------------------------- whole encoder, before and after

{
  const rows: Record<string, string>[] = [];
  const tasks: [string, () => unknown][] = [];
  for (const [name, raster] of Object.entries(inputs)) {
    tasks.push([`${name} before`, () => encodePngBefore(raster)], [`${name} after`, () => encodePng(raster)]);
  }
  const t = await medians(tasks);
  for (const [name, raster] of Object.entries(inputs)) {
    const before = encodePngBefore(raster).length;
    const after = encodePng(raster).length;
    if (raster.kind === 'indexed' && !Buffer.from(encodePng(raster)).equals(encodePngBefore(raster))) throw new Error(`${name}: an indexed raster must encode byte for byte as before`);
    rows.push({
      input: `${name} (${raster.kind === 'indexed' ? 'indexed' : 'rgba'} ${raster.width}×${raster.height})`,
      'before ms': ms(t.get(`${name} before`)!),
      'before size': bytes(before),
      'after ms': ms(t.get(`${name} after`)!),
      'after size': bytes(after),
      'size ×': (after / before).toFixed(2),
    });
  }
  console.log('encodePng, before (4bf3b3c) and after, median of all samples');
  console.table(rows);
}

// ---------------------------------------------------------------- stages, on the styled raster

const styled = inputs.styled as RgbaRaster;
const { width, height, pixels } = styled;

/** The palette attempt with an open-addressed table of int32 keys instead of a Map (same rule, same order). */
function toPaletteTable(rgba: Uint8Array): Uint8Array | null {
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, rgba.byteLength / 4);
  const keys = new Int32Array(1024);
  const slots = new Uint16Array(1024);
  const out = new Uint8Array(words.length);
  let n = 0;
  let last = ~words[0]!;
  let lastIndex = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w !== last) {
      let h = Math.imul(w, 0x9e3779b1) >>> 22;
      while (slots[h] !== 0 && keys[h] !== w) h = (h + 1) & 1023;
      if (slots[h] === 0) {
        if (n === 256) return null;
        keys[h] = w;
        slots[h] = ++n;
      }
      last = w;
      lastIndex = slots[h]! - 1;
    }
    out[i] = lastIndex;
  }
  return out;
}

/** RGBA scanlines behind filter byte None: no packing, a third more to deflate. */
function rgbaNone(px: Uint8Array, w: number, h: number): Uint8Array {
  const rowBytes = w * 4;
  const out = new Uint8Array((rowBytes + 1) * h);
  for (let y = 0; y < h; y++) out.set(px.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  return out;
}

function opaqueBytes(px: Uint8Array): boolean {
  for (let i = 3; i < px.length; i += 4) if (px[i] !== 255) return false;
  return true;
}

function rgbBytes(px: Uint8Array): Uint8Array {
  const rgb = new Uint8Array((px.length / 4) * 3);
  for (let i = 0, j = 0; i < px.length; i += 4, j += 3) { rgb[j] = px[i]!; rgb[j + 1] = px[i + 1]!; rgb[j + 2] = px[i + 2]!; }
  return rgb;
}

function upBytes(raw: Uint8Array, rowBytes: number, rows: number): Uint8Array {
  const out = new Uint8Array((rowBytes + 1) * rows);
  for (let y = 0; y < rows; y++) {
    const o = y * (rowBytes + 1);
    const r = y * rowBytes;
    out[o] = 2;
    if (y === 0) out.set(raw.subarray(0, rowBytes), o + 1);
    else for (let i = 0; i < rowBytes; i++) out[o + 1 + i] = (raw[r + i]! - raw[r - rowBytes + i]!) & 0xff;
  }
  return out;
}

/** RGB packed and written straight behind each filter byte with unaligned DataView stores. */
function rgbNoneDataView(px: Uint8Array, w: number, h: number): Uint8Array {
  const words = new Int32Array(px.buffer, px.byteOffset, w * h);
  const rowBytes = w * 3;
  const out = new Uint8Array((rowBytes + 1) * h);
  const view = new DataView(out.buffer);
  for (let y = 0, i = 0; y < h; y++) {
    let o = y * (rowBytes + 1) + 1;
    for (const end = i + (w & ~3); i < end; i += 4, o += 12) {
      const a = words[i]!, b = words[i + 1]!, c = words[i + 2]!, d = words[i + 3]!;
      view.setInt32(o, (a & 0xffffff) | (b << 24), true);
      view.setInt32(o + 4, ((b >>> 8) & 0xffff) | (c << 16), true);
      view.setInt32(o + 8, ((c >>> 16) & 0xff) | (d << 8), true);
    }
    for (; i < (y + 1) * w; i++, o += 3) { out[o] = words[i]!; out[o + 1] = words[i]! >> 8; out[o + 2] = words[i]! >> 16; }
  }
  return out;
}

// Per-byte arithmetic on four bytes at once (SWAR), for the word-wise filters.
const HIGH = 0x80808080 | 0;
const dsub = (a: number, b: number) => ((a | HIGH) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & HIGH);
const davg = (a: number, b: number) => (a & b) + (((a ^ b) & 0xfefefefe) >>> 1);

function paethWord(c: number, a: number, b: number, d: number): number {
  let r = 0;
  for (let k = 0; k < 32; k += 8) {
    const A = (a >>> k) & 255, B = (b >>> k) & 255, C = (d >>> k) & 255;
    const p = A + B - C, pa = Math.abs(p - A), pb = Math.abs(p - B), pc = Math.abs(p - C);
    r |= (((c >>> k) - (pa <= pb && pa <= pc ? A : pb <= pc ? B : C)) & 255) << k;
  }
  return r;
}

const FILTERS = ['None', 'Sub', 'Up', 'Average', 'Paeth', 'min-SAD per row'] as const;
type Filter = (typeof FILTERS)[number];

/** One row of residual words (pixel x of row y under filter f); rows above the image read as zero. */
function residuals(words: Int32Array, w: number, y: number, f: Exclude<Filter, 'min-SAD per row'>, out: Int32Array): void {
  const s = y * w, p = s - w;
  for (let x = 0; x < w; x++) {
    const c = words[s + x]!, a = x ? words[s + x - 1]! : 0, b = y ? words[p + x]! : 0;
    out[x] = f === 'None' ? c : f === 'Sub' ? dsub(c, a) : f === 'Up' ? dsub(c, b) : f === 'Average' ? dsub(c, davg(a, b)) : paethWord(c, a, b, x && y ? words[p + x - 1]! : 0);
  }
}

/** Sum of the residual bytes read as signed, libpng's heuristic for choosing a row's filter. */
function sad(row: Int32Array, mask: number): number {
  let sum = 0;
  for (let x = 0; x < row.length; x++) {
    const v = row[x]! & mask;
    for (let k = 0; k < 32; k += 8) { const b = (v >>> k) & 255; sum += b < 128 ? b : 256 - b; }
  }
  return sum;
}

/** Filtered scanlines of an RGBA raster, as RGB (alpha dropped) or RGBA, word-wise with SWAR. */
function scanlines(r: RgbaRaster, channels: 3 | 4, filter: Filter): Uint8Array {
  const { width: w, height: h } = r;
  const words = new Int32Array(r.pixels.buffer, r.pixels.byteOffset, w * h);
  const rowBytes = w * channels;
  const out = new Uint8Array((rowBytes + 1) * h);
  const rows = [0, 1, 2, 3, 4].map(() => new Int32Array(w));
  const packed = new Int32Array(w);
  const packedView = new Uint8Array(packed.buffer, 0, rowBytes);
  const kinds = ['None', 'Sub', 'Up', 'Average', 'Paeth'] as const;
  for (let y = 0; y < h; y++) {
    let type = kinds.indexOf(filter as (typeof kinds)[number]);
    if (type < 0) {
      let best = Infinity;
      kinds.forEach((k, i) => {
        residuals(words, w, y, k, rows[i]!);
        const score = sad(rows[i]!, channels === 3 ? 0xffffff : -1);
        if (score < best) { best = score; type = i; }
      });
    } else residuals(words, w, y, kinds[type]!, rows[type]!);
    const d = rows[type]!;
    if (channels === 4) packed.set(d);
    else {
      let x = 0, o = 0;
      for (; x + 4 <= w; x += 4, o += 3) {
        packed[o] = (d[x]! & 0xffffff) | (d[x + 1]! << 24);
        packed[o + 1] = ((d[x + 1]! >>> 8) & 0xffff) | (d[x + 2]! << 16);
        packed[o + 2] = ((d[x + 2]! >>> 16) & 0xff) | (d[x + 3]! << 8);
      }
      for (let k = o * 4; x < w; x++, k += 3) { packedView[k] = d[x]!; packedView[k + 1] = d[x]! >> 8; packedView[k + 2] = d[x]! >> 16; }
    }
    out[y * (rowBytes + 1)] = type;
    out.set(packedView, y * (rowBytes + 1) + 1);
  }
  return out;
}

/** Up on RGB, word-wise: the residual of the RGBA words, packed to RGB in the same pass. */
function rgbUpSwar(r: RgbaRaster): Uint8Array {
  const { width: w, height: h } = r;
  const words = new Int32Array(r.pixels.buffer, r.pixels.byteOffset, w * h);
  const rowBytes = w * 3;
  const out = new Uint8Array((rowBytes + 1) * h);
  const row = new Int32Array(Math.ceil(rowBytes / 4));
  const rowView = new Uint8Array(row.buffer, 0, rowBytes);
  for (let y = 0, i = 0; y < h; y++) {
    const end = i + w;
    let o = 0;
    if (y === 0) {
      for (; i + 4 <= end; i += 4, o += 3) {
        const a = words[i]!, b = words[i + 1]!, c = words[i + 2]!, d = words[i + 3]!;
        row[o] = (a & 0xffffff) | (b << 24); row[o + 1] = ((b >>> 8) & 0xffff) | (c << 16); row[o + 2] = ((c >>> 16) & 0xff) | (d << 8);
      }
    } else {
      for (; i + 4 <= end; i += 4, o += 3) {
        const a = dsub(words[i]!, words[i - w]!), b = dsub(words[i + 1]!, words[i + 1 - w]!);
        const c = dsub(words[i + 2]!, words[i + 2 - w]!), d = dsub(words[i + 3]!, words[i + 3 - w]!);
        row[o] = (a & 0xffffff) | (b << 24); row[o + 1] = ((b >>> 8) & 0xffff) | (c << 16); row[o + 2] = ((c >>> 16) & 0xff) | (d << 8);
      }
    }
    for (let k = o * 4; i < end; i++, k += 3) { const a = y ? dsub(words[i]!, words[i - w]!) : words[i]!; rowView[k] = a; rowView[k + 1] = a >> 8; rowView[k + 2] = a >> 16; }
    out[y * (rowBytes + 1)] = 2;
    out.set(rowView, y * (rowBytes + 1) + 1);
  }
  return out;
}

{
  const rgbNone = rgbScanlines(pixels, width, height)!;
  const rgbaLines = rgbaNone(pixels, width, height);
  const rgb = rgbBytes(pixels);
  const idat = deflateSync(rgbNone, { level: 2 });
  if (toPalette(pixels) || toPaletteTable(pixels) || !over256Colours(pixels, width, height)) throw new Error('the styled raster must have over 256 colours');
  if (!Buffer.from(scanlines(styled, 3, 'None')).equals(rgbNone)) throw new Error('the writer\'s packing differs from the reference');
  if (!Buffer.from(rgbNoneDataView(pixels, width, height)).equals(rgbNone)) throw new Error('DataView packing differs');
  if (!Buffer.from(rgbUpSwar(styled)).equals(upBytes(rgb, width * 3, height))) throw new Error('SWAR Up differs from the byte loop');
  const stages: [string, string, () => unknown][] = [
    ['before', 'palette attempt (a Map), bails at colour 257', () => toPalette(pixels)],
    ['before', 'opacity test, byte loop', () => opaqueBytes(pixels)],
    ['before', 'RGBA→RGB, byte loop', () => rgbBytes(pixels)],
    ['before', 'Up filter on RGB, byte loop', () => upBytes(rgb, width * 3, height)],
    ['before', 'deflate L6 of the Up-filtered RGB', () => deflateSync(upBytes(rgb, width * 3, height), { level: 6 })],
    ['before', `CRC-32 of the IDAT, JS table`, () => jsCrc32(idat, 0, idat.length)],
    ['after', 'palette pre-test: >256 colours in 64 rows spread over the image', () => over256Colours(pixels, width, height)],
    ['after', 'RGBA→RGB + None + opacity test, words, aligned row copied behind the filter byte', () => rgbScanlines(pixels, width, height)],
    ['after', 'deflate L2 of the RGB scanlines', () => deflateSync(rgbNone, { level: 2 })],
    ['after', 'CRC-32 of the IDAT, zlib.crc32', () => zlibCrc32(idat)],
    ['candidate', 'palette attempt, int32 open-addressed table instead of a Map', () => toPaletteTable(pixels)],
    ['candidate', 'RGBA→RGB + None, words, unaligned DataView stores', () => rgbNoneDataView(pixels, width, height)],
    ['candidate', 'RGBA→RGB + Up in one pass, SWAR words', () => rgbUpSwar(styled)],
    ['candidate', 'RGBA kept (no packing), None', () => rgbaNone(pixels, width, height)],
    ['candidate', `deflate L2 of the RGBA scanlines (→ ${kb(deflateSync(rgbaLines, { level: 2 }).length)}, RGB ${kb(idat.length)})`, () => deflateSync(rgbaLines, { level: 2 })],
  ];
  const t = await medians(stages.map(([, name, fn]) => [name, fn]));
  console.log(`stages on the styled raster (${width}×${height}, over 256 colours, opaque)`);
  console.table(stages.map(([when, name]) => ({ '': when, stage: name, 'median ms': ms(t.get(name)!) })));
}

// ---------------------------------------------------------------- filter × deflate, on the gradient rasters

const DEFLATE: [string, ZlibOptions][] = [
  ['L1', { level: 1 }],
  ['L2', { level: 2 }],
  ['L3', { level: 3 }],
  ['L6', { level: 6 }],
  ['L2 RLE', { level: 2, strategy: constants.Z_RLE }],
  ['L2 FILTERED', { level: 2, strategy: constants.Z_FILTERED }],
  ['L6 FILTERED', { level: 6, strategy: constants.Z_FILTERED }],
  ['L2 memLevel 9', { level: 2, memLevel: 9 }],
];

for (const name of ['styled', 'transparent'] as const) {
  const raster = inputs[name] as RgbaRaster;
  const channels = name === 'styled' ? 3 : 4;
  const filtered = new Map(FILTERS.map((f) => [f, scanlines(raster, channels, f)]));
  const tasks: [string, () => unknown][] = [];
  for (const f of FILTERS) {
    tasks.push([`${f} pass`, () => scanlines(raster, channels, f)]);
    for (const [label, opts] of DEFLATE) tasks.push([`${f} ${label}`, () => deflateSync(filtered.get(f)!, opts)]);
  }
  const t = await medians(tasks);
  console.log(`the ${name} raster (${channels === 3 ? 'RGB' : 'RGBA'}, ${kb(filtered.get('None')!.length)} of scanlines): filter pass ms (one generic word loop for all filters, not tuned per filter), then deflate ms / compressed size`);
  console.table(FILTERS.map((f) => Object.fromEntries([
    ['filter', f],
    ['filter pass', ms(t.get(`${f} pass`)!)],
    ...DEFLATE.map(([label, opts]) => [label, `${ms(t.get(`${f} ${label}`)!)} / ${kb(deflateSync(filtered.get(f)!, opts).length)}`]),
  ])));
}
