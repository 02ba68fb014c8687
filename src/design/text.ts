import type { Decorations } from './decorations.js';
import type { ModuleGrid } from './grid.js';
import { NO_INSETS, type Insets, type Layout } from '../render/layout.js';
import type { RenderConfig } from '../render/types.js';

/** Canvas space the frame and the caption need. */
export function textInsets(_cfg: RenderConfig, _width: number, _height: number): Insets {
  return NO_INSETS;
}

/** The frame, the caption (ctaText) and the centre-text band. */
export function textDecorations(_cfg: RenderConfig, _grid: ModuleGrid, _layout: Layout): Decorations {
  return { layers: { below: [], above: [] }, corrections: [], warnings: [] };
}
