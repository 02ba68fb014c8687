import { effectiveContrast, parseHex, type Rgba } from './color.js';
import type { GradientSpec, RenderConfig } from './render-config.js';

/**
 * The least contrast a code may have: the verifier fails a render below it and the guarantee deepens the
 * colours up to it.
 */
export const MIN_CONTRAST = 4;

/** One foreground colour against one background colour, with the fields they came from. */
export interface ContrastPair {
  ratio: number;
  foreground: Rgba;
  background: Rgba;
  field: string;
}

const colors = (
  field: string,
  color: string | undefined,
  gradient: GradientSpec | undefined,
): { field: string; color: Rgba }[] =>
  gradient
    ? gradient.stops.map((s, i) => ({ field: `${field}.stops.${i}.color`, color: parseHex(s.color) }))
    : color
      ? [{ field, color: parseHex(color) }]
      : [];

/** Every colour a dark module can show, with the field that set it. */
export function foregroundColors(cfg: RenderConfig) {
  return [
    ...colors(cfg.foregroundGradient ? 'foregroundGradient' : 'primaryColor', cfg.primaryColor, cfg.foregroundGradient),
    ...colors(
      cfg.finderOuterGradient ? 'finderOuterGradient' : 'finderOuterColor',
      cfg.finderOuterColor,
      cfg.finderOuterGradient,
    ),
    ...colors(
      cfg.finderInnerGradient ? 'finderInnerGradient' : 'finderInnerColor',
      cfg.finderInnerColor,
      cfg.finderInnerGradient,
    ),
    ...(cfg.finderEyes ?? []).flatMap((e, i) => [
      ...colors(`finderEyes.${i}.outerColor`, e.outerColor, undefined),
      ...colors(`finderEyes.${i}.innerColor`, e.innerColor, undefined),
    ]),
    ...colors('alignmentColor', cfg.alignmentColor, undefined),
    ...colors('timingColor', cfg.timingColor, undefined),
  ];
}

export const backgroundColors = (cfg: RenderConfig) =>
  colors(
    cfg.backgroundGradient ? 'backgroundGradient' : 'backgroundColor',
    cfg.backgroundColor,
    cfg.backgroundGradient,
  );

/**
 * The weakest foreground/background pairing of the design: every foreground colour (each gradient stop,
 * each eye, alignment and timing colours) against every background colour it may sit on. Light-on-dark
 * designs are measured the same way; the decoder reads both.
 */
export function weakestContrast(cfg: RenderConfig): ContrastPair {
  let worst: ContrastPair | undefined;
  for (const bg of backgroundColors(cfg)) {
    for (const fg of foregroundColors(cfg)) {
      const ratio = effectiveContrast(fg.color, bg.color);
      if (!worst || ratio < worst.ratio) worst = { ratio, foreground: fg.color, background: bg.color, field: fg.field };
    }
  }
  return worst!;
}

/** WCAG AA for text. Text is decoration, not part of the code, so a shortfall is warned about, not corrected. */
export const TEXT_CONTRAST = 4.5;

/** A warning when text of colour `text` reads at less than TEXT_CONTRAST against any colour it sits on. */
export function legibilityWarning(field: string, text: Rgba, under: Rgba[]): string[] {
  const ratio = Math.min(...under.map((u) => effectiveContrast(text, u)));
  return ratio < TEXT_CONTRAST
    ? [
        `${field} has ${ratio.toFixed(2)}:1 contrast with what it sits on, below the ${TEXT_CONTRAST}:1 that text needs to read easily.`,
      ]
    : [];
}
