import type { Box, Paint } from './paint.js';
import type { RgbaRaster } from './raster.js';

/*
 * What a design stage hands the renderer: paths and images in layers, each in the symbol's or the canvas's
 * coordinates. The renderer orders them into a Scene (render/scene.ts) around the code's own layers.
 */

/** An affine transform [a b c d e f], as SVG's matrix() and PDF's cm take it. */
export type Affine = [number, number, number, number, number, number];

/**
 * Where a layer's coordinates live: `symbol` in module units with the origin at the symbol's top-left
 * module; `canvas` in output pixels.
 */
export type Space = 'symbol' | 'canvas';

/**
 * Shapes drawn at many places: each loop's path data after its opening M (`body`, drawn relative to its
 * start (x, y)), moved by its (dx, dy) in `moves`.
 */
export interface Placements {
  readonly loops: readonly { readonly x: number; readonly y: number; readonly body: string }[];
  /** dx, dy of each loop, in turn. */
  readonly moves: readonly number[];
}

export interface PathLayer {
  kind: 'path';
  space: Space;
  d: string;
  /** When the path is shapes placed many times: `d` is their path data (design/geometry/path.ts, placementsPath). */
  placed?: Placements;
  paint: Paint;
  transform?: Affine;
}
/**
 * A raster image placed in a box (the vector exports embed it as PNG); decorative images sit below the
 * code, logos above it.
 */
export interface ImageLayer {
  kind: 'image';
  space: Space;
  box: Box;
  image: RgbaRaster;
  opacity: number;
}
export type Layer = PathLayer | ImageLayer;

/** Layers made by other design stages (images, text, frames), drawn below or above the code. */
export interface ExtraLayers {
  below: Layer[];
  above: Layer[];
}
