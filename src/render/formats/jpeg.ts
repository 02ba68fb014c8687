import type { Raster } from '../../model/raster.js';
import { kernelFor, kernelWith, reserve } from '../kernel.js';

/**
 * The base quantisation table (natural order) of luma and chroma: mozjpeg's default (N. Robidoux's, its
 * `quant_table` 3), which the mozjpeg files this writer replaced used at quality 90 for both.
 */
const BASE_TABLE = [
  16, 16, 16, 18, 25, 37, 56, 85, 16, 17, 20, 27, 34, 40, 53, 75, 16, 20, 24, 31, 43, 62, 91, 135, 18, 27, 31, 40, 53,
  74, 106, 156, 25, 34, 43, 53, 69, 94, 131, 189, 37, 40, 62, 74, 94, 124, 169, 238, 56, 53, 91, 106, 131, 169, 226,
  311, 85, 75, 135, 156, 189, 238, 311, 418,
];
/**
 * Luma at the quality mozjpeg had; chroma a little coarser, which the files can afford since nothing of
 * a code's legibility is in its chroma: the same size as mozjpeg's files within +8 %, RGB PSNR as high or
 * higher and luma PSNR 1.5–5 dB higher, on every case measured
 * (docs/design-decisions.md, "JPEG: our baseline encoder").
 */
export const JPEG_QUALITY = { luma: 90, chroma: 85 } as const;

/** libjpeg's quality scaling: a percentage of the base table, each entry rounded and kept within 1–255 (baseline). */
export function quantTable(quality: number): Uint16Array {
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - quality * 2;
  return Uint16Array.from(BASE_TABLE, (q) => Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))));
}

/** Zigzag position → natural (row-major) index: the order of a DQT segment's entries. */
export const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];

function segment(marker: number, body: number[] | Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  out[0] = 0xff;
  out[1] = marker;
  out[2] = (body.length + 2) >> 8;
  out[3] = (body.length + 2) & 0xff;
  out.set(body, 4);
  return out;
}

const SOI = Uint8Array.of(0xff, 0xd8);
const EOI = Uint8Array.of(0xff, 0xd9);
/** JFIF 1.01, no density: says the components are Y, Cb, Cr (or grey) to every decoder. */
const APP0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);

/**
 * A baseline JPEG of a raster, translucent pixels flattened onto white (JPEG has no alpha), as a viewer on
 * a white page shows them. The pixels are transformed and entropy-coded by our kernel
 * (wasm/assembly/jpeg.ts): 4:4:4, or one grey component when the image has no colour, Huffman tables
 * fitted to the image, no trellis quantisation or progressive scans. mozjpeg spent 25 times as long on
 * those for a QR code, for files about as large (bench/README.md, "`npm run bench:lossy`").
 */
export function encodeJpg(
  r: Raster,
  quality: { luma: number; chroma: number } = JPEG_QUALITY,
): Uint8Array<ArrayBuffer> {
  const { width, height } = r;
  const quant = quantTable(quality.luma);
  const chroma = quantTable(quality.chroma);
  const workBytes = kernelFor(0).k.jpegWorkBytes(width, height);
  // Palette (256 RGBA words), quantisation tables (two of 64 u16), then the kernel's work area.
  const { k, pixels, base } = kernelWith(r, 1024 + 256 + workBytes);
  const palette = base;
  const tables = palette + 1024;
  const work = tables + 256;
  let memory = new Uint8Array(k.memory.buffer);
  if (r.kind === 'indexed') {
    const words = new DataView(k.memory.buffer, palette, 1024);
    for (const [i, c] of r.palette.entries())
      words.setUint32(i * 4, ((c.a << 24) | (c.b << 16) | (c.g << 8) | c.r) >>> 0, true);
  }
  new Uint16Array(k.memory.buffer, tables, 128).set([...quant, ...chroma]);
  const bits = k.jpegAnalyze(pixels, r.kind === 'rgba', palette, width, height, tables, work);
  const components = k.jpegComponents();
  const out = work + workBytes;
  reserve(k, out + k.jpegOutputBytes(bits));
  const length = k.jpegWrite(out);
  memory = new Uint8Array(k.memory.buffer);

  const dqt: number[] = [];
  for (let t = 0; t < Math.min(components, 2); t++) dqt.push(t, ...ZIGZAG.map((i) => (t ? chroma : quant)[i]!));
  const sof = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components];
  const sos = [components];
  for (let c = 0; c < components; c++) {
    const t = c === 0 ? 0 : 1;
    sof.push(c + 1, 0x11, t);
    sos.push(c + 1, (t << 4) | t);
  }
  sos.push(0, 63, 0);
  const dht: number[] = [];
  for (let t = 0; t < (components === 1 ? 2 : 4); t++) {
    const at = k.jpegHuffman(t);
    const counts = memory.subarray(at, at + 16);
    const n = counts.reduce((s, c) => s + c, 0);
    // Table t: DC (0) or AC (1) in the high nibble, luma (0) or chroma (1) in the low.
    dht.push(((t & 1) << 4) | (t >> 1), ...counts, ...memory.subarray(at + 16, at + 16 + n));
  }
  const parts = [
    SOI,
    APP0,
    segment(0xdb, dqt),
    segment(0xc0, sof),
    segment(0xc4, dht),
    segment(0xda, sos),
    memory.subarray(out, out + length),
    EOI,
  ];
  const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    file.set(p, o);
    o += p.length;
  }
  return file;
}
