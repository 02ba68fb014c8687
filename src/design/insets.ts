/**
 * The canvas space a design's frame, caption and rounded outline take, apart from their drawing (text.ts):
 * the sizing rule (src/render/layout.ts, designLayout) needs it wherever a canvas is sized, in a worker and
 * on the main thread (the pool's estimate of a render's canvas), and needs no font for it.
 */
import { frameOf } from './frames.js';
import { DEFAULT_CAPTION, U, type FrameSpace } from './frames/parts.js';
import { roundOutline } from './round-shape.js';
import type { Insets } from '../model/layout.js';
import type { RenderConfig } from '../model/render-config.js';

/** ctaText, or the default caption of a frame with a place for text. */
export const captionText = (cfg: RenderConfig): string | undefined =>
  cfg.ctaText ?? (frameOf(cfg.frameStyle).slot ? DEFAULT_CAPTION : undefined);

/** The square of the code block (symbol and quiet zone), or the rounded outline around it, for a block of side `block`. */
export const outlineOf = (cfg: RenderConfig, block: number) =>
  roundOutline(cfg.qrShapeRadius, block) ?? { side: block, corner: 0 };

export function frameSpace(cfg: RenderConfig, width: number, height: number): FrameSpace {
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
