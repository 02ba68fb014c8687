import { backgroundImageDecoration } from './background-image.js';
import type { Decorations } from './decorations.js';
import type { ModuleGrid } from './grid.js';
import { logoDecoration } from './logo.js';
import type { Layout } from '../model/layout.js';
import type { RenderAssets, RenderConfig } from '../model/render-config.js';

const NONE: Decorations = { layers: { below: [], above: [] }, corrections: [], warnings: [] };

/** The background image under the code; the logo (with its plate and cleared modules) over it. */
export async function imageDecorations(
  cfg: RenderConfig,
  assets: RenderAssets,
  grid: ModuleGrid,
  layout: Layout,
): Promise<Decorations> {
  const [background, logo] = await Promise.all([
    assets.background ? backgroundImageDecoration(cfg, assets.background, layout, assets.fields?.background) : NONE,
    assets.logo ? logoDecoration(cfg, assets.logo, grid, layout, assets.fields?.logo) : NONE,
  ]);
  return {
    layers: { below: background.layers.below, above: logo.layers.above },
    ...(logo.cleared && { cleared: logo.cleared }),
    corrections: [...background.corrections, ...logo.corrections],
    warnings: [...background.warnings, ...logo.warnings],
  };
}
