import type { Decorations } from './decorations.js';
import type { ModuleGrid } from './grid.js';
import type { Layout } from '../render/layout.js';
import type { RenderAssets, RenderConfig } from '../render/types.js';

/** The logo (with its plate and cleared modules) and the background image. */
export async function imageDecorations(_cfg: RenderConfig, _assets: RenderAssets, _grid: ModuleGrid, _layout: Layout): Promise<Decorations> {
  return { layers: { below: [], above: [] }, corrections: [], warnings: [] };
}
