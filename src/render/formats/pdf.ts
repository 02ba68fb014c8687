import { deflateSync } from 'node:zlib';
import type { ColorSpace } from '../../model/cmyk.js';
import type { Layer } from '../../model/layer.js';
import type { GradientPaint } from '../../model/paint.js';
import { type PrintSize, PT_PER_INCH, widthInInches } from '../../model/print-size.js';
import type { RgbaRaster } from '../../model/raster.js';
import { toCmyk } from '../../model/cmyk.js';
import type { Scene } from '../scene.js';
import { canvasToPage, layerOps, num, type PageWriter, ShadingNames, shading } from './page-ops.js';
import { concat } from './png.js';

/*
 * The PDF export, written directly: one page whose content stream is the scene's paths as PDF path
 * operators, in the same order and spaces the SVG document and the raster kernel draw them. A QR page needs
 * only filled paths, gradients (shadings through a clip), constant alpha and images, so the file is a
 * handful of objects: catalog, page tree, page, content stream, document info, and one per image and mask.
 * Text, frames and logos reach the scene as paths and images already (no fonts are embedded).
 */

/** CSS reference pixel: 96 per inch, so one pixel is 0.75 PDF points. */
export const PT_PER_PX = 0.75;
/**
 * zlib level 3 for the streams: on the styled benchmark page's path operators a third of level 6's time
 * for a stream 14 % larger; the file is still smaller than pdf-lib's was (docs/design-decisions.md, "PDF:
 * our writer").
 */
const deflate = (data: Uint8Array) => deflateSync(data, { level: 3 });
/** Fixed metadata dates keep the same request byte-identical. */
const EPOCH = 'D:19700101000000Z';

/** The page's resources as the content stream names them: constant alphas, shadings, alpha masks, images. */
class Resources extends ShadingNames implements PageWriter {
  readonly alphas = new Map<number, string>();
  readonly images: { name: string; image: RgbaRaster }[] = [];
  /** Soft masks by their alpha shading and the box they cover: the graphics state's name for each. */
  readonly masks = new Map<string, { name: string; alpha: string; bbox: string }>();

  /** `gs` selecting a fill alpha, or nothing when opaque. */
  alpha(a: number): string {
    if (a >= 1) return '';
    const key = Math.round(a * 10_000) / 10_000;
    const name = this.alphas.get(key) ?? `A${this.alphas.size}`;
    this.alphas.set(key, name);
    return `/${name} gs\n`;
  }

  /**
   * `gs` selecting a soft mask of the gradient's alpha when a stop is translucent, else nothing. The mask
   * covers the gradient's box and as much again on every side (the box is the symbol or the canvas, which
   * the shapes it fills stay inside); outside it a soft mask hides everything.
   */
  gradientAlpha(p: GradientPaint): string {
    if (p.stops.every((s) => s.color.a === 255)) return '';
    const alpha = shading(p, 'alpha', this.space);
    const { x, y, w, h } = p.box;
    const bbox = [x - w, y - h, x + 2 * w, y + 2 * h].map(num).join(' ');
    const key = `${alpha} ${bbox}`;
    const mask = this.masks.get(key) ?? { name: `M${this.masks.size}`, alpha, bbox };
    this.masks.set(key, mask);
    return `/${mask.name} gs\n`;
  }

  image(image: RgbaRaster): string {
    const name = `I${this.images.length}`;
    this.images.push({ name, image });
    return `/${name} Do\n`;
  }
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** Objects numbered from 1 in the order added, then written with their cross-reference table. */
class PdfObjects {
  private readonly bodies: Uint8Array[][] = [];

  /** Reserves the next object number, to be referenced before its body is known. */
  reserve(): number {
    this.bodies.push([]);
    return this.bodies.length;
  }

  /** Object `n`: a dictionary of `entries`, and the stream after it if there is one. */
  set(n: number, entries: string, stream?: Uint8Array): void {
    this.bodies[n - 1] = stream
      ? [
          latin1(`${n} 0 obj\n<< ${entries} /Length ${stream.length} >>\nstream\n`),
          stream,
          latin1('\nendstream\nendobj\n'),
        ]
      : [latin1(`${n} 0 obj\n<< ${entries} >>\nendobj\n`)];
  }

  add(entries: string, stream?: Uint8Array): number {
    const n = this.reserve();
    this.set(n, entries, stream);
    return n;
  }

  /** The whole file: header (with a binary comment, so transfer tools keep it binary), objects, xref, trailer. */
  file(root: number, info: number): Uint8Array {
    const parts: Uint8Array[] = [latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
    let offset = parts[0]!.length;
    const offsets: number[] = [];
    for (const body of this.bodies) {
      offsets.push(offset);
      for (const b of body) {
        parts.push(b);
        offset += b.length;
      }
    }
    const size = this.bodies.length + 1;
    const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    parts.push(
      latin1(
        `xref\n0 ${size}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${size} /Root ${root} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
      ),
    );
    // One array of its own, not Buffer.concat's: a small Buffer is a view into Node's shared pool, and the
    // worker transfers the buffer of what it returns (worker.ts).
    return concat(parts);
  }
}

/** An image's samples in the page's colour space (3 or 4 bytes a pixel) and its alpha, one byte a pixel. */
export function imageSamples(
  image: RgbaRaster,
  space: ColorSpace,
): { samples: Uint8Array; alpha: Uint8Array; opaque: boolean } {
  const { width, height, pixels } = image;
  const n = space === 'cmyk' ? 4 : 3;
  const samples = new Uint8Array(width * height * n);
  const alpha = new Uint8Array(width * height);
  let opaque = true;
  for (let i = 0; i < alpha.length; i++) {
    const [r, g, b, a] = [pixels[i * 4]!, pixels[i * 4 + 1]!, pixels[i * 4 + 2]!, pixels[i * 4 + 3]!];
    if (n === 4)
      samples.set(
        toCmyk({ r, g, b, a }).map((v) => Math.round(v * 255)),
        i * 4,
      );
    else samples.set([r, g, b], i * 3);
    alpha[i] = a;
    if (a !== 255) opaque = false;
  }
  return { samples, alpha, opaque };
}

export const DEVICE = { rgb: 'DeviceRGB', cmyk: 'DeviceCMYK' } as const;

/** An image as an XObject in the page's colour space, with its alpha as a soft mask when any pixel is not opaque. */
function imageObject(objects: PdfObjects, image: RgbaRaster, space: ColorSpace): number {
  const { samples, alpha, opaque } = imageSamples(image, space);
  const common = `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /BitsPerComponent 8 /Filter /FlateDecode`;
  const mask = opaque ? '' : ` /SMask ${objects.add(`${common} /ColorSpace /DeviceGray`, deflate(alpha))} 0 R`;
  return objects.add(`${common} /ColorSpace /${DEVICE[space]}${mask}`, deflate(samples));
}

/**
 * One vector page sized to the output (width × height pixels at 96 dpi), drawn from the scene's layers:
 * paths as paths, gradients as shadings clipped to their shapes, images as embedded RGB with a soft mask,
 * constant alpha through graphics states.
 */
export function sceneToPdf(scene: Scene, print?: PrintSize, space: ColorSpace = 'rgb'): Uint8Array {
  const { width, height } = scene.layout;
  // A print size makes the page exactly its width; the pixels are then a little off the dpi's.
  const scale = print ? (widthInInches(print) * PT_PER_INCH) / width : PT_PER_PX;
  const toPage = canvasToPage(height, scale);
  const res = new Resources(space);
  const background: Layer = {
    kind: 'path',
    space: 'canvas',
    d: `M0 0h${width}v${height}h-${width}z`,
    paint: scene.background,
  };
  const content = [background, ...scene.layers].map((l) => layerOps(l, scene, toPage, res)).join('');

  const objects = new PdfObjects();
  const catalog = objects.reserve();
  const pages = objects.reserve();
  const page = objects.reserve();
  const contents = objects.add('/Filter /FlateDecode', deflate(latin1(content)));
  const info = objects.add(`/Producer (qrfarm) /Creator (qrfarm) /CreationDate (${EPOCH}) /ModDate (${EPOCH})`);
  const xobjects = res.images.map(({ name, image }) => `/${name} ${imageObject(objects, image, space)} 0 R`).join(' ');
  const masks = [...res.masks.values()].map(({ name, alpha, bbox }) => {
    // The mask is a form painting the alpha shading in grey; its luminosity is the alpha.
    const form = objects.add(
      `/Type /XObject /Subtype /Form /BBox [${bbox}] /Group << /S /Transparency /CS /DeviceGray >> /Resources << /Shading << /A ${alpha} >> >>`,
      latin1('/A sh\n'),
    );
    return `/${name} << /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G ${form} 0 R >> >>`;
  });
  const alphas = [...[...res.alphas].map(([a, name]) => `/${name} << /Type /ExtGState /ca ${a} >>`), ...masks].join(
    ' ',
  );
  const shadings = [...res.shadings].map(([dict, name]) => `/${name} ${dict}`).join(' ');
  const resources = [
    xobjects && `/XObject << ${xobjects} >>`,
    alphas && `/ExtGState << ${alphas} >>`,
    shadings && `/Shading << ${shadings} >>`,
  ]
    .filter(Boolean)
    .join(' ');
  objects.set(catalog, `/Type /Catalog /Pages ${pages} 0 R`);
  objects.set(pages, `/Type /Pages /Kids [${page} 0 R] /Count 1`);
  objects.set(
    page,
    `/Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${num(width * scale)} ${num(height * scale)}] /Resources << ${resources} >> /Contents ${contents} 0 R`,
  );
  return objects.file(catalog, info);
}
