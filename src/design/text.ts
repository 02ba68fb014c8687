import { centerBand } from './center-text.js';
import type { Decorations } from './decorations.js';
import { frameOf } from './frames.js';
import type { Caption, CodeBox } from './frames/parts.js';
import { emitLoop } from './geometry/path.js';
import type { ModuleGrid } from './grid.js';
import { captionText, frameSpace, outlineOf } from './insets.js';
import { roundShapeLayers } from './round-shape.js';
import { lineOutline, missingWarning, setLine, type TextLine } from './typeset.js';
import { parseHex } from '../model/color.js';
import { backgroundColors, legibilityWarning } from '../model/contrast.js';
import type { Affine, Layer, PathLayer } from '../model/layer.js';
import type { Layout } from '../model/layout.js';
import { solid } from '../model/paint.js';
import type { RenderConfig } from '../model/render-config.js';

/** A caption's capitals fill this share of its box's height (of the ring's thickness on a circular frame). */
const CAP_SHARE = 0.4;
/** A caption may shrink to this share of its size to fit before it is cut short. */
const MIN_SHARE = 0.6;
/** Longest arc a circular caption may take, in radians: the lower 150° of the ring. */
const ARC = (150 * Math.PI) / 180;

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
