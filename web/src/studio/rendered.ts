/** The engine's answer to a Studio render (POST /api/studio/render, responseType base64), as the pages use it. */
import type { Correction } from '../../../src/model/render-config.js';

export interface Verification {
  decoded: boolean;
  decodedAt: 'reduced' | 'full' | null;
  decoders?: Record<string, { decoded: boolean; decodedAt: 'reduced' | 'full' | null }>;
  contrastRatio: number;
  quietZoneModules: number;
  quietZoneClean: boolean;
  failures: string[];
  scanScore: number;
}

export interface Rendered {
  qrBase64: string;
  contentType: string;
  width: number;
  height: number;
  version: number;
  eccLevel: string;
  sizeBytes: number;
  verification: Verification;
  corrections: Correction[];
  warnings: string[];
}

/** The least contrast, and quiet zone, the engine's verification asks for (src/render/verify). */
export const MIN_CONTRAST = 4;
export const MIN_QUIET_ZONE = 4;

/** Whether the file passed every check of the engine's verification: read by every decoder, nothing failed. */
export const isVerified = (r: Rendered): boolean => r.verification.decoded && r.verification.failures.length === 0;

/** The file's bytes, from the answer's base64. */
export function bytesOf(r: Rendered): Uint8Array<ArrayBuffer> {
  const text = atob(r.qrBase64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
