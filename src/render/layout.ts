import { textInsets } from '../design/insets.js';
import { ApiError } from '../errors.js';
import { NO_INSETS, type Insets, type Layout } from '../model/layout.js';
import { LIMITS } from '../model/limits.js';
import type { RenderConfig } from '../model/render-config.js';

export interface LayoutInput {
  outputWidth?: number;
  outputHeight?: number;
  pixelsPerModule?: number;
  quietZone: number;
}

/** Canvas space a frame, caption or rounded outline takes on each side of a canvas of this size. */
type InsetsOf = (width: number, height: number) => Insets;

const DEFAULT_WIDTH = 800;

/** The side of the largest square the code may take on a canvas of this size, once the insets are taken. */
function roomFor(width: number, height: number, insets: InsetsOf): number {
  const i = insets(width, height);
  return Math.min(width - i.left - i.right, height - i.top - i.bottom);
}

/**
 * The canvas width when only pixelsPerModule sets it: the block (modules and quiet zone at that pitch), or,
 * when a frame, caption or rounded outline takes space around the code, the smallest width that holds
 * them and the block at that pitch. Decorations scale with the canvas, so the width is found by search:
 * a proportional estimate, then pixel steps. A width past the limit is returned for the caller to refuse;
 * when it is a fixed outputHeight, not the width, that cannot hold the block, the block is returned.
 */
function widthForPitch(block: number, outputHeight: number | undefined, insets: InsetsOf): number {
  const room = (w: number) => roomFor(w, outputHeight ?? w, insets);
  const bare = room(block);
  if (bare >= block) return block;
  let w = bare > 0 ? Math.ceil((block * block) / bare) : block;
  while (room(w) < block) {
    if (w > LIMITS.outputPx.max) return outputHeight === undefined ? w : block;
    w++;
  }
  while (w > block && room(w - 1) >= block) w--;
  return w;
}

/**
 * How the size fields combine:
 * - width = outputWidth, else, when pixelsPerModule is given, the modules (quiet zone included) at that
 *   pitch, widened to hold the frame, caption and rounded outline around them; else 800;
 * - height = outputHeight, else the width;
 * - module size = pixelsPerModule, else the largest whole number of pixels that fits the smaller side of
 *   the area left after `insets` (a frame's bands), where the symbol counts its quiet zone (`quietZone`
 *   modules, at least 4, on each side).
 */
export function computeLayout(size: number, input: LayoutInput, insets: InsetsOf = () => NO_INSETS): Layout {
  const span = size + 2 * input.quietZone;
  const ppm = input.pixelsPerModule;
  const width = input.outputWidth ?? (ppm ? widthForPitch(span * ppm, input.outputHeight, insets) : DEFAULT_WIDTH);
  const height = input.outputHeight ?? width;
  if (width > LIMITS.outputPx.max || height > LIMITS.outputPx.max) {
    const around = width > span * ppm! ? ', with the frame, caption or rounded outline around them,' : '';
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${span} modules at ${ppm} px each${around} make a ${width} px image; the maximum is ${LIMITS.outputPx.max} px.`,
      field: 'pixelsPerModule',
    });
  }
  const inset = insets(width, height);
  const areaW = width - inset.left - inset.right;
  const areaH = height - inset.top - inset.bottom;
  const side = Math.min(areaW, areaH);
  const fit = Math.floor(side / span);
  if (fit < 1) {
    const field = input.outputWidth === undefined && input.outputHeight !== undefined ? 'outputHeight' : 'outputWidth';
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `This content needs ${span} modules including the quiet zone, so at least ${span} px per side.`,
      field,
    });
  }
  if (ppm !== undefined && ppm > fit) {
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${span} modules at ${ppm} px do not fit in ${side} px; at most ${fit} px per module.`,
      field: 'pixelsPerModule',
    });
  }
  const modulePx = ppm ?? fit;
  return {
    size,
    quietZone: input.quietZone,
    modulePx,
    width,
    height,
    originX: inset.left + Math.floor((areaW - size * modulePx) / 2),
    originY: inset.top + Math.floor((areaH - size * modulePx) / 2),
  };
}

/**
 * Where a design's symbol of `size` modules sits on its canvas, with the room its frame, caption and
 * rounded outline take: the sizing rule every render follows (pipeline.ts, placeSymbol), and by which the
 * pool tells a high-resolution render before it runs (pool.ts).
 */
export const designLayout = (cfg: RenderConfig, size: number): Layout =>
  computeLayout(size, cfg, (w, h) => textInsets(cfg, w, h));
