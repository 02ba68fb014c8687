import { finderInnerPath, finderOuterPath, type EyeIndex } from '../design/finder-eyes.js';
import type { ModuleGrid } from '../design/grid.js';
import { placementsPath } from '../design/geometry/path.js';
import { modulesPlaced } from '../design/module-shapes.js';
import type { Affine, ExtraLayers, Layer, PathLayer, Placements } from '../model/layer.js';
import type { Layout } from '../model/layout.js';
import { paintOf, samePaint, type Box, type Paint } from '../model/paint.js';
import type { EyeOverride, RenderConfig } from '../model/render-config.js';
import { ModuleRole } from '../qr/types.js';

/**
 * What is drawn, independent of the output format: the SVG, the PDF and the raster are all written from
 * a Scene, so every export shows the same geometry.
 */
export interface Scene {
  layout: Layout;
  background: Paint;
  layers: Layer[];
  /**
   * True when the scene is whole-module squares in one solid colour on a solid background: it can then be
   * rasterized by filling pixel runs, with no anti-aliasing, exactly as resvg would draw it.
   */
  flat: boolean;
}

/** Top-left module of each finder pattern, in the order EyeIndex names them. */
const eyeOrigins = (size: number): [number, number][] => [
  [0, 0],
  [size - 7, 0],
  [0, size - 7],
];

/** The affine `m` applied after `n`, as SVG nests transforms. */
export const multiply = (m: Affine, n: Affine): Affine => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** Rotation and mirroring of one eye about its own centre; undefined when the eye is left as drawn. */
function eyeTransform(o: EyeOverride | undefined, cx: number, cy: number): Affine | undefined {
  if (!o || ((o.rotation ?? 0) === 0 && (o.flip ?? 'none') === 'none')) return undefined;
  const rad = ((o.rotation ?? 0) * Math.PI) / 180;
  const [cos, sin] = [Math.round(Math.cos(rad)), Math.round(Math.sin(rad))];
  const fx = o.flip === 'horizontal' ? -1 : 1;
  const fy = o.flip === 'vertical' ? -1 : 1;
  const toOrigin: Affine = [1, 0, 0, 1, -cx, -cy];
  const turn: Affine = [cos * fx, sin * fx, -sin * fy, cos * fy, 0, 0];
  return multiply([1, 0, 0, 1, cx, cy], multiply(turn, toOrigin));
}

/**
 * A layer of modules in the symbol's space: their path data, or their outlines placed, whose path data is
 * written only if a document reads it (the raster draws the outlines: render/flatten.ts, flattenPlaced).
 */
function modulesLayer(modules: Placements | string, paint: Paint): PathLayer {
  if (typeof modules === 'string') return { kind: 'path', space: 'symbol', d: modules, paint };
  let d: string | undefined;
  return {
    kind: 'path',
    space: 'symbol',
    get d() {
      d ??= placementsPath(modules);
      return d;
    },
    placed: modules,
    paint,
  };
}

/**
 * Builds the code's layers: data modules, the timing and alignment patterns when they have colours of their
 * own, and each finder eye's ring and centre with its own paint and transform.
 */
export function buildScene(
  grid: ModuleGrid,
  layout: Layout,
  cfg: RenderConfig,
  seed: number,
  extra: ExtraLayers = { below: [], above: [] },
): Scene {
  const symbolBox: Box = { x: 0, y: 0, w: grid.size, h: grid.size };
  const canvasBox: Box = { x: 0, y: 0, w: layout.width, h: layout.height };
  const fg = paintOf(cfg.primaryColor, cfg.foregroundGradient, symbolBox);
  const own = (color: string | undefined): Paint | undefined =>
    color ? paintOf(color, undefined, symbolBox) : undefined;
  const timing = own(cfg.timingColor);
  const alignment = own(cfg.alignmentColor);
  const style = { shape: cfg.moduleShape, scale: cfg.moduleScale, variation: cfg.moduleSizeVariation, seed };
  const layers: Layer[] = [...extra.below];

  const drawnApart = (role: number) =>
    role === ModuleRole.Finder ||
    (timing !== undefined && role === ModuleRole.Timing) ||
    (alignment !== undefined && role === ModuleRole.Alignment);
  const modules = (select: (i: number) => boolean, paint: Paint) =>
    modulesLayer(
      modulesPlaced(grid, (i) => !grid.cleared?.[i] && select(i), style),
      paint,
    );
  layers.push(modules((i) => !drawnApart(grid.roles[i]!), fg));
  if (timing) layers.push(modules((i) => grid.roles[i] === ModuleRole.Timing, timing));
  if (alignment) layers.push(modules((i) => grid.roles[i] === ModuleRole.Alignment, alignment));

  const outerBase =
    cfg.finderOuterGradient || cfg.finderOuterColor
      ? paintOf(cfg.finderOuterColor ?? cfg.primaryColor, cfg.finderOuterGradient, symbolBox)
      : fg;
  const innerBase =
    cfg.finderInnerGradient || cfg.finderInnerColor
      ? paintOf(cfg.finderInnerColor ?? cfg.primaryColor, cfg.finderInnerGradient, symbolBox)
      : fg;
  eyeOrigins(grid.size).forEach(([x, y], i) => {
    const eye = i as EyeIndex;
    const o = cfg.finderEyes?.[i];
    const transform = eyeTransform(o, x + 3.5, y + 3.5);
    const outer = o?.outerColor ? paintOf(o.outerColor, undefined, symbolBox) : outerBase;
    const inner = o?.innerColor ? paintOf(o.innerColor, undefined, symbolBox) : innerBase;
    const ring = finderOuterPath(cfg.finderOuterShape, x, y, eye);
    const centre = finderInnerPath(cfg.finderInnerShape, x + 2, y + 2, eye);
    if (samePaint(outer, inner))
      layers.push({ kind: 'path', space: 'symbol', d: ring + centre, paint: outer, ...(transform && { transform }) });
    else {
      layers.push({ kind: 'path', space: 'symbol', d: ring, paint: outer, ...(transform && { transform }) });
      layers.push({ kind: 'path', space: 'symbol', d: centre, paint: inner, ...(transform && { transform }) });
    }
  });
  layers.push(...extra.above);

  const background = paintOf(cfg.backgroundColor, cfg.backgroundGradient, canvasBox);
  const codeLayers = layers.filter((l) => !extra.below.includes(l) && !extra.above.includes(l));
  const flat =
    extra.below.length === 0 &&
    extra.above.length === 0 &&
    background.kind === 'solid' &&
    cfg.moduleShape === 'square' &&
    cfg.finderOuterShape === 'square' &&
    cfg.finderInnerShape === 'square' &&
    cfg.moduleScale === 1 &&
    cfg.moduleSizeVariation === 0 &&
    !grid.cleared &&
    codeLayers.every((l) => l.kind === 'path' && l.paint.kind === 'solid' && samePaint(l.paint, fg));
  return { layout, background, layers, flat };
}
