import type { Rgba } from '../../model/color.js';
import type { IndexedRaster } from '../../model/raster.js';
import { kernelFor } from '../kernel.js';
import { ZIGZAG } from './jpeg.js';

/**
 * A grey level per index: the grey image as an indexed raster, which every reader of rasters takes, and
 * whose grey under either formula of the verifier (read.ts) is the index itself.
 */
const GREY_RAMP: readonly Rgba[] = Array.from({ length: 256 }, (_, v) => ({ r: v, g: v, b: v, a: 255 }));

/** A JPEG this reader does not take (only what our writer produces is read here). */
export class JpegGreyError extends Error {}

interface Frame {
  width: number;
  height: number;
  /** Component ids, in frame order, and each one's quantisation table. */
  ids: number[];
  quant: number[];
}

/** The markers up to the scan: frame, tables, and where the entropy-coded data starts. */
function parse(file: Uint8Array) {
  const fail = (why: string): never => {
    throw new JpegGreyError(`not a JPEG this reader takes: ${why}`);
  };
  if (file[0] !== 0xff || file[1] !== 0xd8) fail('no start of image');
  const quant = new Map<number, number[]>();
  const huffman = new Map<number, Uint8Array>();
  let frame: Frame | undefined;
  for (let o = 2; o + 4 <= file.length; ) {
    if (file[o] !== 0xff) fail(`no marker at byte ${o}`);
    const marker = file[o + 1]!;
    if (marker === 0xff) {
      o++;
      continue;
    }
    const length = (file[o + 2]! << 8) | file[o + 3]!;
    const body = file.subarray(o + 4, o + 2 + length);
    if (body.length !== length - 2) fail('a segment runs past the end');
    if (marker === 0xc0 || marker === 0xc1) {
      if (body[0] !== 8) fail('not 8-bit samples');
      const n = body[5]!;
      const ids: number[] = [];
      const tables: number[] = [];
      for (let c = 0; c < n; c++) {
        if (body[7 + 3 * c] !== 0x11) fail('a component is subsampled');
        ids.push(body[6 + 3 * c]!);
        tables.push(body[8 + 3 * c]!);
      }
      frame = { height: (body[1]! << 8) | body[2]!, width: (body[3]! << 8) | body[4]!, ids, quant: tables };
    } else if (
      (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) ||
      marker === 0xdc
    ) {
      fail('not baseline sequential DCT with Huffman coding');
    } else if (marker === 0xdb) {
      for (let p = 0; p < body.length; ) {
        const wide = body[p]! >> 4;
        const values = body.subarray(p + 1, p + 1 + 64 * (wide + 1));
        const table = new Array<number>(64);
        for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = wide ? (values[2 * k]! << 8) | values[2 * k + 1]! : values[k]!;
        quant.set(body[p]! & 15, table);
        p += 1 + 64 * (wide + 1);
      }
    } else if (marker === 0xc4) {
      for (let p = 0; p < body.length; ) {
        const counts = body.subarray(p + 1, p + 17);
        const n = counts.reduce((s, c) => s + c, 0);
        if (n > 256) fail('a Huffman table of over 256 symbols');
        const spec = new Uint8Array(16 + 256);
        spec.set(body.subarray(p + 1, p + 17 + n));
        huffman.set(body[p]!, spec);
        p += 17 + n;
      }
    } else if (marker === 0xdd) {
      if ((body[0]! << 8) | body[1]!) fail('restart intervals');
    } else if (marker === 0xda) {
      if (!frame) fail('a scan before the frame');
      const f = frame!;
      const n = body[0]!;
      if (n !== f.ids.length) fail('a scan of some components only');
      if (body[1] !== f.ids[0]) fail("the scan's first component is not the frame's");
      const select: number[] = [];
      for (let c = 0; c < n; c++) {
        const tables = body[2 + 2 * c]!;
        if (tables >> 4 > 3 || (tables & 15) > 3) fail('a Huffman table id over 3');
        if (!huffman.has(tables >> 4) || !huffman.has(0x10 | (tables & 15))) fail('a Huffman table is missing');
        select.push(tables >> 4, tables & 15);
      }
      const [ss, se, a] = body.subarray(1 + 2 * n);
      if (ss !== 0 || se !== 63 || a !== 0) fail('not a sequential scan');
      const luma = quant.get(f.quant[0]!) ?? fail('the quantisation table is missing');
      return { frame: f, luma, huffman, select, start: o + 2 + length };
    }
    o += 2 + length;
  }
  return fail('no scan');
}

/**
 * The grey image a reader decodes from a baseline JPEG our writer produced (formats/jpeg.ts): its first
 * component, Y, decoded by our kernel (wasm/assembly/jpeg-grey.ts) from the file's own markers and tables.
 * It is what zxing reads of the file: it asks stb_image for one channel, which for a JFIF file is Y as
 * decoded, not a grey computed from RGB. Throws JpegGreyError for anything else (progressive, subsampled,
 * restart intervals) and for corrupt data.
 */
export function jpegGrey(file: Uint8Array): IndexedRaster {
  const { frame, luma, huffman, select, start } = parse(file);
  const { width, height } = frame;
  if (width === 0 || height === 0) throw new JpegGreyError('not a JPEG this reader takes: an empty frame');
  const sizes = kernelFor(0).k;
  const specsBytes = sizes.JPEG_GREY_HUFFMAN.value + 8 * sizes.JPEG_GREY_HUFFMAN_BYTES.value;
  const fileBytes = (file.length + 15) & ~15;
  const work = fileBytes + ((specsBytes + 15) & ~15);
  const out = work + sizes.JPEG_GREY_WORK_BYTES.value;
  const { k, base } = kernelFor(out + width * height);
  const memory = new Uint8Array(k.memory.buffer);
  memory.set(file, base);
  const specs = base + fileBytes;
  memory.fill(0, specs, specs + specsBytes);
  new Uint16Array(k.memory.buffer, specs + k.JPEG_GREY_QUANT.value, 64).set(luma);
  memory.set(select, specs + k.JPEG_GREY_SELECT.value);
  for (const [id, spec] of huffman) {
    const slot = (id >> 4 ? 4 : 0) + (id & 15);
    if ((id & 15) < 4 && id >> 4 < 2)
      memory.set(spec, specs + k.JPEG_GREY_HUFFMAN.value + slot * k.JPEG_GREY_HUFFMAN_BYTES.value);
  }
  const result = k.jpegGrey(
    base + start,
    base + file.length,
    width,
    height,
    frame.ids.length,
    specs,
    base + work,
    base + out,
  );
  if (result < 0)
    throw new JpegGreyError(
      `corrupt JPEG data: ${['a code in no Huffman table', 'a run past the end of a block', 'it ends early'][-result - 1]}`,
    );
  return {
    kind: 'indexed',
    width,
    height,
    pixels: memory.slice(base + out, base + out + width * height),
    palette: [...GREY_RAMP],
  };
}
