import { centerBand } from './center-text.js';
import type { Decorations } from './decorations.js';
import { frameOf } from './frames.js';
import { DEFAULT_CAPTION, U, type Caption, type CodeBox, type FrameSpace } from './frames/parts.js';
import { emitLoop } from './geometry/path.js';
import type { ModuleGrid } from './grid.js';
import { roundOutline, roundShapeLayers } from './round-shape.js';
import { lineOutline, missingWarning, setLine, type TextLine } from './typeset.js';
import { parseHex } from '../model/color.js';
import { backgroundColors, legibilityWarning } from '../model/contrast.js';
import type { Affine, Layer, PathLayer } from '../model/layer.js';
import type { Insets, Layout } from '../model/layout.js';
import { solid } from '../model/paint.js';
import type { RenderConfig } from '../model/render-config.js';

/** A caption's capitals fill this share of its box's height (of the ring's thickness on a circular frame). */
const CAP_SHARE = 0.4;
/** A caption may shrink to this share of its size to fit before it is cut short. */
const MIN_SHARE = 0.6;
/** Longest arc a circular caption may take, in radians: the lower 150° of the ring. */
const ARC = (150 * Math.PI) / 180;

/** ctaText, or the default caption of a frame with a place for text. */
const captionText = (cfg: RenderConfig): string | undefined =>
  cfg.ctaText ?? (frameOf(cfg.frameStyle).slot ? DEFAULT_CAPTION : undefined);

/** The square of the code block (symbol and quiet zone), or the rounded outline around it, for a block of side `block`. */
const outlineOf = (cfg: RenderConfig, block: number) =>
  roundOutline(cfg.qrShapeRadius, block) ?? { side: block, corner: 0 };

function frameSpace(cfg: RenderConfig, width: number, height: number): FrameSpace {
  const outline = outlineOf(cfg, 1);
  return {
    width,
    height,
    u: Math.min(width, height) / 100,
    caption: captionText(cfg) !== undefined,
    corner: outline.corner / outline.side,
  };
}

/**
 * Canvas space the frame and the caption need, plus the margin that leaves room for the rounded outline
 * of qrShapeRadius around the code block: all of it comes out of the code's size, never the canvas's.
 */
export function textInsets(cfg: RenderConfig, width: number, height: number): Insets {
  const f = frameOf(cfg.frameStyle).insets(frameSpace(cfg, width, height));
  const area = Math.min(width - f.left - f.right, height - f.top - f.bottom);
  const growth = outlineOf(cfg, 1).side;
  // A rounded outline keeps a margin of its own, so it never runs into the canvas edge or the frame.
  const round = growth > 1 ? (area - (area - 2 * U.margin * frameSpace(cfg, width, height).u) / growth) / 2 : 0;
  // Whole pixels, so the layout keeps every module on the pixel grid.
  return {
    top: Math.ceil(f.top + round),
    right: Math.ceil(f.right + round),
    bottom: Math.ceil(f.bottom + round),
    left: Math.ceil(f.left + round),
  };
}

/** The square of the symbol and its quiet zone, or the rounded outline around it, in canvas pixels. */
function codeBox(cfg: RenderConfig, layout: Layout): CodeBox {
  const half = (layout.size * layout.modulePx) / 2;
  const { side, corner } = outlineOf(cfg, (layout.size + 2 * layout.quietZone) * layout.modulePx);
  return { x: layout.originX + half - side / 2, y: layout.originY + half - side / 2, side, corner };
}

/**
 * The rounded outline (qrShapeRadius), the frame and its caption below the code, and the centre-text band
 * above it.
 */
export function textDecorations(cfg: RenderConfig, grid: ModuleGrid, layout: Layout): Decorations {
  const below: Layer[] = roundShapeLayers(cfg, grid, layout);
  const warnings: string[] = [];
  const drawing = frameOf(cfg.frameStyle).draw(codeBox(cfg, layout), frameSpace(cfg, layout.width, layout.height));
  if (drawing.shapes.length) {
    const d: string[] = [];
    for (const l of drawing.shapes) emitLoop(d, l);
    below.push({
      kind: 'path',
      space: 'canvas',
      d: d.join(''),
      paint: solid(parseHex(cfg.frameColor ?? cfg.primaryColor)),
    });
  }
  const text = captionText(cfg);
  if (drawing.caption && text) below.push(...captionLayers(cfg, drawing.caption, text, warnings));
  const band = centerBand(cfg, grid, layout);
  return {
    layers: { below, above: band.layers.above },
    ...(band.cleared && { cleared: band.cleared }),
    corrections: band.corrections,
    warnings: [...warnings, ...band.warnings],
  };
}

/** The caption's colour: the background's on a filled band (opaque, or it would vanish), else the text colours the request set. */
function captionPaint(cfg: RenderConfig, filled: boolean) {
  if (cfg.frameTextColor) return solid(parseHex(cfg.frameTextColor));
  return filled
    ? solid({ ...parseHex(cfg.backgroundColor), a: 255 })
    : solid(parseHex(cfg.ctaTextColor ?? cfg.primaryColor));
}

/** The caption, when anything of it can be drawn. */
function captionLayers(cfg: RenderConfig, caption: Caption, text: string, warnings: string[]): PathLayer[] {
  const room = caption.kind === 'line' ? caption.box.h : caption.height;
  const capEm = setLine(text, cfg.fontFamily, { size: 1, minSize: 1, maxWidth: Infinity }).capHeight || 0.7;
  const size = (CAP_SHARE * room) / capEm;
  const pad = CAP_SHARE * room;
  const maxWidth = caption.kind === 'line' ? caption.box.w - 2 * pad : caption.radius * ARC;
  const line = setLine(text, cfg.fontFamily, { size, minSize: size * MIN_SHARE, maxWidth });
  if (line.truncated) warnings.push(`ctaText was shortened to "${line.text}" to fit the frame.`);
  warnings.push(...missingWarning('ctaText', line));
  if (!line.glyphs.length) return [];
  const filled = caption.kind === 'arc' || caption.filled;
  const paint = captionPaint(cfg, filled);
  const under = filled ? [parseHex(cfg.frameColor ?? cfg.primaryColor)] : backgroundColors(cfg).map((b) => b.color);
  warnings.push(
    ...legibilityWarning(
      cfg.frameTextColor ? 'frameTextColor' : filled ? 'the frame text' : 'ctaTextColor',
      paint.color,
      under,
    ),
  );
  return [
    {
      kind: 'path',
      space: 'canvas',
      d: lineOutline(line, caption.kind === 'line' ? straight(line, caption.box) : alongRing(line, caption)),
      paint,
    },
  ];
}

/** Centred in the box, the capitals centred on its middle. */
const straight = (line: TextLine, box: { x: number; y: number; w: number; h: number }) => {
  const left = box.x + (box.w - line.width) / 2;
  const baseline = box.y + box.h / 2 + line.capHeight / 2;
  return (x: number): Affine => [1, 0, 0, 1, left + x, baseline];
};

/**
 * Along the lower half of a ring, reading left to right, each glyph upright towards the centre: its
 * capitals centred on the ring's middle, spaced by arc length on that middle circle.
 */
const alongRing = (line: TextLine, ring: Extract<Caption, { kind: 'arc' }>) => {
  const baseline = ring.radius + line.capHeight / 2;
  return (x: number, advance: number): Affine => {
    const turn = -(x + advance / 2 - line.width / 2) / ring.radius;
    const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
    const px = ring.cx - baseline * sin;
    const py = ring.cy + baseline * cos;
    return [cos, sin, -sin, cos, px - (cos * advance) / 2, py - (sin * advance) / 2];
  };
};
