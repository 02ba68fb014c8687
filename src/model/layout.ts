/** Pixels reserved on each side of the canvas for a frame or caption; the code fits in what remains. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}
export const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * Where the symbol sits on the canvas, in whole pixels. Modules are always a whole number of pixels wide,
 * so edges are crisp (a two-colour code stays two colours, the PNG stays 1-bit, and a phone sees sharp
 * modules); the pixels left over are added to the quiet zone, split evenly.
 */
export interface Layout {
  /** Modules per side of the symbol, quiet zone excluded. */
  size: number;
  quietZone: number;
  modulePx: number;
  width: number;
  height: number;
  /** Pixel position of the symbol's top-left module. */
  originX: number;
  originY: number;
}
