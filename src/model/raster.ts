import type { Rgba } from './color.js';

/** One palette index per pixel: the exact form of a flat, few-colour code. */
export interface IndexedRaster {
  kind: 'indexed';
  width: number;
  height: number;
  pixels: Uint8Array;
  palette: Rgba[];
  /**
   * The palette lists every level of a blend, used or not (a scene of one colour over another, drawn as
   * levels: render/canvas.ts): the writers that store a palette keep only those used.
   */
  sparse?: boolean;
}
/** Straight-alpha RGBA, 4 bytes per pixel. */
export interface RgbaRaster {
  kind: 'rgba';
  width: number;
  height: number;
  pixels: Uint8Array;
}
export type Raster = IndexedRaster | RgbaRaster;
