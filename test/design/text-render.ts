import type { Decorations } from '../../src/design/decorations.js';
import { gridFromSymbol } from '../../src/design/grid.js';
import { textDecorations } from '../../src/design/text.js';
import type { Layout } from '../../src/model/layout.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { encode } from '../../src/qr/encode.js';
import type { QrSymbol } from '../../src/qr/types.js';
import { designLayout } from '../../src/render/layout.js';
import { buildScene } from '../../src/render/scene.js';
import { sceneToSvg } from '../../src/render/svg.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { lightness, type Raster } from './scan.js';

export const configOf = (design: Partial<RenderConfig> & { content: string }): RenderConfig =>
  ({ ...QR_DEFAULTS, ...design }) as RenderConfig;

export interface Drawn {
  symbol: QrSymbol;
  layout: Layout;
  decorations: Decorations;
  svg: string;
}

/** A design laid out, decorated by the text stage and drawn to SVG, as the pipeline does it. */
export function drawDesign(cfg: RenderConfig): Drawn {
  const symbol = encode(cfg.content, { ecc: cfg.eccLevel, minVersion: cfg.minVersion, mask: cfg.maskPattern });
  const layout = designLayout(cfg, symbol.size);
  const plain = gridFromSymbol(symbol);
  const decorations = textDecorations(cfg, plain, layout);
  const grid = decorations.cleared ? { ...plain, cleared: decorations.cleared } : plain;
  return { symbol, layout, decorations, svg: sceneToSvg(buildScene(grid, layout, cfg, 1, decorations.layers)) };
}

/** Pixel bounds [x0, y0, x1, y1) of the symbol grown by `modules` on every side. */
export function symbolBounds(l: Layout, modules: number): [number, number, number, number] {
  const m = modules * l.modulePx;
  return [l.originX - m, l.originY - m, l.originX + l.size * l.modulePx + m, l.originY + l.size * l.modulePx + m];
}

/** Dark pixels (red channel below half) of the ring between the symbol and `modules` around it: its quiet zone. */
export function darkInQuietZone(r: Raster, l: Layout, modules = 4): number {
  const [x0, y0, x1, y1] = symbolBounds(l, modules);
  const [sx0, sy0, sx1, sy1] = symbolBounds(l, 0);
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) if ((x < sx0 || x >= sx1 || y < sy0 || y >= sy1) && lightness(r, x, y) < 128) n++;
  return n;
}
