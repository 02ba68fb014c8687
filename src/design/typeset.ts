import type { Font, Glyph } from 'fontkit';
import { facesOf, fontOf } from './fonts.js';
import type { Affine } from '../model/layer.js';
import type { FontFamily } from '../model/vocabulary.js';

/** One glyph on a line; `x`, `y` (its shaped offset, up) and `advance` in ems: multiply by the size for pixels. */
interface Placed {
  font: Font;
  glyph: Glyph;
  x: number;
  y: number;
  advance: number;
}

/** A single line of text set in a bundled font, ready to be drawn as outlines. */
export interface TextLine {
  /** What was set: the text cleaned up, without the `missing` characters, with an ellipsis when it was cut. */
  text: string;
  /** Font size in pixels. */
  size: number;
  /** Advance width in pixels. */
  width: number;
  /** Height of the capitals above the baseline in pixels: lines are centred on them. */
  capHeight: number;
  glyphs: Placed[];
  /** Characters no bundled face has: left out, since a stand-in (a box, a question mark) would read as text. */
  missing: string[];
  /** The text did not fit at the smallest size and ends in an ellipsis. */
  truncated: boolean;
}

/** How a line is fitted: set at `size`, shrunk towards `minSize` to fit `maxWidth`, then cut. */
export interface Fit {
  size: number;
  minSize: number;
  maxWidth: number;
}

const ELLIPSIS = '…';

/**
 * One line of plain text: composed (NFC), line breaks and other spacing as single spaces, and invisible
 * format and control characters (soft hyphens, zero-width joiners, the emoji and text presentation
 * selectors) removed, since a font draws them as boxes or not at all.
 */
export const cleanText = (text: string): string =>
  text
    .normalize('NFC')
    .replace(/[\s\p{Zs}]+/gu, ' ')
    .replace(/[\p{Cc}\p{Cf}\p{Variation_Selector}]/gu, '')
    .trim();

const has = (font: Font, ch: string) => font.hasGlyphForCodePoint(ch.codePointAt(0)!);

/** The first face of `family`'s chain (fonts.ts) that has the character. */
function firstWith(family: FontFamily, ch: string): Font | undefined {
  for (const font of facesOf(family)) if (has(font, ch)) return font;
  return undefined;
}

/**
 * The face that draws a character and what it draws there: the character itself from the first face that
 * has it, else its decomposition (base letter and the accents that face has) from the first face that has
 * the base letter; undefined when no face has either. Never the .notdef box.
 */
function faceFor(family: FontFamily, ch: string): { font: Font; text: string } | undefined {
  const whole = firstWith(family, ch);
  if (whole) return { font: whole, text: ch };
  const [base, ...marks] = [...ch.normalize('NFD')];
  const host = base !== ch ? firstWith(family, base!) : undefined;
  return host && { font: host, text: base + marks.filter((m) => has(host, m)).join('') };
}

/** The text without the characters no face draws (the spaces around them closed up), and those characters. */
function drawable(family: FontFamily, text: string): { text: string; missing: string[] } {
  const missing = [...text].filter((ch) => !faceFor(family, ch));
  if (!missing.length) return { text, missing };
  const absent = new Set(missing);
  return { text: cleanText([...text].filter((ch) => !absent.has(ch)).join('')), missing: [...absent] };
}

/** Splits drawable text into runs, each set in one face. */
function runsOf(family: FontFamily, text: string): { font: Font; text: string }[] {
  const runs: { font: Font; text: string }[] = [];
  for (const ch of text) {
    const face = faceFor(family, ch)!;
    const last = runs[runs.length - 1];
    if (last?.font === face.font) last.text += face.text;
    else runs.push(face);
  }
  return runs;
}

/** Glyphs of `text` with their em positions, shaped by each font (kerning, ligatures, accents placed). */
function place(family: FontFamily, text: string): { glyphs: Placed[]; width: number } {
  const glyphs: Placed[] = [];
  let x = 0;
  for (const run of runsOf(family, text)) {
    const em = run.font.unitsPerEm;
    const set = run.font.layout(run.text);
    set.glyphs.forEach((glyph, i) => {
      const p = set.positions[i]!;
      glyphs.push({ font: run.font, glyph, x: x + p.xOffset / em, y: p.yOffset / em, advance: p.xAdvance / em });
      x += p.xAdvance / em;
    });
  }
  return { glyphs, width: x };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Sets `text` on one line in `family`, each character from the first bundled face that has it (see
 * fonts.ts), those none has left out: at `fit.size` when it fits `fit.maxWidth`, else at the size that
 * fits, no smaller than `fit.minSize`; text still too wide there is cut at a character boundary and ends
 * in an ellipsis.
 */
export function setLine(text: string, family: FontFamily, fit: Fit): TextLine {
  const primary = fontOf(family);
  const capEm = (primary.capHeight || 0.7 * primary.unitsPerEm) / primary.unitsPerEm;
  const { text: clean, missing } = drawable(family, cleanText(text));
  let set = place(family, clean);
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
      if (place(family, clean.slice(0, cuts[mid]).trimEnd() + ELLIPSIS).width * size <= fit.maxWidth) lo = mid;
      else hi = mid - 1;
    }
    shown = clean.slice(0, cuts[lo]).trimEnd() + ELLIPSIS;
    set = place(family, shown);
  }
  return {
    text: shown,
    size,
    width: set.width * size,
    capHeight: capEm * size,
    glyphs: set.glyphs,
    missing,
    truncated,
  };
}

/**
 * The warning a line's missing characters call for, naming the request field it came from: each character
 * with its code point (some are invisible or look alike), and whether anything was left to draw; or, for
 * text of nothing but spaces and invisible characters, that it draws nothing.
 */
export function missingWarning(field: string, line: TextLine): string[] {
  if (!line.missing.length)
    return line.glyphs.length
      ? []
      : [`${field} has nothing to draw (only spaces or invisible characters); it is left out.`];
  const chars = line.missing.map((ch) => `${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
  const outcome = line.glyphs.length ? 'left out of the drawing' : `left out, and nothing of ${field} is left to draw`;
  return [
    `${field}: no bundled typeface has ${chars.join(', ')}; ${line.missing.length > 1 ? 'they are' : 'it is'} ${outcome}.`,
  ];
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
    const lift = g.y * g.font.unitsPerEm;
    const [a, b, c, d, e, f] = at(g.x * line.size, g.advance * line.size);
    // Font units are y-up; the glyph's pixel space is y-down.
    const pt = (x: number, y: number) =>
      `${num(a * x * k - c * (y + lift) * k + e)} ${num(b * x * k - d * (y + lift) * k + f)}`;
    let [cx, cy, sx, sy] = [0, 0, 0, 0];
    for (const { command, args } of g.glyph.path.commands) {
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, x3 = 0, y3 = 0] = args;
      switch (command) {
        case 'moveTo':
          out.push(`M${pt(x1, y1)}`);
          [cx, cy, sx, sy] = [x1, y1, x1, y1];
          break;
        case 'lineTo':
          out.push(`L${pt(x1, y1)}`);
          [cx, cy] = [x1, y1];
          break;
        case 'quadraticCurveTo':
          out.push(
            `C${pt(cx + (2 / 3) * (x1 - cx), cy + (2 / 3) * (y1 - cy))} ${pt(x2 + (2 / 3) * (x1 - x2), y2 + (2 / 3) * (y1 - y2))} ${pt(x2, y2)}`,
          );
          [cx, cy] = [x2, y2];
          break;
        case 'bezierCurveTo':
          out.push(`C${pt(x1, y1)} ${pt(x2, y2)} ${pt(x3, y3)}`);
          [cx, cy] = [x3, y3];
          break;
        case 'closePath':
          out.push('Z');
          [cx, cy] = [sx, sy];
          break;
      }
    }
  }
  return out.join('');
}
