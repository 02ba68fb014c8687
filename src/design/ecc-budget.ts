import type { Correction } from '../model/render-config.js';
import type { EccLevel } from '../model/vocabulary.js';
import { versionTemplate } from '../qr/matrix.js';
import { ecBlockCount, ecCodewordsPerBlock, totalCodewords } from '../qr/version.js';

/**
 * Share of each Reed–Solomon block's correctable errors a design may spend on covered modules; the rest
 * stays for what print, light and the camera add. Measured: centred bands spending the whole budget still
 * decoded in every version and mask tried (1–40, light and dark bands), so a quarter is kept as margin.
 */
export const DESIGN_SHARE = 0.75;

/**
 * A logo or a centre-text band (`cover`) hides modules, and is sized to what ECC H recovers: the correction
 * raising `level` to H, or null when it is H already.
 */
export const eccHFor = (level: EccLevel, cover: string): Correction | null =>
  level === 'H'
    ? null
    : { field: 'eccLevel', from: level, to: 'H', reason: `${cover} covers modules; ECC H recovers them` };

/**
 * Whether covering some modules (hidden under a band or a logo) leaves the symbol decodable with margin:
 * every codeword with at least one covered module counts as wrong, and no block may have more wrong
 * codewords than `share` of the errors it corrects (half its check codewords). Counted per block because
 * one overloaded block loses the whole message, however light the others are.
 */
export function coverageRecoverable(size: number, ecc: EccLevel, covered: Uint8Array, share = DESIGN_SHARE): boolean {
  const version = (size - 17) / 4;
  const { order } = versionTemplate(version);
  const total = totalCodewords(version);
  const blocks = ecBlockCount(version, ecc);
  const ecLen = ecCodewordsPerBlock(version, ecc);
  const dataTotal = total - ecLen * blocks;
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecLen;
  // Codewords are interleaved (ISO 18004 7.6): data column by column, the long blocks' last codeword after
  // the short blocks have run out, then the check codewords column by column.
  const blockOf = (p: number) =>
    p < shortData * blocks
      ? p % blocks
      : p < dataTotal
        ? shortBlocks + p - shortData * blocks
        : (p - dataTotal) % blocks;
  const wrong = new Uint16Array(blocks);
  for (let p = 0; p < total; p++) {
    for (let b = 0; b < 8; b++) {
      if (covered[order[p * 8 + b]!]) {
        wrong[blockOf(p)]!++;
        break;
      }
    }
  }
  const allowed = Math.floor(share * Math.floor(ecLen / 2));
  return wrong.every((n) => n <= allowed);
}
