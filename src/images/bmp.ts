import type { RgbaRaster } from '../model/raster.js';

/** Thrown for a BMP this decoder cannot read; the caller turns it into a field error. */
export class BmpError extends Error {}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

/** One channel of a BI_BITFIELDS mask: where it sits and how to widen it to 8 bits. */
interface Channel {
  shift: number;
  max: number;
  mask: number;
}

function channel(mask: number): Channel {
  if (mask === 0) return { shift: 0, max: 0, mask: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift, mask };
}

const read = (c: Channel, px: number) => (c.max === 0 ? 255 : Math.round((((px & c.mask) >>> c.shift) * 255) / c.max));

/**
 * Windows bitmaps: 1, 4 and 8-bit palettes, 16-bit (5-5-5 or bit fields), 24-bit, and 32-bit (BGRX or
 * bit fields with alpha), bottom-up or top-down, with the core (OS/2 1.x) or any later info header.
 * Run-length compressed bitmaps are refused. Sizes must have been checked already (declaredSize).
 */
export function decodeBmp(b: Uint8Array): RgbaRaster {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const dataOffset = v.getUint32(10, true);
  const headerSize = v.getUint32(14, true);
  const core = headerSize === 12;
  if (!core && headerSize < 40) throw new BmpError('unknown BMP header');
  const width = core ? v.getUint16(18, true) : v.getInt32(18, true);
  const rawHeight = core ? v.getUint16(20, true) : v.getInt32(22, true);
  const bpp = v.getUint16(core ? 24 : 28, true);
  const compression = core ? BI_RGB : v.getUint32(30, true);
  const height = Math.abs(rawHeight);
  const topDown = rawHeight < 0;
  if (width <= 0 || height === 0) throw new BmpError('empty BMP');
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError(`${bpp}-bit BMP`);
  const fields = compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS;
  if (compression !== BI_RGB && !(fields && (bpp === 16 || bpp === 32))) throw new BmpError('compressed BMP');

  // Masks sit right after the 40-byte info header (BITFIELDS) or inside the larger headers: offset 54 either way.
  let masks: [number, number, number, number];
  if (fields) {
    const alpha = compression === BI_ALPHABITFIELDS || headerSize >= 56;
    if (b.length < 66 + (alpha ? 4 : 0)) throw new BmpError('truncated BMP');
    masks = [v.getUint32(54, true), v.getUint32(58, true), v.getUint32(62, true), alpha ? v.getUint32(66, true) : 0];
  } else masks = bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0];
  const [r, g, bl, a] = masks.map(channel) as [Channel, Channel, Channel, Channel];

  let palette: Uint8Array | undefined;
  if (bpp <= 8) {
    const entry = core ? 3 : 4;
    const used = core ? 0 : v.getUint32(46, true);
    const count = used > 0 && used <= 1 << bpp ? used : 1 << bpp;
    const start = 14 + headerSize + (compression === BI_BITFIELDS && headerSize === 40 ? 12 : 0);
    if (start + count * entry > b.length) throw new BmpError('truncated BMP palette');
    palette = new Uint8Array(256 * 4);
    for (let i = 0; i < count; i++) {
      const p = start + i * entry;
      palette.set([b[p + 2]!, b[p + 1]!, b[p]!, 255], i * 4);
    }
  }

  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (dataOffset + stride * height > b.length) throw new BmpError('truncated BMP pixel data');
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      if (palette) {
        const bit = x * bpp;
        const index = (b[row + (bit >>> 3)]! >>> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        out.set(palette.subarray(index * 4, index * 4 + 4), o);
      } else if (bpp === 24) {
        const p = row + x * 3;
        out[o] = b[p + 2]!;
        out[o + 1] = b[p + 1]!;
        out[o + 2] = b[p]!;
        out[o + 3] = 255;
      } else {
        const px = bpp === 16 ? v.getUint16(row + x * 2, true) : v.getUint32(row + x * 4, true);
        out[o] = read(r, px);
        out[o + 1] = read(g, px);
        out[o + 2] = read(bl, px);
        out[o + 3] = read(a, px);
      }
    }
  }
  return { kind: 'rgba', width, height, pixels: out };
}
