import { composite, effectiveContrast, greyLevel, WHITE, type Rgba } from '../../model/color.js';
import { MIN_CONTRAST } from '../../model/contrast.js';
import type { Layout } from '../../model/layout.js';
import type { Raster } from '../../model/raster.js';
import type { FileFormat } from '../../model/vocabulary.js';
import { type DecodedAt, decodes, decodesAsDelivered, FAST, planReads, zbarDecodedAt } from './plan.js';
import { MIN_QUIET_ZONE, quietZoneModules, quietZoneOf } from './quiet-zone.js';
import { READ_AS_FILE, scan } from './read.js';
import { ZbarImage } from './zbar.js';
import { scanScore, scanTrials, type ScanTrial } from './score.js';

/*
 * The verifier: every export is decoded from its own pixels, by two decoder families of different lineage,
 * before it leaves. read.ts turns the raster into the grey images a reader sees, plan.ts decides which of
 * them zxing decodes and how, zbar.ts is the second family, quiet-zone.ts and score.ts measure the margin
 * and the robustness; this module runs them in order and reports.
 */

/** The decoder families every export is read by: zxing-cpp (through zxing-wasm) and zbar. */
export const DECODERS = ['zxing', 'zbar'] as const;
export type Decoder = (typeof DECODERS)[number];

export type { DecodedAt };

/**
 * One decoder family's reading of the export. zxing must read it at its own size (`full`, or `reduced` when
 * from afar too); zbar at its own size and from afar (`reduced`), or it has not read it (plan.ts).
 */
export interface DecoderReading {
  /** This decoder read a payload equal to the content, byte for byte. */
  decoded: boolean;
  decodedAt: DecodedAt;
}

/** What the verifier found, returned to the client with every successful render. */
export interface Verification {
  /** Every decoder family read a payload equal to the content, byte for byte. */
  decoded: boolean;
  /** The weaker of the decoders' readings: `reduced` when every one read the reduction too. */
  decodedAt: DecodedAt;
  /** Each decoder family's own reading. */
  decoders: Record<Decoder, DecoderReading>;
  /** WCAG contrast of the foreground against the background, as a viewer sees them. */
  contrastRatio: number;
  /** Width of the light margin around the symbol, in modules. */
  quietZoneModules: number;
  /** Every pixel of the required quiet zone is background-coloured. */
  quietZoneClean: boolean;
  /** Human-readable reasons, empty when everything passed. */
  failures: string[];
  /**
   * Robustness by zxing's trials, 0–100: 25 for decoding as seen from afar (the reduced image), plus 25 for
   * each harsher trial that still decodes: about 2 px per module, a 3×3 blur, contrast halved (blur and dim
   * are tried together first; passing that counts for both). A code that decodes only at full size
   * scores 10.
   */
  scanScore: number;
  scanTrials: ScanTrial[];
}

export interface VerifyInput {
  raster: Raster;
  /**
   * The raster is whole-pixel squares (a flat scene): its reduction averages exact module blocks, so it
   * shows the same geometry as the full-size image and decoding it alone proves the full-size one.
   */
  exact: boolean;
  /** The delivered file's format: it decides how a reader turns the file's pixels into grey (READ_AS_FILE). */
  format: FileFormat;
  layout: Layout;
  expected: Uint8Array;
  foreground: Rgba;
  background: Rgba;
}

/**
 * The checks an export can fail: its colours' contrast, its quiet zone (too narrow, or not clear), and
 * decoding to the content. The guarantee mends a failure by its check (guarantee.ts, LADDER).
 */
export const CHECKS = ['contrast', 'quiet-zone', 'decode'] as const;
export type Check = (typeof CHECKS)[number];

/** One failed check, with the reason the client reads in `Verification.failures`. */
export interface Failure {
  check: Check;
  message: string;
  /** A decode failure: the decoder families that did not read the content (the others did). */
  decoders?: Decoder[];
}

/** A verification, and each of its failures with the check that failed. */
export interface Verdict {
  verification: Verification;
  failures: Failure[];
}

const reading = (decodedAt: DecodedAt): DecoderReading => ({ decoded: decodedAt !== null, decodedAt });

/** The weakest of several readings: null if one did not decode, `full` if one read only at full size. */
const weakest = (all: DecodedAt[]): DecodedAt =>
  all.includes(null) ? null : all.includes('full') ? 'full' : 'reduced';

/** The failure's reason, naming the decoder families that did not read the content, and any that did. */
function notDecodedBy(unread: Decoder[], width: number, height: number): string {
  const image = `the image (${width}×${height} px)`;
  const read = DECODERS.filter((d) => !unread.includes(d));
  return read.length === 0
    ? `neither ${unread.join(' nor ')} decodes ${image} to the content`
    : `${unread.join(' and ')} does not decode ${image} to the content; ${read.join(' and ')} does`;
}

/**
 * Verifies one export: decodes the artifact's own pixels (a box-filtered reduction, as a phone sees the
 * code from afar, and the image as a reader of the delivered file reads it) and requires the payload to
 * equal `expected` byte for byte; measures contrast and the quiet zone.
 */
export async function judgeRaster(input: VerifyInput): Promise<Verdict> {
  const { raster, layout, expected } = input;
  const { width, height } = raster;
  const failures: Failure[] = [];
  const contrast = effectiveContrast(input.foreground, input.background);
  if (contrast < MIN_CONTRAST)
    failures.push({ check: 'contrast', message: `contrast ${contrast.toFixed(2)}:1 is below ${MIN_CONTRAST}:1` });

  const bg = composite(input.background, WHITE);
  const bgGrey = greyLevel(bg);
  const fgGrey = greyLevel(composite(input.foreground, bg));
  const lightOnDark = fgGrey > bgGrey;
  // Every image the checks below read, made in one pass over the raster.
  const { boxes, farProvesNative, zbarNative } = planReads(layout, width, height, input.exact, lightOnDark);
  // zbar's full-size grey is copied from the kernel's pass into zbar's own memory, read there, and freed
  // once the verdict is in.
  const zbarImage = zbarNative ? await ZbarImage.alloc(width, height) : undefined;
  try {
    // A flat raster is filled only inside the symbol and carries no decorations, so its quiet zone is
    // background by construction; anything drawn (shapes, images, frames) is checked pixel by pixel.
    const {
      grey,
      reduced: [reduced, far, zbarFar, layer],
      quietZoneClear,
    } = scan(
      raster,
      READ_AS_FILE[input.format],
      boxes,
      zbarNative,
      input.exact ? undefined : quietZoneOf(layout, bgGrey, fgGrey),
      zbarImage,
    );
    const clean = input.exact || quietZoneClear!;
    if (!clean) failures.push({ check: 'quiet-zone', message: `the ${MIN_QUIET_ZONE}-module quiet zone is not clear` });
    const margin = quietZoneModules(layout);
    if (margin < MIN_QUIET_ZONE)
      failures.push({ check: 'quiet-zone', message: `quiet zone is ${margin} modules, below ${MIN_QUIET_ZONE}` });

    const zxingFar = await decodes(reduced!, FAST, expected);
    const zxingNative =
      (farProvesNative && zxingFar) || (await decodesAsDelivered(layer ?? null, grey, width, height, expected));
    const decoders: Record<Decoder, DecoderReading> = {
      zxing: reading(zxingNative ? (zxingFar ? 'reduced' : 'full') : null),
      zbar: reading(await zbarDecodedAt(zbarFar!, zbarImage ?? null, lightOnDark, expected)),
    };
    const unread = DECODERS.filter((d) => !decoders[d].decoded);
    if (unread.length)
      failures.push({ check: 'decode', message: notDecodedBy(unread, width, height), decoders: unread });
    const decodedAt = weakest(DECODERS.map((d) => decoders[d].decodedAt));

    const trials = decoders.zxing.decodedAt === 'reduced' ? await scanTrials(reduced!, far!, expected) : [];
    return {
      verification: {
        decoded: unread.length === 0,
        decodedAt,
        decoders,
        contrastRatio: Math.round(contrast * 100) / 100,
        quietZoneModules: margin,
        quietZoneClean: clean,
        failures: failures.map((f) => f.message),
        scanScore: scanScore(decoders.zxing.decodedAt, trials),
        scanTrials: trials,
      },
      failures,
    };
  } finally {
    zbarImage?.free();
  }
}

/** The verification alone, as the client receives it: for callers that report it and correct nothing. */
export const verifyRaster = async (input: VerifyInput): Promise<Verification> =>
  (await judgeRaster(input)).verification;
