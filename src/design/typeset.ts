import type opentype from 'opentype.js';
import { FALLBACK, fontOf, type FontFamily } from './fonts.js';
import type { Affine } from '../render/scene.js';

/** One glyph on a line; `x` and `advance` in ems (multiply by the line's size for pixels). */
interface Placed { font: opentype.Font; glyph: opentype.Glyph; x: number; advance: number }

/** A single line of text set in a bundled font, ready to be drawn as outlines. */
export interface TextLine {
  /** What was set: the text cleaned up, with an ellipsis when it was cut. */
  text: string;
  /** Font size in pixels. */
  size: number;
  /** Advance width in pixels. */
  width: number;
  /** Height of the capitals above the baseline in pixels: lines are centred on them. */
  capHeight: number;
  glyphs: Placed[];
  /** Characters no bundled font has; each is drawn as a question mark. */
  missing: string[];
  /** The text did not fit at the smallest size and ends in an ellipsis. */
  truncated: boolean;
}

/** How a line is fitted: set at `size`, shrunk towards `minSize` to fit `maxWidth`, then cut. */
export interface Fit { size: number; minSize: number; maxWidth: number }

const ELLIPSIS = '…';
const REPLACEMENT = '?';

/**
 * One line of plain text: composed (NFC), line breaks and other spacing as single spaces, and invisible
 * format and control characters (soft hyphens, zero-width joiners) removed, since a font draws them as
 * boxes or not at all.
 */
export const cleanText = (text: string): string =>
  text.normalize('NFC').replace(/[\s\p{Zs}]+/gu, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();

const glyphIn = (fonts: opentype.Font[], ch: string): { font: opentype.Font; glyph: opentype.Glyph } | undefined => {
  for (const font of fonts) {
    const i = font.charToGlyphIndex(ch);
    if (i > 0) return { font, glyph: font.glyphs.get(i) };
  }
  return undefined;
};

/**
 * The glyphs of one character: from the family, else the fallback family; else its decomposition (a base
 * letter and accents, dropping accents no font has); else a question mark. Never the .notdef box.
 */
function glyphsOf(fonts: opentype.Font[], ch: string, missing: string[]): { font: opentype.Font; glyph: opentype.Glyph }[] {
  const whole = glyphIn(fonts, ch);
  if (whole) return [whole];
  const [base, ...marks] = [...ch.normalize('NFD')];
  const baseGlyph = base !== ch ? glyphIn(fonts, base!) : undefined;
  if (baseGlyph) return [baseGlyph, ...marks.flatMap((m) => glyphIn(fonts, m) ?? [])];
  missing.push(ch);
  return [glyphIn(fonts, REPLACEMENT)!];
}

/** Glyphs of `text` with their em positions, kerned where the font has kerning (GPOS or kern table). */
function place(fonts: opentype.Font[], text: string, missing: string[]): { glyphs: Placed[]; width: number } {
  const glyphs: Placed[] = [];
  let x = 0;
  let prev: { font: opentype.Font; glyph: opentype.Glyph } | undefined;
  for (const ch of text) {
    for (const g of glyphsOf(fonts, ch, missing)) {
      const em = g.font.unitsPerEm;
      if (prev && prev.font === g.font) x += g.font.getKerningValue(prev.glyph, g.glyph) / em;
      const advance = (g.glyph.advanceWidth ?? 0) / em;
      glyphs.push({ ...g, x, advance });
      x += advance;
      prev = g;
    }
  }
  return { glyphs, width: x };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Sets `text` on one line in `family`: at `fit.size` when it fits `fit.maxWidth`, else at the size that
 * fits, no smaller than `fit.minSize`; text still too wide there is cut at a character boundary and ends
 * in an ellipsis.
 */
export function setLine(text: string, family: FontFamily, fit: Fit): TextLine {
  const fonts = family === FALLBACK ? [fontOf(family)] : [fontOf(family), fontOf(FALLBACK)];
  const primary = fonts[0]!;
  const os2 = primary.tables.os2 as { sCapHeight?: number } | undefined;
  const capEm = (os2?.sCapHeight || 0.7 * primary.unitsPerEm) / primary.unitsPerEm;
  const clean = cleanText(text);
  const missing: string[] = [];
  let set = place(fonts, clean, missing);
  const fitting = fit.maxWidth / set.width;
  const size = Math.min(fit.size, Math.max(fit.minSize, fitting));
  let shown = clean;
  const truncated = fitting < fit.minSize;
  if (truncated) {
    // The longest prefix that fits with the ellipsis: a binary search over whole characters.
    const cuts = [...graphemes.segment(clean)].map((s) => s.index);
    let lo = 0;
    let hi = cuts.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (place(fonts, clean.slice(0, cuts[mid]).trimEnd() + ELLIPSIS, []).width * size <= fit.maxWidth) lo = mid;
      else hi = mid - 1;
    }
    shown = clean.slice(0, cuts[lo]).trimEnd() + ELLIPSIS;
    missing.length = 0;
    set = place(fonts, shown, missing);
  }
  return { text: shown, size, width: set.width * size, capHeight: capEm * size, glyphs: set.glyphs, missing: [...new Set(missing)], truncated };
}

const num = (n: number) => String(Math.round(n * 100) / 100);

/**
 * The outlines of a line as SVG path data, to be filled with the nonzero rule. `at` gives each glyph's
 * transform from its own pixel space (origin on the baseline at its pen position, y down) to the layer's.
 * Quadratic curves are raised to cubics (exactly), since PDF has no quadratic operator.
 */
export function lineOutline(line: TextLine, at: (x: number, advance: number) => Affine): string {
  const out: string[] = [];
  for (const g of line.glyphs) {
    const k = line.size / g.font.unitsPerEm;
    const [a, b, c, d, e, f] = at(g.x * line.size, g.advance * line.size);
    // Font units are y-up; the glyph's pixel space is y-down.
    const pt = (x: number, y: number) => `${num(a * x * k - c * y * k + e)} ${num(b * x * k - d * y * k + f)}`;
    let [cx, cy, sx, sy] = [0, 0, 0, 0];
    for (const cmd of g.glyph.path.commands) {
      switch (cmd.type) {
        case 'M':
          out.push(`M${pt(cmd.x, cmd.y)}`);
          [cx, cy, sx, sy] = [cmd.x, cmd.y, cmd.x, cmd.y];
          break;
        case 'L':
          out.push(`L${pt(cmd.x, cmd.y)}`);
          [cx, cy] = [cmd.x, cmd.y];
          break;
        case 'Q':
          out.push(`C${pt(cx + (2 / 3) * (cmd.x1 - cx), cy + (2 / 3) * (cmd.y1 - cy))} ${pt(cmd.x + (2 / 3) * (cmd.x1 - cmd.x), cmd.y + (2 / 3) * (cmd.y1 - cmd.y))} ${pt(cmd.x, cmd.y)}`);
          [cx, cy] = [cmd.x, cmd.y];
          break;
        case 'C':
          out.push(`C${pt(cmd.x1, cmd.y1)} ${pt(cmd.x2, cmd.y2)} ${pt(cmd.x, cmd.y)}`);
          [cx, cy] = [cmd.x, cmd.y];
          break;
        case 'Z':
          out.push('Z');
          [cx, cy] = [sx, sy];
          break;
      }
    }
  }
  return out.join('');
}
