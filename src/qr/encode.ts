import { BitBuffer } from './bit-buffer.js';
import { interleaveBlocks } from './blocks.js';
import { formatBits } from './format.js';
import { applyMask, bestMask, MASK_COUNT } from './mask.js';
import { drawFormat, placeCodewords, versionTemplate } from './matrix.js';
import { ECI_HEADER_BITS, optimalSegments, writeEciUtf8, writeSegment, type Segmentation } from './segments.js';
import { DataTooLongError, type EncodeOptions, type QrSymbol } from './types.js';
import { CLASS_RANGES, dataCodewords, MAX_VERSION, MIN_VERSION, versionClass } from './version.js';
import type { EccLevel } from '../model/vocabulary.js';

interface Payload {
  data: Uint8Array;
  /** Non-ASCII text travels as UTF-8 behind ECI 26, so no scanner falls back to Latin-1 or Shift JIS. */
  eci: boolean;
}

const utf8 = new TextEncoder();

/** ASCII stays as is; anything else becomes UTF-8 (where a lone surrogate turns into U+FFFD). */
function payload(text: string): Payload {
  const n = text.length;
  const data = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return { data: utf8.encode(text), eci: true };
    data[i] = c;
  }
  return { data, eci: false };
}

const bitsOf = (p: Payload, seg: Segmentation): number => seg.bits + (p.eci ? ECI_HEADER_BITS : 0);

/**
 * Bits the text needs in the largest symbol and the bits version 40 holds at `ecc`: what request
 * validation reports before anything is rendered.
 */
export function measure(text: string, ecc: EccLevel): { bitsNeeded: number; bitsAvailable: number } {
  const p = payload(text);
  return {
    bitsNeeded: bitsOf(p, optimalSegments(p.data, versionClass(MAX_VERSION))),
    bitsAvailable: dataCodewords(MAX_VERSION, ecc) * 8,
  };
}

/** Whether `text` fits some version at `ecc` (then `encode` succeeds whatever `minVersion` is). */
export function fits(text: string, ecc: EccLevel): boolean {
  const { bitsNeeded, bitsAvailable } = measure(text, ecc);
  return bitsNeeded <= bitsAvailable;
}

function checkRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}

/** The data codewords (segments, terminator, padding; before error correction) and the version chosen. */
export interface DataCodewords {
  version: number;
  eci: boolean;
  codewords: Uint8Array;
}

/** The smallest version ≥ minVersion that holds the payload at `ecc`, and its optimal segmentation. */
function fitVersion(p: Payload, ecc: EccLevel, minVersion: number): { version: number; seg: Segmentation } {
  checkRange('minVersion', minVersion, MIN_VERSION, MAX_VERSION);
  let bits = 0;
  for (let cls = versionClass(minVersion); cls < CLASS_RANGES.length; cls++) {
    const seg = optimalSegments(p.data, cls);
    bits = bitsOf(p, seg);
    const [first, last] = CLASS_RANGES[cls];
    for (let v = Math.max(first, minVersion); v <= last; v++) {
      if (bits <= dataCodewords(v, ecc) * 8) return { version: v, seg };
    }
  }
  throw new DataTooLongError(bits, dataCodewords(MAX_VERSION, ecc) * 8);
}

/**
 * The version `encode` chooses for `text`, without encoding it: what sizes the canvas of a render before it
 * runs (src/render/pool.ts).
 */
export const versionFor = (text: string, ecc: EccLevel, minVersion: number = MIN_VERSION): number =>
  fitVersion(payload(text), ecc, minVersion).version;

/** Segments `text` optimally and packs it into the smallest version ≥ minVersion that holds it at `ecc`. */
export function encodeData(text: string, ecc: EccLevel, minVersion: number = MIN_VERSION): DataCodewords {
  const p = payload(text);
  const { version, seg } = fitVersion(p, ecc, minVersion);

  const capacity = dataCodewords(version, ecc);
  const buf = new BitBuffer(capacity);
  const cls = versionClass(version);
  if (p.eci) writeEciUtf8(buf);
  for (const s of seg.segments) writeSegment(buf, p.data, s, cls);
  buf.put(0, Math.min(4, capacity * 8 - buf.length));
  buf.put(0, (8 - (buf.length & 7)) & 7);
  for (let i = buf.length >>> 3, pad = 0xec; i < capacity; i++, pad ^= 0xec ^ 0x11) buf.bytes[i] = pad;
  return { version, eci: p.eci, codewords: buf.bytes };
}

export function encode(text: string, opts: EncodeOptions): QrSymbol {
  const { ecc, minVersion = MIN_VERSION, mask } = opts;
  if (mask !== undefined) checkRange('mask', mask, 0, MASK_COUNT - 1);
  const { version, eci, codewords } = encodeData(text, ecc, minVersion);

  const t = versionTemplate(version);
  const unmasked = t.modules.slice();
  placeCodewords(unmasked, t.order, interleaveBlocks(codewords, version, ecc));
  const chosen = mask ?? bestMask(unmasked, t, ecc);
  const modules = new Uint8Array(unmasked.length);
  applyMask(modules, unmasked, t.masks, chosen);
  drawFormat(modules, t, formatBits(ecc, chosen));

  return { version, size: t.size, ecc, mask: chosen, modules, roles: t.roles.slice(), eci };
}
