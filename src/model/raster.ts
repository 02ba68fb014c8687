import type { Rgba } from './color.js';

/** One palette index per pixel: the exact form of a flat, few-colour code. */
export interface IndexedRaster {
  kind: 'indexed';
  width: number;
  height: number;
  pixels: Uint8Array;
  palette: Rgba[];
}
/** Straight-alpha RGBA, 4 bytes per pixel. */
export interface RgbaRaster {
  kind: 'rgba';
  width: number;
  height: number;
  pixels: Uint8Array;
}
export type Raster = IndexedRaster | RgbaRaster;
