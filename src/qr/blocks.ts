import { reedSolomon } from './reed-solomon.js';
import { ecBlockCount, ecCodewordsPerBlock, totalCodewords } from './version.js';
import type { EccLevel } from '../model/vocabulary.js';

/**
 * Splits the data codewords into the version's RS blocks (the short blocks first, the rest one data
 * codeword longer, ISO 18004 7.5.2), appends each block's check codewords, and interleaves them column by
 * column as 7.6 requires — writing every codeword straight to its final position.
 */
export function interleaveBlocks(data: Uint8Array, version: number, ecc: EccLevel): Uint8Array {
  const total = totalCodewords(version);
  const blocks = ecBlockCount(version, ecc);
  const ecLen = ecCodewordsPerBlock(version, ecc);
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecLen;
  const dataTotal = total - ecLen * blocks;
  const out = new Uint8Array(total);
  const scratch = new Uint8Array(ecLen);

  let offset = 0;
  for (let b = 0; b < blocks; b++) {
    const len = b < shortBlocks ? shortData : shortData + 1;
    for (let i = 0; i < shortData; i++) out[i * blocks + b] = data[offset + i];
    // Only long blocks have this last codeword; the short blocks' column is simply absent.
    if (len > shortData) out[shortData * blocks + (b - shortBlocks)] = data[offset + shortData];
    reedSolomon(data, offset, offset + len, ecLen, scratch, out, dataTotal + b, blocks);
    offset += len;
  }
  return out;
}
