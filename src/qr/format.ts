import { ECC_INDEX, MAX_VERSION } from './version.js';
import type { EccLevel } from '../model/vocabulary.js';

/** The two-bit ECC indicator of the format information (ISO 18004 Table 12) — not the L<M<Q<H order. */
const ECC_FORMAT_BITS: readonly number[] = [0b01, 0b00, 0b11, 0b10];

/** BCH(15,5) with generator 0x537, masked with 0x5412 so the format field is never all light. */
const FORMAT = new Uint16Array(32);
for (let eccIndex = 0; eccIndex < 4; eccIndex++) {
  for (let mask = 0; mask < 8; mask++) {
    const data = (ECC_FORMAT_BITS[eccIndex] << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    FORMAT[eccIndex * 8 + mask] = ((data << 10) | rem) ^ 0x5412;
  }
}

/** BCH(18,6) with generator 0x1F25; versions below 7 carry no version information. */
const VERSION = new Uint32Array(MAX_VERSION + 1);
for (let v = 7; v <= MAX_VERSION; v++) {
  let rem = v;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  VERSION[v] = (v << 12) | rem;
}

/** The 15 format-information bits, bit 14 the most significant. */
export const formatBits = (ecc: EccLevel, mask: number): number => FORMAT[ECC_INDEX[ecc] * 8 + mask];

/** The 18 version-information bits for versions 7–40, bit 17 the most significant. */
export const versionBits = (version: number): number => VERSION[version];
