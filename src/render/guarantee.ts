import { drawsCenterText, smallerCenterText } from '../design/center-text.js';
import { eccHFor } from '../design/ecc-budget.js';
import { luminance, parseHex, toHex, type Rgba } from '../model/color.js';
import { backgroundColors, MIN_CONTRAST, weakestContrast } from '../model/contrast.js';
import type { Correction, GradientSpec, RenderAssets, RenderConfig } from '../model/render-config.js';
import { MM_PER_INCH, widthInInches } from '../model/print-size.js';
import { ECC_LEVELS } from '../model/vocabulary.js';
import { measure } from '../qr/encode.js';
import { placeSymbol, renderOnce, type Rendered } from './pipeline.js';
import { type PrintCheck, printCheck } from './print-check.js';
import type { RenderOutcome, RenderTask } from './types.js';
import { type Check, DECODERS, type Decoder, type Failure, type Verification } from './verify/index.js';

interface Step {
  config: RenderConfig;
  corrections: Correction[];
}

/** Below this relative luminance a background counts as dark, so the foreground deepens toward white. */
const MID_LUMINANCE = 0.18;
const DEEPEN_BY = 0.35;
const MAX_CONTRAST_STEPS = 8;

const mix = (c: Rgba, to: number, t: number): Rgba => ({
  r: Math.round(c.r + (to - c.r) * t),
  g: Math.round(c.g + (to - c.g) * t),
  b: Math.round(c.b + (to - c.b) * t),
  a: c.a + Math.round((255 - c.a) * t),
});

/**
 * Moves every foreground colour (primary, gradient stops, eyes, alignment, timing) a step toward black, or
 * toward white on a dark background: the hue stays recognisable while the contrast grows.
 */
function deepen(cfg: RenderConfig): Step | null {
  const bgs = backgroundColors(cfg);
  const bgLum = bgs.reduce((sum, b) => sum + luminance(b.color), 0) / bgs.length;
  const target = bgLum > MID_LUMINANCE ? 0 : 255;
  const corrections: Correction[] = [];
  const step = (field: string, hex: string | undefined): string | undefined => {
    if (!hex) return hex;
    const to = toHex(mix(parseHex(hex), target, DEEPEN_BY));
    if (to.toLowerCase() !== hex.toLowerCase())
      corrections.push({ field, from: hex, to, reason: 'deepened for contrast with the background' });
    return to;
  };
  const stepGradient = (field: string, g: GradientSpec | undefined): GradientSpec | undefined =>
    g && { ...g, stops: g.stops.map((s, i) => ({ ...s, color: step(`${field}.stops.${i}.color`, s.color)! })) };
  const config: RenderConfig = {
    ...cfg,
    primaryColor: step('primaryColor', cfg.primaryColor)!,
    foregroundGradient: stepGradient('foregroundGradient', cfg.foregroundGradient),
    finderOuterColor: step('finderOuterColor', cfg.finderOuterColor),
    finderInnerColor: step('finderInnerColor', cfg.finderInnerColor),
    finderOuterGradient: stepGradient('finderOuterGradient', cfg.finderOuterGradient),
    finderInnerGradient: stepGradient('finderInnerGradient', cfg.finderInnerGradient),
    finderEyes: cfg.finderEyes?.map((e, i) => ({
      ...e,
      outerColor: step(`finderEyes.${i}.outerColor`, e.outerColor),
      innerColor: step(`finderEyes.${i}.innerColor`, e.innerColor),
    })),
    alignmentColor: step('alignmentColor', cfg.alignmentColor),
    timingColor: step('timingColor', cfg.timingColor),
  };
  for (const k of Object.keys(config) as (keyof RenderConfig)[]) if (config[k] === undefined) delete config[k];
  return corrections.length ? { config, corrections } : null;
}

const change = <K extends keyof RenderConfig>(
  cfg: RenderConfig,
  field: K,
  to: RenderConfig[K],
  reason: string,
): Step => ({ config: { ...cfg, [field]: to }, corrections: [{ field, from: cfg[field], to, reason }] });

/** One rung of the ladder: the corrected config, or null when it has nothing left to give. */
type Rung = (cfg: RenderConfig, assets: RenderAssets) => Step | null;

/** The finder eyes' centres or rings made square, the pattern every decoder looks for. */
const squareEyes =
  (field: 'finderInnerShape' | 'finderOuterShape'): Rung =>
  (cfg) =>
    cfg[field] === 'square'
      ? null
      : change(cfg, field, 'square', 'decoders find square finder patterns, with their 1:1:3:1:1 runs, most reliably');

/**
 * The auto-fix ladder, least visible change first. Each rung names the checks whose failure it can mend
 * (verify/index.ts, Check): a failed render climbs only the rungs that mend one of its failures, and the
 * guarantee re-renders and re-verifies after every step.
 *
 * - contrast is measured on the design's colours alone, so only deepening them mends it;
 * - the quiet zone fails when something drawn reaches into it: a shape's anti-aliased edge past the
 *   symbol (module and eye shapes, which round codes also use for their decoration), or the background
 *   image. Squaring the shapes and fading the image remove it, deepening the foreground moves the
 *   threshold it is read against, and raising ECC draws every module at another pitch (a larger version),
 *   which moves the edges; the smallest of these changes, so it is tried first. A logo sits inside the
 *   symbol, and module scale and size variation only ever make modules larger as they are corrected, so
 *   they cannot mend it;
 * - decoding can be mended by every rung: each changes what the decoder sees of the modules. When one
 *   decoder family reads the code and another does not, the rungs of LEGIBILITY_FIRST come first.
 */
export const LADDER: { name: string; mends: readonly Check[]; rung: Rung }[] = [
  {
    name: 'raise ECC',
    mends: ['decode', 'quiet-zone'],
    rung: (cfg) => {
      const next = ECC_LEVELS[ECC_LEVELS.indexOf(cfg.eccLevel) + 1];
      if (!next) return null;
      const { bitsNeeded, bitsAvailable } = measure(cfg.content, next);
      return bitsNeeded > bitsAvailable
        ? null
        : change(cfg, 'eccLevel', next, 'more error correction recovers modules the design obscures');
    },
  },
  {
    name: 'shrink the logo',
    mends: ['decode'],
    rung: (cfg, assets) =>
      assets.logo && cfg.logoSizePercent > 8
        ? change(
            cfg,
            'logoSizePercent',
            Math.max(8, Math.round(cfg.logoSizePercent * 0.75)),
            'a smaller logo covers fewer modules',
          )
        : null,
  },
  {
    name: 'shrink the centre text',
    mends: ['decode'],
    rung: (cfg) => {
      if (!cfg.centerText) return null;
      const { grid, layout } = placeSymbol(cfg);
      const size = smallerCenterText(cfg, grid, layout);
      return size === null
        ? null
        : {
            config: { ...cfg, centerText: { ...cfg.centerText, fontSize: size.smaller } },
            corrections: [
              {
                field: 'centerText.fontSize',
                from: cfg.centerText.fontSize ?? size.drawn,
                to: size.smaller,
                reason: 'smaller text on the centre band hides fewer modules and leaves decoders fewer false patterns',
              },
            ],
          };
    },
  },
  {
    name: 'reduce moduleSizeVariation',
    mends: ['decode'],
    rung: (cfg) =>
      cfg.moduleSizeVariation > 0
        ? change(
            cfg,
            'moduleSizeVariation',
            cfg.moduleSizeVariation < 0.04 ? 0 : Math.round((cfg.moduleSizeVariation / 2) * 1000) / 1000,
            'uneven modules are harder to sample',
          )
        : null,
  },
  {
    name: 'raise moduleScale',
    mends: ['decode'],
    rung: (cfg) =>
      cfg.moduleScale < 1
        ? change(
            cfg,
            'moduleScale',
            Math.min(1, Math.round((cfg.moduleScale + 0.15) * 100) / 100),
            'larger modules read more reliably',
          )
        : null,
  },
  {
    name: 'fade the background image',
    mends: ['decode', 'quiet-zone'],
    rung: (cfg, assets) =>
      assets.background && cfg.backgroundImageOpacity > 0.08
        ? change(
            cfg,
            'backgroundImageOpacity',
            Math.round(cfg.backgroundImageOpacity * 50) / 100,
            'the image competed with the modules',
          )
        : null,
  },
  { name: 'deepen the foreground colour', mends: ['contrast', 'quiet-zone', 'decode'], rung: (cfg) => deepen(cfg) },
  { name: 'square the finder centres', mends: ['decode', 'quiet-zone'], rung: squareEyes('finderInnerShape') },
  { name: 'square the finder rings', mends: ['decode', 'quiet-zone'], rung: squareEyes('finderOuterShape') },
  {
    name: 'square the modules',
    mends: ['decode', 'quiet-zone'],
    rung: (cfg) =>
      cfg.moduleShape !== 'square'
        ? change(cfg, 'moduleShape', 'square', 'the last resort: plain square modules')
        : null,
  },
];

/**
 * Raises contrast before rendering: a design under 4:1 is deepened step by step; one that cannot reach
 * 4:1 even then (a background spanning dark and light) is LOW_CONTRAST.
 */
function fixContrast(cfg: RenderConfig): Step | RenderOutcome {
  const corrections: Correction[] = [];
  let config = cfg;
  for (let i = 0; i < MAX_CONTRAST_STEPS && weakestContrast(config).ratio < MIN_CONTRAST; i++) {
    const step = deepen(config);
    if (!step) break;
    config = step.config;
    corrections.push(...step.corrections);
  }
  const weakest = weakestContrast(config);
  if (weakest.ratio >= MIN_CONTRAST) return { config, corrections: collapse(corrections) };
  return {
    ok: false,
    code: 'LOW_CONTRAST',
    message: `${weakest.field} cannot reach ${MIN_CONTRAST}:1 contrast with the background (best ${weakest.ratio.toFixed(2)}:1); choose colours further apart.`,
    field: weakest.field,
  };
}

/** Several steps on one field read as one correction: from the first value to the last. */
function collapse(cs: Correction[]): Correction[] {
  const byField = new Map<string, Correction>();
  for (const c of cs) {
    const seen = byField.get(c.field);
    byField.set(c.field, seen ? { ...seen, to: c.to } : c);
  }
  return [...byField.values()];
}

/**
 * The most steps the ladder takes for one design before it gives up with QR_UNSCANNABLE. Each step is a
 * full render and verification, so this bounds what one request costs (at most this many renders after
 * the first). The rungs together could give about twice as much, mostly deepening a colour a step at a
 * time; the hardest design of the random corpus (test/corpus) is mended in 16 steps.
 */
export const MAX_LADDER_STEPS = 20;

/**
 * The rungs climbed first, in this order, when one decoder family reads the code and another does not.
 * The families differ most in how they find the finder patterns (zbar scans lines for the 1:1:3:1:1 runs
 * of a square eye, which rounded and pointed eyes break) and how they sample small modules, so the
 * eyes go toward square, centres before rings, and the modules toward full scale, before anything else.
 */
export const LEGIBILITY_FIRST = ['square the finder centres', 'square the finder rings', 'raise moduleScale'];

/**
 * The rungs that can mend at least one of the failed checks, in ladder order; when `oneFamilyReads`, the
 * rungs of LEGIBILITY_FIRST before the others.
 */
export const rungsFor = (failed: Iterable<Check>, oneFamilyReads = false): typeof LADDER => {
  const checks = new Set(failed);
  const rungs = LADDER.filter((r) => r.mends.some((c) => checks.has(c)));
  if (!oneFamilyReads) return rungs;
  const first = LEGIBILITY_FIRST.flatMap((name) => rungs.filter((r) => r.name === name));
  return [...first, ...rungs.filter((r) => !first.includes(r))];
};

/** The decoder families that did not read the content: none when the code decoded. */
const unreadBy = (failures: Failure[]): Decoder[] => failures.find((f) => f.check === 'decode')?.decoders ?? [];

/** Some decoder family read the content, byte for byte. */
const readBySome = (v: Verification) => DECODERS.some((d) => v.decoders[d].decoded);

/** Renders and verifies one config; the guarantee calls it once, then again after every ladder step. */
export type Attempt = (config: RenderConfig, assets: RenderAssets) => Promise<Rendered>;

/**
 * The scannability guarantee: no export leaves unverified. With `strictScannability` (the default) a design
 * that fails a check, one decoder family's reading included, is corrected along the ladder, re-rendered
 * and re-verified by both families, and every change is reported; without it, problems are reported as
 * warnings (naming a family that does not read it) as long as one family reads the code. When nothing
 * works, or after MAX_LADDER_STEPS steps: QR_UNSCANNABLE naming what failed and the families that did not
 * read it.
 */
export async function render(
  task: RenderTask,
  // Every step keeps the task's stop flag, so a render whose client left stops between ladder steps too.
  attempt: Attempt = (config, assets) => renderOnce({ ...task, config, assets }),
): Promise<RenderOutcome> {
  const corrections: Correction[] = [];
  const warnings: string[] = [];
  let cfg = task.config;
  const band = eccForBand(cfg);
  if (band) {
    cfg = { ...cfg, eccLevel: 'H' };
    corrections.push(band);
  }
  const weakest = weakestContrast(cfg);
  if (weakest.ratio < MIN_CONTRAST) {
    if (cfg.strictScannability) {
      const fixed = fixContrast(cfg);
      if ('ok' in fixed) return fixed;
      cfg = fixed.config;
      corrections.push(...fixed.corrections);
    } else {
      warnings.push(
        `${weakest.field} has a contrast of ${weakest.ratio.toFixed(2)}:1 with the background, below ${MIN_CONTRAST}:1.`,
      );
    }
  }

  for (let steps = 0; ; steps++) {
    const { success: out, failures } = await attempt(cfg, task.assets);
    const v = out.verification;
    const done = failures.length === 0 || (!cfg.strictScannability && readBySome(v));
    if (done) {
      const notes = cfg.strictScannability
        ? []
        : failures.filter((f) => f.check !== 'contrast').map((f) => `verification: ${f.message}`);
      const print = cfg.printCheck && (await printCheck({ ...task, config: cfg }, cfg.printCheck.distanceCm));
      const tooSmall = print && printedTooSmall(cfg, print);
      if (tooSmall && cfg.strictScannability)
        return { ok: false, code: 'QR_UNSCANNABLE', message: tooSmall, field: 'printSize.width' };
      return {
        ...out,
        ...(print && { print }),
        corrections: collapse([...corrections, ...out.corrections]),
        warnings: [...warnings, ...out.warnings, ...notes, ...(tooSmall ? [tooSmall] : [])],
      };
    }
    const capped = steps === MAX_LADDER_STEPS;
    const next = cfg.strictScannability && !capped ? nextStep(cfg, task.assets, failures) : null;
    if (!next) {
      const tried = corrections.length
        ? ` after ${corrections.length} correction(s) (${[...new Set(corrections.map((c) => c.field))].join(', ')})`
        : '';
      const gaveUp = capped ? ` (the auto-fix stops after ${MAX_LADDER_STEPS} steps)` : '';
      const unread = unreadBy(failures);
      return {
        ok: false,
        code: 'QR_UNSCANNABLE',
        message: `No scannable QR code could be made${tried}${gaveUp}: ${v.failures.join('; ')}.`,
        ...(unread.length > 0 && { failedDecoders: unread }),
      };
    }
    cfg = next.config;
    corrections.push(...next.corrections);
  }
}

/** Why the design's printSize is too small to be read from the print check's distance; null when it is not. */
function printedTooSmall(cfg: RenderConfig, print: PrintCheck): string | null {
  if (!cfg.printSize) return null;
  const mm = widthInInches(cfg.printSize) * MM_PER_INCH;
  const at = `from ${print.distanceCm} cm`;
  if (print.minWidthMm === null) return `A phone is not expected to read this design ${at} at any printed size.`;
  if (mm >= print.minWidthMm) return null;
  return `Printed ${Math.round(mm * 10) / 10} mm wide, this design is not expected to be read by a phone ${at}: print it at least ${print.minWidthMm} mm wide.`;
}

/**
 * A centre-text band covers modules, so it raises ECC to H as a logo does (schema/prepare-render.ts); decided
 * here, where the fonts are, from what will be drawn: text no bundled face has, or only spaces, leaves no
 * band, and the requested level stands (the band's warning names the field). Content that does not fit at
 * H is refused by the encoder (CONTENT_TOO_LONG), as before.
 */
const eccForBand = (cfg: RenderConfig): Correction | null =>
  drawsCenterText(cfg) ? eccHFor(cfg.eccLevel, 'the centre-text band') : null;

/** The first step a rung that can mend one of the failures still has to give. */
function nextStep(cfg: RenderConfig, assets: RenderAssets, failures: Failure[]): Step | null {
  const unread = unreadBy(failures);
  const rungs = rungsFor(
    failures.map((f) => f.check),
    unread.length > 0 && unread.length < DECODERS.length,
  );
  for (const { rung } of rungs) {
    const step = rung(cfg, assets);
    if (step) return step;
  }
  return null;
}
