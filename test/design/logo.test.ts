import { beforeAll, describe, expect, it } from 'vitest';
import { coverageRecoverable } from '../../src/design/ecc-budget.js';
import { gridFromSymbol, type ModuleGrid } from '../../src/design/grid.js';
import { clearedModules, hidesNeededPattern, logoArea, logoDecoration } from '../../src/design/logo.js';
import type { ImageLayer, PathLayer } from '../../src/model/layer.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { encode } from '../../src/qr/encode.js';
import { versionTemplate } from '../../src/qr/matrix.js';
import { ModuleRole } from '../../src/qr/types.js';
import { computeLayout } from '../../src/render/layout.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initCodecs } from '../../wasm/index.js';
import { image, png, RED } from '../helpers/make-images.js';

beforeAll(() => initCodecs());

const config = (over: Partial<RenderConfig> = {}): RenderConfig =>
  ({ ...QR_DEFAULTS, content: 'https://example.com/a/logo', eccLevel: 'H', ...over }) as RenderConfig;
const templateGrid = (version: number): ModuleGrid => {
  const t = versionTemplate(version);
  return { size: t.size, modules: t.modules, roles: t.roles };
};

describe('logo area', () => {
  it('clears only data modules, every one the area touches', () => {
    const grid = templateGrid(8);
    const area = logoArea(config({ logoSizePercent: 30 }), grid.size, 30);
    const cleared = clearedModules(grid, area);
    const lo = Math.floor(area.centre - area.side / 2),
      hi = Math.ceil(area.centre + area.side / 2) - 1;
    for (let y = 0; y < grid.size; y++) {
      for (let x = 0; x < grid.size; x++) {
        const i = y * grid.size + x;
        const inside = x >= lo && x <= hi && y >= lo && y <= hi;
        expect(cleared[i], `${x},${y}`).toBe(inside && grid.roles[i] === ModuleRole.Data ? 1 : 0);
      }
    }
    // Version 8 has an alignment pattern at the centre: it sits under the logo, not cleared.
    const c = (grid.size - 1) / 2;
    expect(grid.roles[c * grid.size + c]).toBe(ModuleRole.Alignment);
  });

  it('a circle clears the cells it touches, not the square around it', () => {
    const grid = templateGrid(10);
    const area = logoArea(config({ logoPlateShape: 'circle' }), grid.size, 30);
    const cleared = clearedModules(grid, area);
    const corner = Math.floor(area.centre - area.side / 2);
    expect(cleared[corner * grid.size + corner]).toBe(0);
    for (let i = 0; i < cleared.length; i++) {
      if (!cleared[i]) continue;
      const [x, y] = [i % grid.size, Math.floor(i / grid.size)];
      const dx = Math.max(0, Math.abs(x + 0.5 - area.centre) - 0.5),
        dy = Math.max(0, Math.abs(y + 0.5 - area.centre) - 0.5);
      expect(Math.hypot(dx, dy)).toBeLessThan(area.side / 2);
    }
  });

  it('never hides finder, timing, format or the bottom-right alignment pattern; central alignment patterns may be', () => {
    const v7 = templateGrid(7);
    expect(hidesNeededPattern(v7, logoArea(config(), v7.size, 20))).toBe(false);
    expect(hidesNeededPattern(v7, logoArea(config({ logoPaddingPercent: 30 }), v7.size, 40))).toBe(true);
    const v2 = templateGrid(2);
    expect(hidesNeededPattern(v2, logoArea(config(), v2.size, 30))).toBe(true); // reaches the only alignment pattern
  });

  it('the smallest logo fits every version at H, whatever its padding and plate', () => {
    for (let version = 1; version <= 40; version++) {
      const grid = templateGrid(version);
      for (const logoPlateShape of ['none', 'rounded', 'circle'] as const) {
        const area = logoArea(config({ logoPaddingPercent: 30, logoPlateShape }), grid.size, 3);
        expect(hidesNeededPattern(grid, area), `v${version}`).toBe(false);
        expect(coverageRecoverable(grid.size, 'H', clearedModules(grid, area)), `v${version}`).toBe(true);
      }
    }
  });
});

describe('logoDecoration', () => {
  const logo = png(image(300, 150, (x) => (x < 150 ? RED : [20, 20, 200, 255])));
  const setup = (cfg: RenderConfig) => {
    const grid = gridFromSymbol(encode(cfg.content, { ecc: cfg.eccLevel }));
    return { grid, layout: computeLayout(grid.size, { ...cfg, outputWidth: 600 }) };
  };

  it('shrinks a 40 % logo until it fits, and says so', async () => {
    const cfg = config({ logoSizePercent: 40 });
    const { grid, layout } = setup(cfg);
    const out = await logoDecoration(cfg, logo, grid, layout);
    const to = out.corrections[0]!.to as number;
    expect(out.corrections).toEqual([expect.objectContaining({ field: 'logoSizePercent', from: 40, to })]);
    expect(to).toBeLessThan(40);
    expect(out.warnings[0]).toMatch(/shrunk from 40 % to/);
    expect(coverageRecoverable(grid.size, 'H', out.cleared!)).toBe(true);
    // One percentage point larger would not have fitted.
    const bigger = logoArea(cfg, grid.size, to + 1);
    expect(!coverageRecoverable(grid.size, 'H', clearedModules(grid, bigger)) || hidesNeededPattern(grid, bigger)).toBe(
      true,
    );
  });

  it('draws the plate, then the logo centred with its aspect ratio, above the code', async () => {
    const cfg = config({
      content: 'https://example.com/a/much/longer/address/so/the/symbol/is/version/seven/or/above',
      logoSizePercent: 20,
      logoPlateShape: 'rounded',
      logoPlateColor: '#FFEEAA',
    });
    const { grid, layout } = setup(cfg);
    const out = await logoDecoration(cfg, logo, grid, layout);
    expect(out.corrections).toEqual([]);
    expect(out.layers.below).toEqual([]);
    const [plate, img] = out.layers.above as [PathLayer, ImageLayer];
    expect(plate).toMatchObject({
      kind: 'path',
      space: 'symbol',
      paint: { kind: 'solid', color: { r: 0xff, g: 0xee, b: 0xaa, a: 255 } },
    });
    expect(plate.d).toMatch(/a/); // rounded corners
    const side = (grid.size * 20) / 100;
    expect(img).toMatchObject({ kind: 'image', space: 'symbol', opacity: 1 });
    expect(img.box.w).toBeCloseTo(side);
    expect(img.box.h).toBeCloseTo(side / 2);
    expect(img.box.x + img.box.w / 2).toBeCloseTo(grid.size / 2);
    expect(img.box.y + img.box.h / 2).toBeCloseTo(grid.size / 2);
    // Embedded at no more than twice the drawn pixels.
    expect(img.image.width).toBeLessThanOrEqual(Math.ceil(2 * side * layout.modulePx));
    const clearedRoles = grid.roles.filter((_, i) => out.cleared![i]);
    expect(clearedRoles.length).toBeGreaterThan(0);
    expect(new Set(clearedRoles)).toEqual(new Set([ModuleRole.Data]));
  });

  it('a logo that cannot be decoded is refused naming the logo', async () => {
    const cfg = config();
    const { grid, layout } = setup(cfg);
    await expect(logoDecoration(cfg, logo.slice(0, 60), grid, layout)).rejects.toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'logo',
    });
  });
});
