/** GF(256) with the QR field polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), generator element α = 2. */
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  // Doubling the table lets products index EXP[log a + log b] without a modulo.
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}

function gfMul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
}

/**
 * Coefficients of ∏(x − α^i), i = 0..degree−1, highest power first with the leading 1 dropped, stored as
 * logarithms: the encoder only ever multiplies by them, and no coefficient of these generators is zero
 * (checked for every degree up to 68, far beyond QR's largest, 30), so the log of 0 never comes up.
 */
const generators = new Map<number, Uint8Array>();

function generatorLogs(degree: number): Uint8Array {
  let logs = generators.get(degree);
  if (logs) return logs;
  const poly = new Uint8Array(degree + 1);
  poly[0] = 1;
  for (let i = 0; i < degree; i++) {
    // Multiply by (x − α^i); subtraction is XOR in GF(2^8).
    for (let j = i + 1; j > 0; j--) poly[j] ^= gfMul(poly[j - 1], EXP[i]);
  }
  logs = new Uint8Array(degree);
  for (let j = 0; j < degree; j++) logs[j] = LOG[poly[j + 1]];
  generators.set(degree, logs);
  return logs;
}

/**
 * Writes the `ecLength` Reed–Solomon check codewords for data[start, end) into `out` at `outOffset`, one
 * every `outStride` bytes — the stride lets the block interleaver receive them in place. `rem` is scratch
 * space of at least `ecLength` bytes, passed in so a symbol's blocks share one.
 */
export function reedSolomon(
  data: Uint8Array,
  start: number,
  end: number,
  ecLength: number,
  rem: Uint8Array,
  out: Uint8Array,
  outOffset: number,
  outStride: number,
): void {
  const gen = generatorLogs(ecLength);
  const last = ecLength - 1;
  rem.fill(0, 0, ecLength);
  // Long division by the generator: shift the remainder one place and subtract factor × generator.
  for (let i = start; i < end; i++) {
    const factor = data[i] ^ rem[0];
    if (factor === 0) {
      for (let j = 0; j < last; j++) rem[j] = rem[j + 1];
      rem[last] = 0;
    } else {
      const lf = LOG[factor];
      for (let j = 0; j < last; j++) rem[j] = rem[j + 1] ^ EXP[lf + gen[j]];
      rem[last] = EXP[lf + gen[last]];
    }
  }
  for (let j = 0; j < ecLength; j++) out[outOffset + j * outStride] = rem[j];
}
