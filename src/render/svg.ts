import { encodePng } from './formats/png.js';
import type { Scene } from './scene.js';
import { svgPaint } from '../model/color.js';
import type { Affine, Layer } from '../model/layer.js';
import { linearEnds, radialCircle, type Paint } from '../model/paint.js';
import type { PrintSize } from '../model/print-size.js';

const num = (n: number) => String(Math.round(n * 1000) / 1000);

/** Collects gradient definitions and hands out the fill attributes that reference them. */
class Defs {
  private readonly items: string[] = [];

  fill(p: Paint): string {
    if (p.kind === 'solid') {
      const { color, opacity } = svgPaint(p.color);
      return opacity === 1 ? `fill="${color}"` : `fill="${color}" fill-opacity="${opacity}"`;
    }
    const id = `g${this.items.length}`;
    const stops = p.stops
      .map((s) => {
        const { color, opacity } = svgPaint(s.color);
        return `<stop offset="${num(s.offset)}" stop-color="${color}"${opacity === 1 ? '' : ` stop-opacity="${opacity}"`}/>`;
      })
      .join('');
    if (p.kind === 'linear') {
      const [x1, y1, x2, y2] = linearEnds(p.box, p.rotation).map(num);
      this.items.push(
        `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops}</linearGradient>`,
      );
    } else {
      const [cx, cy, r] = radialCircle(p.box).map(num);
      this.items.push(
        `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${cx}" cy="${cy}" r="${r}">${stops}</radialGradient>`,
      );
    }
    return `fill="url(#${id})"`;
  }

  toString(): string {
    return this.items.length ? `<defs>${this.items.join('')}</defs>` : '';
  }
}

const matrix = (m: Affine) => `matrix(${m.map(num).join(' ')})`;

function layerSvg(layer: Layer, symbolTransform: string, defs: Defs): string {
  const transforms = [
    layer.space === 'symbol' ? symbolTransform : '',
    layer.kind === 'path' && layer.transform ? matrix(layer.transform) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const t = transforms ? ` transform="${transforms}"` : '';
  if (layer.kind === 'path') return layer.d ? `<path${t} ${defs.fill(layer.paint)} d="${layer.d}"/>` : '';
  const { x, y, w, h } = layer.box;
  const href = `data:image/png;base64,${Buffer.from(encodePng(layer.image)).toString('base64')}`;
  const opacity = layer.opacity === 1 ? '' : ` opacity="${num(layer.opacity)}"`;
  return `<image${t}${opacity} x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" preserveAspectRatio="none" href="${href}"/>`;
}

/**
 * The scene as a standalone SVG document, sized in pixels like the raster exports, or in the print size's
 * unit (the same drawing in the same viewBox).
 */
export function sceneToSvg(scene: Scene, print?: PrintSize): string {
  const { width, height, originX, originY, modulePx } = scene.layout;
  const size = print
    ? `width="${num(print.width)}${print.unit}" height="${num((print.width * height) / width)}${print.unit}"`
    : `width="${width}" height="${height}"`;
  const defs = new Defs();
  const symbolTransform = `translate(${num(originX)} ${num(originY)}) scale(${num(modulePx)})`;
  const background = `<rect width="${width}" height="${height}" ${defs.fill(scene.background)}/>`;
  const body = scene.layers.map((l) => layerSvg(l, symbolTransform, defs)).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" ${size} viewBox="0 0 ${width} ${height}">` +
    `${defs}${background}${body}</svg>`
  );
}
