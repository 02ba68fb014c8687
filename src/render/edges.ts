/** Where flattening emits line edges (x0, y0) → (x1, y1), in pixels. */
export interface EdgeSink {
  add(x0: number, y0: number, x1: number, y1: number): void;
}

/** A bounding box that grows to hold each point added. */
class Bounds {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  protected grow(x0: number, y0: number, x1: number, y1: number): void {
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

/**
 * One subpath's edges relative to its start point, kept to be placed wherever the same path data is drawn
 * again (flatten.ts, flattenPath). Full precision: placing rounds once, as flattening in place does.
 */
export class EdgeStamp extends Bounds implements EdgeSink {
  readonly data: number[] = [];

  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges cover no area
    this.data.push(x0, y0, x1, y1);
    this.grow(x0, y0, x1, y1);
  }
}

/**
 * Line edges in pixels, four f32 per edge (x0, y0, x1, y1), and stamps placed (each moved by (dx, dy),
 * kept whole for the canvas to add as it can: canvas.ts, fillPath), with their bounding box: what the raster
 * kernel accumulates. One instance is reused across layers and renders; `reset` empties it.
 */
export class Edges extends Bounds implements EdgeSink {
  data = new Float32Array(1 << 14);
  count = 0;
  readonly placed: EdgeStamp[] = [];
  /** (dx, dy) of each stamp placed. */
  readonly moves: number[] = [];

  reset(): void {
    this.count = 0;
    this.placed.length = 0;
    this.moves.length = 0;
    this.minX = this.minY = Infinity;
    this.maxX = this.maxY = -Infinity;
  }

  private room(edges: number): void {
    if ((this.count + edges) * 4 <= this.data.length) return;
    let length = this.data.length * 2;
    while (length < (this.count + edges) * 4) length *= 2;
    const grown = new Float32Array(length);
    grown.set(this.data);
    this.data = grown;
  }

  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges cover no area
    this.room(1);
    const o = this.count++ * 4;
    this.data[o] = x0;
    this.data[o + 1] = y0;
    this.data[o + 2] = x1;
    this.data[o + 3] = y1;
    this.grow(x0, y0, x1, y1);
  }

  /** The stamp moved by (dx, dy). */
  place(stamp: EdgeStamp, dx: number, dy: number): void {
    if (stamp.data.length === 0) return;
    this.placed.push(stamp);
    this.moves.push(dx, dy);
    this.grow(stamp.minX + dx, stamp.minY + dy, stamp.maxX + dx, stamp.maxY + dy);
  }

  /** The stamp's edges moved by (dx, dy), as edges of their own. */
  addMoved(stamp: EdgeStamp, dx: number, dy: number): void {
    const src = stamp.data;
    if (src.length === 0) return;
    this.room(src.length / 4);
    const data = this.data;
    for (let i = 0, o = this.count * 4; i < src.length; i += 2, o += 2) {
      data[o] = src[i]! + dx;
      data[o + 1] = src[i + 1]! + dy;
    }
    this.count += src.length / 4;
    this.grow(stamp.minX + dx, stamp.minY + dy, stamp.maxX + dx, stamp.maxY + dy);
  }
}
