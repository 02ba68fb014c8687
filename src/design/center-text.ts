import type { Decorations } from './decorations.js';
import { coverageRecoverable } from './ecc-budget.js';
import type { ModuleGrid } from './grid.js';
import { lineOutline, missingWarning, setLine, type TextLine } from './typeset.js';
import { composite, parseHex, WHITE } from '../model/color.js';
import { backgroundColors, legibilityWarning } from '../model/contrast.js';
import type { Layout } from '../model/layout.js';
import { solid } from '../model/paint.js';
import type { Correction, RenderConfig } from '../model/render-config.js';

/** Capitals fill this share of the band's height. */
const CAP_SHARE = 0.5;
/** Space left and right of the text, in cap heights. */
const SIDE_PAD = 0.6;
/** Default cap height as a share of the symbol's width, before the error-correction budget shrinks it. */
const DEFAULT_CAP = 0.06;
/** Each try shrinks the text by this factor. */
const STEP = 0.92;
/**
 * Text is not shrunk below a cap height of this share of the symbol's width (nor below 6 px, the schema's
 * minimum font size): smaller would be unreadable, so longer text is cut short instead.
 */
const MIN_CAP = 0.018;
const MIN_SIZE = 6;

const oddAtLeast = (v: number) => Math.max(1, 2 * Math.ceil((v - 1) / 2) + 1);

/**
 * The band's cells for a line: the smallest centred rectangle of whole modules holding the text and its
 * padding. The symbol's size is odd, so an odd width and height centre it exactly on a module.
 */
function bandCells(line: TextLine, modulePx: number): { w: number; h: number } {
  return {
    w: oddAtLeast((line.width + 2 * SIDE_PAD * line.capHeight) / modulePx),
    h: oddAtLeast(line.capHeight / CAP_SHARE / modulePx),
  };
}

/**
 * Rows the band may use: clear of the finder patterns, their separators and format information (rows
 * 0–8 and the last 8), and of the version information of versions 7 and up (3 more rows at the bottom).
 */
const freeRows = (size: number) => size - 17 - (size >= 45 ? 3 : 0);

/** A line of centre text as it fits, the cells of its band and the modules the band covers. */
interface FittedBand {
  line: TextLine;
  cells: { w: number; h: number };
  covered: Uint8Array;
  /** The text was made smaller than asked because a larger band would hide too many modules. */
  eccLimited: boolean;
  /** The smallest size the text may take in this symbol. */
  minSize: number;
}

/** The centre text set at 1 px: what of it can be drawn, and its proportions. */
const probeOf = (cfg: RenderConfig, text: string): TextLine =>
  setLine(text, cfg.fontFamily, { size: 1, minSize: 1, maxWidth: Infinity });

/**
 * Whether a centre-text band will be drawn: some character of the text is in a bundled face. Text of
 * nothing else (characters no face has, spaces) leaves the band out (fitBand, with a warning), hides no
 * modules, and needs no more error correction than the request's.
 */
export const drawsCenterText = (cfg: RenderConfig): boolean =>
  cfg.centerText !== undefined && probeOf(cfg, cfg.centerText.text).glyphs.length > 0;

/**
 * Fits the centre text's band like a logo: the largest text, from centerText.fontSize or a default, whose
 * band leaves every error-correction block able to recover what it hides with margin (see ecc-budget.ts);
 * smaller text first, then text cut short with an ellipsis; a warning when not even that fits or nothing
 * of the text can be drawn.
 */
function fitBand(cfg: RenderConfig, grid: ModuleGrid, layout: Layout): FittedBand | { warnings: string[] } | null {
  const spec = cfg.centerText;
  if (!spec) return null;
  const { size } = grid;
  const mp = layout.modulePx;
  const symbolPx = size * mp;
  const probe = probeOf(cfg, spec.text);
  if (probe.glyphs.length === 0) return { warnings: missingWarning('centerText.text', probe) };
  const capEm = probe.capHeight || 0.7;
  let fontSize = spec.fontSize ?? (DEFAULT_CAP * symbolPx) / capEm;
  const min = Math.min(fontSize, Math.max(MIN_SIZE, (MIN_CAP * symbolPx) / capEm));
  let maxWidth = symbolPx;
  let eccLimited = false;
  for (;;) {
    const line = setLine(spec.text, cfg.fontFamily, {
      size: fontSize,
      minSize: fontSize,
      maxWidth: maxWidth - 2 * SIDE_PAD * capEm * fontSize,
    });
    const cells = bandCells(line, mp);
    const shrinkFirst = line.truncated && fontSize > min;
    if (!shrinkFirst && cells.h <= freeRows(size) && cells.w <= size) {
      const covered = bandMask(size, cells);
      if (coverageRecoverable(size, cfg.eccLevel, covered)) return { line, cells, covered, eccLimited, minSize: min };
      eccLimited = true;
    }
    if (fontSize > min) fontSize = Math.max(min, fontSize * STEP);
    else if (line.glyphs.length > 1) maxWidth *= STEP;
    else {
      return {
        warnings: [
          `centerText was left out: at ECC ${cfg.eccLevel} this symbol (${size}×${size} modules) cannot give up the modules even a band with ${Math.round(min)} px text would hide. A larger minVersion makes room.`,
        ],
      };
    }
  }
}

/** Text on a band across the centre of the code; the band's modules are cleared (see fitBand). */
export function centerBand(cfg: RenderConfig, grid: ModuleGrid, layout: Layout): Decorations {
  const none: Decorations = { layers: { below: [], above: [] }, corrections: [], warnings: [] };
  const fitted = fitBand(cfg, grid, layout);
  if (!fitted) return none;
  if (!('line' in fitted)) return { ...none, warnings: fitted.warnings };
  return draw(cfg, cfg.centerText!, fitted, layout);
}

/** Each step of the ladder's "shrink the centre text" makes the text this much smaller. */
const LADDER_STEP = 0.75;

/**
 * The size the centre text is drawn at for this design and the size one step smaller, or null when it is
 * drawn at its smallest already (or not at all). The ladder's rung: decoders lose their way when the text's strokes
 * lie where they look for the central alignment pattern (versions 7 and up hide it under any centred band),
 * and smaller text leaves fewer such strokes as well as fewer covered modules.
 */
export function smallerCenterText(
  cfg: RenderConfig,
  grid: ModuleGrid,
  layout: Layout,
): { drawn: number; smaller: number } | null {
  const fitted = fitBand(cfg, grid, layout);
  if (!fitted || !('line' in fitted)) return null;
  const tenth = (v: number) => Math.round(v * 10) / 10;
  const drawn = tenth(fitted.line.size);
  const smaller = tenth(Math.max(fitted.minSize, fitted.line.size * LADDER_STEP));
  return smaller < drawn ? { drawn, smaller } : null;
}

function bandMask(size: number, { w, h }: { w: number; h: number }): Uint8Array {
  const mask = new Uint8Array(size * size);
  const [x0, y0] = [(size - w) / 2, (size - h) / 2];
  for (let y = y0; y < y0 + h; y++) mask.fill(1, y * size + x0, y * size + x0 + w);
  return mask;
}

function draw(
  cfg: RenderConfig,
  spec: NonNullable<RenderConfig['centerText']>,
  { line, cells, covered, eccLimited }: FittedBand,
  layout: Layout,
): Decorations {
  const { size } = layout;
  const [x0, y0] = [(size - cells.w) / 2, (size - cells.h) / 2];
  const cx = layout.originX + (size * layout.modulePx) / 2;
  const baseline = layout.originY + (size * layout.modulePx) / 2 + line.capHeight / 2;
  const left = cx - line.width / 2;
  const corrections: Correction[] = [];
  const warnings: string[] = [];
  if (spec.fontSize !== undefined && line.size < spec.fontSize) {
    const reason = eccLimited
      ? `a larger band would hide more modules than error correction (ECC ${cfg.eccLevel}) recovers with margin`
      : 'the text is wider than the code at that size';
    corrections.push({
      field: 'centerText.fontSize',
      from: spec.fontSize,
      to: Math.round(line.size * 10) / 10,
      reason,
    });
  }
  if (line.truncated) warnings.push(`centerText was shortened to "${line.text}" to fit the code.`);
  warnings.push(...missingWarning('centerText.text', line));
  const bandColor = parseHex(spec.backgroundColor ?? cfg.backgroundColor);
  const textColor = parseHex(spec.color ?? cfg.primaryColor);
  // A translucent band shows the background through it.
  warnings.push(
    ...legibilityWarning(
      'centerText.color',
      textColor,
      backgroundColors(cfg).map((b) => composite(bandColor, composite(b.color, WHITE))),
    ),
  );
  return {
    layers: {
      below: [],
      above: [
        {
          kind: 'path',
          space: 'symbol',
          d: `M${x0} ${y0}h${cells.w}v${cells.h}h${-cells.w}z`,
          paint: solid(bandColor),
        },
        {
          kind: 'path',
          space: 'canvas',
          d: lineOutline(line, (x) => [1, 0, 0, 1, left + x, baseline]),
          paint: solid(textColor),
        },
      ],
    },
    cleared: covered,
    corrections,
    warnings,
  };
}
