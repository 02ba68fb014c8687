import { deflateSync } from 'node:zlib';
import type { ColorSpace } from '../../model/cmyk.js';
import { composite, WHITE } from '../../model/color.js';
import type { Affine, Layer } from '../../model/layer.js';
import type { GradientPaint, Paint } from '../../model/paint.js';
import { type PrintSize, PT_PER_INCH, widthInInches } from '../../model/print-size.js';
import type { RgbaRaster } from '../../model/raster.js';
import { rasterizeScene, toRgba } from '../raster.js';
import { multiply, type Scene } from '../scene.js';
import { canvasToPage, cm, layerOps, layerSpace, num, type PageWriter, pathOps, ShadingNames } from './page-ops.js';
import { DEVICE, imageSamples, PT_PER_PX } from './pdf.js';

/*
 * The EPS export: the PDF's page (page-ops.ts), run by PostScript LanguageLevel 3. The prolog defines each
 * PDF operator the page uses as the PostScript one it stands for; shadings are the same dictionaries
 * (shfill); images are inline, hex-encoded and deflated. PostScript has no transparency, so a translucent
 * layer (a colour or gradient stop with alpha, an image with alpha or opacity) is drawn as what the page
 * shows there once it is painted: the scene up to that layer rasterized, over white paper, clipped to the
 * layer's shape. Everything opaque stays vector.
 */

const PROLOG = [
  '/m {moveto} bind def /l {lineto} bind def /c {curveto} bind def /h {closepath} bind def',
  '/f {fill} bind def /W {clip} bind def /n {newpath} bind def /q {gsave} bind def /Q {grestore} bind def',
  '/cm {6 array astore concat} bind def /rg {setrgbcolor} bind def /k {setcmykcolor} bind def',
  '/sh {load shfill} bind def',
  // An image dictionary followed in the file by its hex-encoded, deflated samples: read to the hex's end.
  '/qimage {currentfile /ASCIIHexDecode filter dup /FlateDecode filter 3 -1 roll dup /DataSource 4 -1 roll put image flushfile} bind def',
].join('\n');

/** Inline images and the shadings the page defines before it draws; no alpha (the layers are flattened first). */
class EpsWriter extends ShadingNames implements PageWriter {
  alpha(a: number): string {
    if (a < 1) throw new Error('a translucent layer reached the EPS writer unflattened');
    return '';
  }

  gradientAlpha(p: GradientPaint): string {
    return this.alpha(Math.min(...p.stops.map((s) => s.color.a / 255)));
  }

  image(image: RgbaRaster): string {
    const { samples, opaque } = imageSamples(image, this.space);
    if (!opaque) this.alpha(0);
    const { width: w, height: h } = image;
    const decode = this.space === 'cmyk' ? '0 1 0 1 0 1 0 1' : '0 1 0 1 0 1';
    const hex = Buffer.from(deflateSync(samples, { level: 6 })).toString('hex');
    const lines = hex.match(/.{1,128}/g)!.join('\n');
    return `/${DEVICE[this.space]} setcolorspace\n<< /ImageType 1 /Width ${w} /Height ${h} /BitsPerComponent 8 /Decode [${decode}] /ImageMatrix [${w} 0 0 ${-h} 0 ${h}] >> qimage\n${lines}>\n`;
  }
}

const translucentPaint = (p: Paint) => (p.kind === 'solid' ? p.color.a < 255 : p.stops.some((s) => s.color.a < 255));

function translucent(layer: Layer): boolean {
  if (layer.kind === 'path') return translucentPaint(layer.paint);
  if (layer.opacity < 1) return true;
  const px = layer.image.pixels;
  for (let i = 3; i < px.length; i += 4) if (px[i]! < 255) return true;
  return false;
}

function invert([a, b, c, d, e, f]: Affine): Affine {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The scene with its first `count` layers, rasterized and put on white paper: what the page shows there. */
function paintedUpTo(scene: Scene, count: number): RgbaRaster {
  const drawn = rasterizeScene({ ...scene, layers: scene.layers.slice(0, count) });
  try {
    const rgba = toRgba(drawn);
    const pixels = new Uint8Array(rgba.length);
    for (let i = 0; i < rgba.length; i += 4) {
      const c = composite({ r: rgba[i]!, g: rgba[i + 1]!, b: rgba[i + 2]!, a: rgba[i + 3]! }, WHITE);
      pixels.set([c.r, c.g, c.b, 255], i);
    }
    return { kind: 'rgba', width: drawn.width, height: drawn.height, pixels };
  } finally {
    drawn.release();
  }
}

/**
 * One page sized to the output (as the PDF's: 96 dpi, or the print size exactly), drawn from the scene's
 * layers, in RGB or CMYK.
 */
export function sceneToEps(scene: Scene, print?: PrintSize, space: ColorSpace = 'rgb'): Uint8Array {
  const { width, height } = scene.layout;
  const scale = print ? (widthInInches(print) * PT_PER_INCH) / width : PT_PER_PX;
  const toPage = canvasToPage(height, scale);
  const writer = new EpsWriter(space);
  const bg = scene.background;
  // Paper is white: a solid background over it is one opaque colour; a translucent gradient is flattened.
  const background: Layer = {
    kind: 'path',
    space: 'canvas',
    d: `M0 0h${width}v${height}h-${width}z`,
    paint: bg.kind === 'solid' ? { kind: 'solid', color: composite(bg.color, WHITE) } : bg,
  };
  const canvasImage = multiply(toPage, [width, 0, 0, -height, 0, height]);
  const ops = [background, ...scene.layers].map((layer, i) => {
    if (!translucent(layer)) return layerOps(layer, scene, toPage, writer);
    const m = layerSpace(layer, scene, toPage);
    const clip = layer.kind === 'path' ? layer.d : ((b) => `M${b.x} ${b.y}h${b.w}v${b.h}h${-b.w}z`)(layer.box);
    // `i` counts the background: the scene's layers up to and including this one.
    const painted = paintedUpTo(scene, i);
    return `q\n${cm(m)}${pathOps(clip)}W n\n${cm(multiply(invert(m), canvasImage))}${writer.image(painted)}Q\n`;
  });
  const [w, h] = [width * scale, height * scale];
  const shadings = [...writer.shadings].map(([dict, name]) => `/${name} ${dict} def`).join('\n');
  const text = [
    '%!PS-Adobe-3.0 EPSF-3.0',
    `%%BoundingBox: 0 0 ${Math.ceil(w)} ${Math.ceil(h)}`,
    `%%HiResBoundingBox: 0 0 ${num(w)} ${num(h)}`,
    '%%Creator: qrfarm',
    '%%LanguageLevel: 3',
    '%%Pages: 1',
    '%%EndComments',
    '%%BeginProlog',
    `/qrfarm ${16 + writer.shadings.size} dict def qrfarm begin`,
    PROLOG,
    'end',
    '%%EndProlog',
    '%%Page: 1 1',
    'qrfarm begin',
    shadings,
    ops.join(''),
    'end',
    'showpage',
    '%%EOF',
    '',
  ].join('\n');
  return new Uint8Array(Buffer.from(text, 'latin1'));
}
