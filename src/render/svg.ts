import { svgPaint } from './color.js';
import type { Paint, Scene } from './scene.js';

const fillAttrs = (p: Paint): string => {
  const { color, opacity } = svgPaint(p.color);
  return opacity === 1 ? `fill="${color}"` : `fill="${color}" fill-opacity="${opacity}"`;
};

/** The scene as a standalone SVG document, sized in pixels like the raster exports. */
export function sceneToSvg(scene: Scene): string {
  const { width, height, originX, originY, modulePx } = scene.layout;
  const paths = scene.layers.map((l) => `<path ${fillAttrs(l.paint)} d="${l.d}"/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" ${fillAttrs(scene.background)}/>` +
    `<g transform="translate(${originX} ${originY}) scale(${modulePx})">${paths}</g></svg>`
  );
}
