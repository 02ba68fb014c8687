import type { Raster } from '../../model/raster.js';
import { MM_PER_INCH } from '../../model/print-size.js';
import { chunk as pngChunk, concat } from './png.js';

/**
 * The print density a raster export carries when the request gives a printSize, stamped on the finished
 * file: each format's own field where it has one (PNG pHYs, JPEG's JFIF header), WebP's EXIF chunk (the
 * format has no field of its own). The pixels, and so the verification, are the same with or without it.
 */
export function withDensity(format: 'png' | 'jpg' | 'webp', file: Uint8Array, dpi: number, r: Raster): Uint8Array {
  if (format === 'png') return pngWithDensity(file, dpi);
  if (format === 'jpg') return jpegWithDensity(file, dpi);
  return webpWithDensity(file, dpi, r);
}

/** The IHDR chunk ends here: the signature (8) and the chunk (25). */
const AFTER_IHDR = 33;

/** pHYs, pixels per metre on both axes (unit 1), right after IHDR as the PNG specification places it. */
function pngWithDensity(png: Uint8Array, dpi: number): Uint8Array {
  const perMetre = Math.round((dpi * 1000) / MM_PER_INCH);
  const data = new Uint8Array(9);
  const view = new DataView(data.buffer);
  view.setUint32(0, perMetre);
  view.setUint32(4, perMetre);
  data[8] = 1;
  return concat([png.subarray(0, AFTER_IHDR), pngChunk('pHYs', data), png.subarray(AFTER_IHDR)]);
}

/** JFIF's density in dots per inch (unit 1): the APP0 segment the JPEG writer starts every file with. */
function jpegWithDensity(jpeg: Uint8Array, dpi: number): Uint8Array {
  const isJfif = jpeg[2] === 0xff && jpeg[3] === 0xe0 && String.fromCharCode(...jpeg.subarray(6, 10)) === 'JFIF';
  if (!isJfif) throw new Error('a JPEG without a JFIF header');
  const out = jpeg.slice();
  const view = new DataView(out.buffer);
  out[13] = 1;
  view.setUint16(14, dpi);
  view.setUint16(16, dpi);
  return out;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A little-endian TIFF with one IFD: XResolution and YResolution `dpi`/1, ResolutionUnit 2 (inches). */
function exifResolution(dpi: number): Uint8Array {
  const tiff = new Uint8Array(66);
  const v = new DataView(tiff.buffer);
  tiff.set(ascii('II'));
  v.setUint16(2, 42, true);
  v.setUint32(4, 8, true);
  v.setUint16(8, 3, true);
  const entry = (i: number, tag: number, type: number, value: number) => {
    const at = 10 + 12 * i;
    v.setUint16(at, tag, true);
    v.setUint16(at + 2, type, true);
    v.setUint32(at + 4, 1, true);
    v.setUint32(at + 8, value, true);
  };
  const RATIONAL = 5;
  const SHORT = 3;
  entry(0, 0x011a, RATIONAL, 50);
  entry(1, 0x011b, RATIONAL, 58);
  entry(2, 0x0128, SHORT, 2);
  // The next IFD's offset (none) at 46, then the two rationals.
  for (const at of [50, 58]) {
    v.setUint32(at, dpi, true);
    v.setUint32(at + 4, 1, true);
  }
  return tiff;
}

function riffChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  out.set(ascii(type));
  new DataView(out.buffer).setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

const VP8X_EXIF = 0x08;
const VP8X_ALPHA = 0x10;

/**
 * The extended format (VP8X) with an EXIF chunk after the image data. A simple file (one VP8L or VP8
 * chunk) gets a VP8X header naming the canvas and whether the image has alpha (VP8L's alpha_is_used bit;
 * lossy alpha always comes as VP8X and ALPH already).
 */
function webpWithDensity(webp: Uint8Array, dpi: number, r: Raster): Uint8Array {
  const kind = String.fromCharCode(...webp.subarray(12, 16));
  let header: Uint8Array;
  let image: Uint8Array;
  if (kind === 'VP8X') {
    header = webp.slice(12, 30);
    header[8] |= VP8X_EXIF;
    image = webp.subarray(30);
  } else {
    const vp8x = new Uint8Array(10);
    const alpha = kind === 'VP8L' && (webp[24] >> 4) & 1;
    vp8x[0] = VP8X_EXIF | (alpha ? VP8X_ALPHA : 0);
    const v = new DataView(vp8x.buffer);
    v.setUint16(4, (r.width - 1) & 0xffff, true);
    vp8x[6] = (r.width - 1) >> 16;
    v.setUint16(7, (r.height - 1) & 0xffff, true);
    vp8x[9] = (r.height - 1) >> 16;
    header = riffChunk('VP8X', vp8x);
    image = webp.subarray(12);
  }
  const body = concat([ascii('WEBP'), header, image, riffChunk('EXIF', exifResolution(dpi))]);
  const riff = concat([ascii('RIFF'), new Uint8Array(4), body]);
  new DataView(riff.buffer).setUint32(4, body.length, true);
  return riff;
}
