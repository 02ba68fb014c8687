import { decodes, FAST } from './plan.js';
import { blurDim, type GreyImage } from './read.js';

const FAR = 'from further away (about 2 px per module)';
const BLURRED = 'slightly out of focus (3×3 blur)';
const DIM = 'in dim light (contrast halved)';
const BLURRED_AND_DIM = 'out of focus and in dim light at once (counts for both)';

/** One harsher reading of a code that decodes from afar, and whether the code survived it. */
export interface ScanTrial {
  name: string;
  decoded: boolean;
}

/**
 * The harsher trials of a code that decodes from afar (`reduced`): `far`, about 2 px per module, then a
 * blur and dimmed contrast of the reduction.
 */
export async function scanTrials(reduced: GreyImage, far: GreyImage, expected: Uint8Array): Promise<ScanTrial[]> {
  const trials: ScanTrial[] = [{ name: FAR, decoded: await decodes(far, FAST, expected) }];
  // Blur and dim at once: a code that survives both together survives each alone, so one decode
  // settles the usual case and only a weaker code pays for the two separate trials.
  if (await decodes(blurDim(reduced, true, true), FAST, expected))
    trials.push({ name: BLURRED_AND_DIM, decoded: true });
  else {
    trials.push({ name: BLURRED, decoded: await decodes(blurDim(reduced, true, false), FAST, expected) });
    trials.push({ name: DIM, decoded: await decodes(blurDim(reduced, false, true), FAST, expected) });
  }
  return trials;
}

/**
 * Robustness, 0–100: 25 for decoding as seen from afar (the reduced image), plus 25 for each harsher
 * trial that still decodes (blur and dim passed together count for both). A code that decodes only at
 * full size scores 10, one that does not decode 0.
 */
export function scanScore(decodedAt: 'reduced' | 'full' | null, trials: ScanTrial[]): number {
  const passed = trials.reduce((n, t) => n + (t.decoded ? (t.name === BLURRED_AND_DIM ? 2 : 1) : 0), 0);
  return decodedAt === 'reduced' ? 25 + 25 * passed : decodedAt === 'full' ? 10 : 0;
}
