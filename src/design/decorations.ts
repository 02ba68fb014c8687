import type { ModuleGrid } from './grid.js';
import { imageDecorations } from './images.js';
import { textDecorations } from './text.js';
import type { ExtraLayers } from '../model/layer.js';
import type { Layout } from '../model/layout.js';
import type { Correction, RenderAssets, RenderConfig } from '../model/render-config.js';

/** What a decoration stage (images; text and frames) adds to a render. */
export interface Decorations {
  layers: ExtraLayers;
  /** Modules a decoration covers (1 = do not draw), e.g. under the logo. */
  cleared?: Uint8Array;
  corrections: Correction[];
  warnings: string[];
}

/**
 * Every decoration of a code already encoded and placed, in paint order: the background image and the
 * frame below the code; the logo and the centre text above it.
 */
export async function decorate(
  cfg: RenderConfig,
  assets: RenderAssets,
  grid: ModuleGrid,
  layout: Layout,
): Promise<Decorations> {
  const images = await imageDecorations(cfg, assets, grid, layout);
  const text = textDecorations(cfg, grid, layout);
  const cleared = images.cleared ?? text.cleared;
  if (images.cleared && text.cleared) for (let i = 0; i < cleared!.length; i++) cleared![i]! |= text.cleared[i]!;
  return {
    layers: {
      below: [...images.layers.below, ...text.layers.below],
      above: [...images.layers.above, ...text.layers.above],
    },
    ...(cleared && { cleared }),
    corrections: [...images.corrections, ...text.corrections],
    warnings: [...images.warnings, ...text.warnings],
  };
}
