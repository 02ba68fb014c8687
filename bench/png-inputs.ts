/** The rasters the PNG benchmark encodes, built the way a render builds them. */
import { initWasm } from '../wasm/index.js';
import { decorate } from '../src/design/decorations.js';
import { gridFromSymbol } from '../src/design/grid.js';
import { encode } from '../src/qr/encode.js';
import { parseHex } from '../src/render/color.js';
import { encodePng } from '../src/render/formats/png.js';
import { computeLayout } from '../src/render/layout.js';
import { rasterizeFlat, rasterizeSvg, type Raster } from '../src/render/raster.js';
import { buildScene } from '../src/render/scene.js';
import { sceneToSvg } from '../src/render/svg.js';
import type { RenderConfig } from '../src/render/types.js';
import { QR_DEFAULTS } from '../src/schema/qr-config.js';

export const STANDARD = 'https://example.com/some/path?utm_source=qr&id=12345';

await initWasm();
const config: RenderConfig = { ...QR_DEFAULTS, content: STANDARD, outputWidth: 800 };
/** The styled case of bench/render.bench.ts. */
const styled: RenderConfig = {
  ...config,
  moduleShape: 'rounded',
  finderOuterShape: 'extra-rounded',
  finderInnerShape: 'dot',
  eccLevel: 'H',
  foregroundGradient: { type: 'linear', rotation: 45, stops: [{ offset: 0, color: '#0D47A1' }, { offset: 1, color: '#6A1B9A' }] },
};
/** A 128 px logo: a filled disc, as a real PNG upload would arrive. */
const logo = (() => {
  const n = 128;
  const pixels = new Uint8Array(n * n);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) pixels[y * n + x] = Math.hypot(x - 63.5, y - 63.5) < 60 ? 1 : 0;
  return encodePng({ kind: 'indexed', width: n, height: n, pixels, palette: [parseHex('#FFFFFF00'), parseHex('#C62828')] });
})();

async function rasterOf(cfg: RenderConfig, assets: { logo?: Uint8Array }): Promise<Raster> {
  const symbol = encode(cfg.content, { ecc: cfg.eccLevel });
  const plain = gridFromSymbol(symbol);
  const layout = computeLayout(symbol.size, cfg);
  const decorations = await decorate(cfg, assets, plain, layout);
  if (decorations.corrections.length) throw new Error(`the bench case must render as given: ${JSON.stringify(decorations.corrections)}`);
  const grid = decorations.cleared ? { ...plain, cleared: decorations.cleared } : plain;
  const scene = buildScene(grid, layout, cfg, 1, decorations.layers);
  return scene.flat ? rasterizeFlat(grid, scene) : rasterizeSvg(sceneToSvg(scene), layout.width);
}

export const inputs = {
  /** Anti-aliased gradient code with a logo: opaque, thousands of colours. */
  styled: await rasterOf(styled, { logo }),
  /** The same on a transparent background: RGBA with partial alpha along every edge. */
  transparent: await rasterOf({ ...styled, backgroundColor: '#FFFFFF00' }, { logo }),
  /** The standard request: two colours, 1-bit palette. */
  standard: await rasterOf(config, {}),
};
