import { ApiError } from '../errors.js';
import { NO_INSETS, type Insets, type Layout } from '../model/layout.js';
import { LIMITS } from '../model/limits.js';

export interface LayoutInput {
  outputWidth?: number;
  outputHeight?: number;
  pixelsPerModule?: number;
  quietZone: number;
}

/**
 * How the size fields combine:
 * - width = outputWidth, else modules × pixelsPerModule when only that is given, else 800;
 * - height = outputHeight, else the width;
 * - module size = pixelsPerModule, else the largest whole number of pixels that fits the smaller side of
 *   the area left after `insets` (a frame's bands), where the symbol counts its quiet zone (`quietZone`
 *   modules, at least 4, on each side).
 */
export function computeLayout(
  size: number,
  input: LayoutInput,
  insets: (width: number, height: number) => Insets = () => NO_INSETS,
): Layout {
  const span = size + 2 * input.quietZone;
  const ppm = input.pixelsPerModule;
  const width = input.outputWidth ?? (ppm ? span * ppm : 800);
  const height = input.outputHeight ?? width;
  const inset = insets(width, height);
  const areaW = width - inset.left - inset.right;
  const areaH = height - inset.top - inset.bottom;
  const side = Math.min(areaW, areaH);
  if (width > LIMITS.outputPx.max || height > LIMITS.outputPx.max) {
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${span} modules at ${ppm} px each make a ${width} px image; the maximum is ${LIMITS.outputPx.max} px.`,
      field: 'pixelsPerModule',
    });
  }
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
