import { finderInnerPath, finderOuterPath, type EyeIndex, type FinderInnerShape, type FinderOuterShape } from '../design/finder-eyes.js';
import type { ModuleGrid } from '../design/grid.js';
import { modulesPath, type ModuleShape } from '../design/module-shapes.js';
import { ModuleRole } from '../qr/types.js';
import type { Rgba } from './color.js';
import type { Layout } from './layout.js';

export interface SolidPaint { kind: 'solid'; color: Rgba }
export type Paint = SolidPaint;

/** One filled path, in module units (1 = one module, origin at the symbol's top-left module). */
export interface PathLayer { d: string; paint: Paint }

/**
 * What is drawn, independent of the output format: the SVG, the PDF and the raster are all written
 * from a Scene, so every export shows the same geometry.
 */
export interface Scene {
  layout: Layout;
  background: Paint;
  layers: PathLayer[];
  /**
   * True when the scene is whole-module squares in two solid colours: it can then be rasterized by
   * filling pixel runs, with no anti-aliasing, exactly as resvg would draw it.
   */
  flat: boolean;
}

export interface SceneDesign {
  foreground: Rgba;
  background: Rgba;
  moduleShape: ModuleShape;
  finderOuterShape: FinderOuterShape;
  finderInnerShape: FinderInnerShape;
  moduleScale: number;
  moduleSizeVariation: number;
  seed: number;
}

/** Top-left module of each finder pattern, in the order EyeIndex names them. */
const eyeOrigins = (size: number): [number, number][] => [[0, 0], [size - 7, 0], [0, size - 7]];

export function buildScene(grid: ModuleGrid, layout: Layout, design: SceneDesign): Scene {
  const paint: Paint = { kind: 'solid', color: design.foreground };
  const style = { shape: design.moduleShape, scale: design.moduleScale, variation: design.moduleSizeVariation, seed: design.seed };
  const modules = modulesPath(grid, (i) => grid.roles[i] !== ModuleRole.Finder && !grid.cleared?.[i], style);
  const eyes = eyeOrigins(grid.size)
    .map(([x, y], eye) => finderOuterPath(design.finderOuterShape, x, y, eye as EyeIndex) + finderInnerPath(design.finderInnerShape, x + 2, y + 2, eye as EyeIndex))
    .join('');
  const flat =
    design.moduleShape === 'square' && design.finderOuterShape === 'square' && design.finderInnerShape === 'square' &&
    design.moduleScale === 1 && design.moduleSizeVariation === 0;
  return { layout, background: { kind: 'solid', color: design.background }, layers: [{ d: modules + eyes, paint }], flat };
}
