import type { BitBuffer } from './bit-buffer.js';

export const MODE_NUMERIC = 1;
export const MODE_ALPHANUMERIC = 2;
export const MODE_BYTE = 4;
const MODE_ECI = 7;
export type DataMode = typeof MODE_NUMERIC | typeof MODE_ALPHANUMERIC | typeof MODE_BYTE;

/** ECI 26 (UTF-8): mode indicator 0111 then the one-byte designator form 0xxxxxxx (ISO 18004 7.4.2). */
const ECI_UTF8_DESIGNATOR = 26;
export const ECI_HEADER_BITS = 4 + 8;

/** Character-count field width per mode, indexed by version class (1–9, 10–26, 27–40). */
const COUNT_BITS: Readonly<Record<DataMode, readonly [number, number, number]>> = {
  [MODE_NUMERIC]: [10, 12, 14],
  [MODE_ALPHANUMERIC]: [9, 11, 13],
  [MODE_BYTE]: [8, 16, 16],
};

/** Alphanumeric value of each byte, -1 outside the 45-character set. */
const ALNUM_VALUE = new Int8Array(256).fill(-1);
'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'.split('').forEach((ch, i) => {
  ALNUM_VALUE[ch.charCodeAt(0)] = i;
});

/** A run of the payload bytes [start, end) encoded in one mode. */
export interface Segment {
  mode: DataMode;
  start: number;
  end: number;
}

export interface Segmentation {
  segments: Segment[];
  /** Bits of all segment headers and data, excluding any ECI header, terminator and padding. */
  bits: number;
}

// DP states: the mode of the segment the current byte ends, plus how far into a numeric group of 3 or an
// alphanumeric pair it is. The next character's exact cost depends on that residue (a digit costs 4, 3, 3
// bits in turn), so tracking it makes the result exactly optimal rather than optimal up to rounding, as
// with the 10/3- and 11/2-bit averages Nayuki's makeSegmentsOptimally charges.
const S_BYTE = 0;
const S_NUM1 = 1;
const S_NUM2 = 2;
const S_NUM0 = 3;
const S_ALNUM1 = 4;
const S_ALNUM0 = 5;
const STATES = 6;
const S_START = 7;
const NEW_SEGMENT = 8;
const STATE_MODE: readonly DataMode[] = [
  MODE_BYTE,
  MODE_NUMERIC,
  MODE_NUMERIC,
  MODE_NUMERIC,
  MODE_ALPHANUMERIC,
  MODE_ALPHANUMERIC,
];
const INF = 0x3fffffff;

/**
 * Splits `data` into numeric / alphanumeric / byte segments with the fewest total bits for the given
 * version class (dynamic programming over bytes; O(n)).
 *
 * Count-field overflow needs no check: a segment too long for its count field (e.g. 256 bytes in versions
 * 1–9) is already longer in bits than the largest version of that class can hold, so it never gets used.
 */
export function optimalSegments(data: Uint8Array, versionClass: number): Segmentation {
  const n = data.length;
  if (n === 0) return { segments: [], bits: 0 };
  const headByte = 4 + COUNT_BITS[MODE_BYTE][versionClass];
  const headNum = 4 + COUNT_BITS[MODE_NUMERIC][versionClass];
  const headAlnum = 4 + COUNT_BITS[MODE_ALPHANUMERIC][versionClass];
  const from = new Uint8Array(n * STATES);

  let cByte = INF,
    cNum1 = INF,
    cNum2 = INF,
    cNum0 = INF,
    cAlnum1 = INF,
    cAlnum0 = INF;
  let best = 0;
  let bestState = S_START;
  for (let i = 0; i < n; i++) {
    const c = data[i];
    const at = i * STATES;

    let nByte: number;
    if (cByte <= best + headByte) {
      nByte = cByte + 8;
      from[at + S_BYTE] = S_BYTE;
    } else {
      nByte = best + headByte + 8;
      from[at + S_BYTE] = bestState | NEW_SEGMENT;
    }

    let nNum1 = INF,
      nNum2 = INF,
      nNum0 = INF;
    if (c >= 0x30 && c <= 0x39) {
      if (cNum0 <= best + headNum) {
        nNum1 = cNum0 + 4;
        from[at + S_NUM1] = S_NUM0;
      } else {
        nNum1 = best + headNum + 4;
        from[at + S_NUM1] = bestState | NEW_SEGMENT;
      }
      nNum2 = cNum1 + 3;
      from[at + S_NUM2] = S_NUM1;
      nNum0 = cNum2 + 3;
      from[at + S_NUM0] = S_NUM2;
    }

    let nAlnum1 = INF,
      nAlnum0 = INF;
    if (ALNUM_VALUE[c] >= 0) {
      if (cAlnum0 <= best + headAlnum) {
        nAlnum1 = cAlnum0 + 6;
        from[at + S_ALNUM1] = S_ALNUM0;
      } else {
        nAlnum1 = best + headAlnum + 6;
        from[at + S_ALNUM1] = bestState | NEW_SEGMENT;
      }
      nAlnum0 = cAlnum1 + 5;
      from[at + S_ALNUM0] = S_ALNUM1;
    }

    cByte = nByte;
    cNum1 = nNum1;
    cNum2 = nNum2;
    cNum0 = nNum0;
    cAlnum1 = nAlnum1;
    cAlnum0 = nAlnum0;
    best = cByte;
    bestState = S_BYTE;
    if (cNum1 < best) {
      best = cNum1;
      bestState = S_NUM1;
    }
    if (cNum2 < best) {
      best = cNum2;
      bestState = S_NUM2;
    }
    if (cNum0 < best) {
      best = cNum0;
      bestState = S_NUM0;
    }
    if (cAlnum1 < best) {
      best = cAlnum1;
      bestState = S_ALNUM1;
    }
    if (cAlnum0 < best) {
      best = cAlnum0;
      bestState = S_ALNUM0;
    }
  }

  const segments: Segment[] = [];
  let state = bestState;
  let end = n;
  for (let i = n - 1; i >= 0; i--) {
    const f = from[i * STATES + state];
    if (f & NEW_SEGMENT) {
      segments.push({ mode: STATE_MODE[state], start: i, end });
      end = i;
    }
    state = f & 7;
  }
  segments.reverse();
  return { segments, bits: best };
}

export function writeEciUtf8(buf: BitBuffer): void {
  buf.put(MODE_ECI, 4);
  buf.put(ECI_UTF8_DESIGNATOR, 8);
}

export function writeSegment(buf: BitBuffer, data: Uint8Array, seg: Segment, versionClass: number): void {
  const { mode, start, end } = seg;
  buf.put(mode, 4);
  buf.put(end - start, COUNT_BITS[mode][versionClass]);
  if (mode === MODE_BYTE) {
    for (let i = start; i < end; i++) buf.put(data[i], 8);
  } else if (mode === MODE_NUMERIC) {
    let i = start;
    for (; i + 3 <= end; i += 3) buf.put((data[i] - 48) * 100 + (data[i + 1] - 48) * 10 + (data[i + 2] - 48), 10);
    if (end - i === 2) buf.put((data[i] - 48) * 10 + (data[i + 1] - 48), 7);
    else if (end - i === 1) buf.put(data[i] - 48, 4);
  } else {
    let i = start;
    for (; i + 2 <= end; i += 2) buf.put(ALNUM_VALUE[data[i]] * 45 + ALNUM_VALUE[data[i + 1]], 11);
    if (i < end) buf.put(ALNUM_VALUE[data[i]], 6);
  }
}
