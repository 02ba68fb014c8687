import type { EccLevel } from '../model/vocabulary.js';

/**
 * What each module of the symbol is, so the design layer can style function patterns apart from data
 * (finder eyes, separate colours for timing and alignment patterns) and never restyle what a decoder
 * needs intact.
 */
// biome-ignore lint/suspicious/noConstEnum: tsc inlines the roles into the encoder's loops; no other package reads them.
export const enum ModuleRole {
  Data = 0,
  Finder = 1,
  Separator = 2,
  Timing = 3,
  Alignment = 4,
  Format = 5,
  Version = 6,
  DarkModule = 7,
}

/** An encoded QR symbol: a size × size grid, row-major, no quiet zone. */
export interface QrSymbol {
  version: number;
  size: number;
  ecc: EccLevel;
  mask: number;
  /** 1 = dark, 0 = light; index y * size + x. */
  modules: Uint8Array;
  /** ModuleRole per module; index y * size + x. */
  roles: Uint8Array;
  /** Whether the payload needed an ECI 26 (UTF-8) designator. */
  eci: boolean;
}

export interface EncodeOptions {
  ecc: EccLevel;
  /** Smallest version to use (1–40); the encoder goes higher when the data needs it. */
  minVersion?: number;
  /** Mask pattern 0–7; omitted, the one with the lowest ISO 18004 penalty is chosen. */
  mask?: number;
}

/** Thrown when the payload does not fit version 40 at the requested ECC level. */
export class DataTooLongError extends Error {
  constructor(
    readonly bitsNeeded: number,
    readonly bitsAvailable: number,
  ) {
    super(`payload needs ${bitsNeeded} bits; version 40 holds ${bitsAvailable} at this ECC level`);
    this.name = 'DataTooLongError';
  }
}
