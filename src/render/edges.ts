/**
 * Line edges in pixels, four f32 per edge (x0, y0, x1, y1), with their bounding box: what the raster
 * kernel accumulates. One instance is reused across layers and renders; `reset` empties it.
 */
export class Edges {
  data = new Float32Array(1 << 14);
  count = 0;
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  reset(): void {
    this.count = 0;
    this.minX = this.minY = Infinity;
    this.maxX = this.maxY = -Infinity;
  }

  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges cover no area
    if (this.count * 4 + 4 > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const o = this.count++ * 4;
    this.data[o] = x0;
    this.data[o + 1] = y0;
    this.data[o + 2] = x1;
    this.data[o + 3] = y1;
    if (x0 < this.minX) this.minX = x0;
    if (x1 < this.minX) this.minX = x1;
    if (x0 > this.maxX) this.maxX = x0;
    if (x1 > this.maxX) this.maxX = x1;
    if (y0 < this.minY) this.minY = y0;
    if (y1 < this.minY) this.minY = y1;
    if (y0 > this.maxY) this.maxY = y0;
    if (y1 > this.maxY) this.maxY = y1;
  }
}
