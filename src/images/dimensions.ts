import type { ImageType } from './sniff.js';

export interface Size {
  width: number;
  height: number;
}

/**
 * The size an image file declares in its header, read without decoding anything, so an oversized image is
 * refused before a decoder allocates for it. Null when the header is truncated or malformed.
 */
export function declaredSize(type: ImageType, b: Uint8Array): Size | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const has = (n: number) => b.length >= n;
  switch (type) {
    case 'png':
      // IHDR is always the first chunk.
      return has(24) && ascii(b, 12, 4) === 'IHDR' ? { width: v.getUint32(16), height: v.getUint32(20) } : null;
    case 'gif':
      return has(10) ? { width: v.getUint16(6, true), height: v.getUint16(8, true) } : null;
    case 'bmp':
      return bmpSize(v);
    case 'webp':
      return webpSize(b, v);
    case 'jpg':
      return jpegSize(b, v);
  }
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

function bmpSize(v: DataView): Size | null {
  if (v.byteLength < 26) return null;
  // BITMAPCOREHEADER (12 bytes) has 16-bit sizes; every later header 32-bit signed ones (negative height = top-down).
  if (v.getUint32(14, true) === 12) return { width: v.getUint16(18, true), height: v.getUint16(20, true) };
  return { width: Math.abs(v.getInt32(18, true)), height: Math.abs(v.getInt32(22, true)) };
}

function webpSize(b: Uint8Array, v: DataView): Size | null {
  if (b.length < 30) return null;
  switch (ascii(b, 12, 4)) {
    case 'VP8 ':
      // Key frame start code, then 14-bit sizes (the top two bits are a scale hint).
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
      return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    case 'VP8L': {
      if (b[20] !== 0x2f) return null;
      const bits = v.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { width: (v.getUint32(24, true) & 0xffffff) + 1, height: (v.getUint32(27, true) & 0xffffff) + 1 };
    default:
      return null;
  }
}

/** Start-of-frame markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** Walks the marker segments up to the first start-of-frame; embedded thumbnails (inside APPn) are skipped whole. */
function jpegSize(b: Uint8Array, v: DataView): Size | null {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return null;
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o++;
      continue;
    } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      o += 2;
      continue;
    } // no length field
    const len = v.getUint16(o + 2);
    if (isSof(marker)) {
      if (o + 9 > b.length) return null;
      const height = v.getUint16(o + 5);
      // Height 0 defers it to a DNL marker after the scan: no size known before decoding, so refused.
      return height === 0 ? null : { width: v.getUint16(o + 7), height };
    }
    if (marker === 0xda || len < 2) return null; // scan data before any frame header
    o += 2 + len;
  }
  return null;
}
