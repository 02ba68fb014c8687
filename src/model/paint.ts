import { parseHex, type Rgba } from './color.js';
import type { GradientSpec } from './render-config.js';

/** A rectangle in the coordinate space of the layer that uses it. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ColorStop {
  offset: number;
  color: Rgba;
}
export interface SolidPaint {
  kind: 'solid';
  color: Rgba;
}
/**
 * A gradient spanning `box` (in the user space of the layer it fills), so one gradient runs across all
 * the modules it paints rather than restarting in each one.
 */
export interface GradientPaint {
  kind: 'linear' | 'radial';
  stops: ColorStop[];
  rotation: number;
  box: Box;
}
export type Paint = SolidPaint | GradientPaint;

export const solid = (color: Rgba): SolidPaint => ({ kind: 'solid', color });

/** A gradient when one is given, else the solid colour. */
export function paintOf(color: string, gradient: GradientSpec | undefined, box: Box): Paint {
  if (!gradient) return solid(parseHex(color));
  const stops = [...gradient.stops]
    .sort((a, b) => a.offset - b.offset)
    .map((s) => ({ offset: s.offset, color: parseHex(s.color) }));
  return { kind: gradient.type, stops, rotation: gradient.rotation ?? 0, box };
}

export const samePaint = (a: Paint, b: Paint): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The colour of a gradient at `t` (0–1), interpolated linearly in sRGB between the stops around it. */
export function colorAt(stops: ColorStop[], t: number): Rgba {
  if (t <= stops[0]!.offset) return stops[0]!.color;
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    if (t <= b.offset) {
      const f = b.offset === a.offset ? 1 : (t - a.offset) / (b.offset - a.offset);
      const mix = (x: number, y: number) => Math.round(x + (y - x) * f);
      return {
        r: mix(a.color.r, b.color.r),
        g: mix(a.color.g, b.color.g),
        b: mix(a.color.b, b.color.b),
        a: mix(a.color.a, b.color.a),
      };
    }
  }
  return stops[stops.length - 1]!.color;
}

/**
 * End points of a linear gradient over a box at `rotation` degrees (clockwise from left→right): the line
 * through the centre whose perpendiculars touch the box's far corners, as CSS defines it.
 */
export function linearEnds(box: Box, rotation: number): [number, number, number, number] {
  const a = (rotation * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const half = (Math.abs(box.w * cos) + Math.abs(box.h * sin)) / 2;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  return [cx - cos * half, cy - sin * half, cx + cos * half, cy + sin * half];
}

/** Centre and radius of a radial gradient over a box: from the centre to the corners. */
export const radialCircle = (box: Box): [number, number, number] => [
  box.x + box.w / 2,
  box.y + box.h / 2,
  Math.hypot(box.w, box.h) / 2,
];
