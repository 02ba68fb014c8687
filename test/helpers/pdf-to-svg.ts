/**
 * Reads the first page of a PDF and redraws it as SVG, so a test can rasterize and decode what a PDF viewer
 * would show. It interprets the content-stream operators (q Q cm rg g m l c v y h re f f* W W* n gs Do),
 * transforming every point by the current matrix, which is all a vector QR page uses. A clip (W … n)
 * applies to what is filled after it, until the graphics state is restored; `gs` sets the fill alpha
 * (the state's /ca), and a soft mask when the state has one (/SMask: a luminosity mask whose form paints
 * one shading, drawn as an SVG mask); `Do` draws an image XObject (8-bit DeviceRGB or DeviceGray, Flate, with its /SMask);
 * `sh` paints an axial or radial DeviceRGB shading (extended at both ends) whose function is one linear
 * interpolation (type 2, N 1) or several stitched over [0, 1] (type 3), as an SVG gradient.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import { encodePng } from '../../src/render/formats/png.js';

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/** An image XObject as a PNG data URL (its soft mask as the alpha). */
function imageUrl(doc: PDFDocument, stream: PDFRawStream): string {
  const dict = stream.dict;
  const samples = (s: PDFRawStream) => decodePDFRawStream(s).decode();
  const width = (dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
  const height = (dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
  const rgb = dict.get(PDFName.of('ColorSpace')) === PDFName.of('DeviceRGB');
  const colour = samples(stream);
  const maskRef = dict.get(PDFName.of('SMask'));
  const alpha = maskRef ? samples(doc.context.lookup(maskRef) as PDFRawStream) : undefined;
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let k = 0; k < 3; k++) pixels[i * 4 + k] = rgb ? colour[i * 3 + k]! : colour[i]!;
    pixels[i * 4 + 3] = alpha ? alpha[i]! : 255;
  }
  const png = encodePng({ kind: 'rgba', width, height, pixels });
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

const numbers = (a: PDFArray) => a.asArray().map((n) => (n as PDFNumber).asNumber());
/** An RGB or grey colour of 0–1 components as #rrggbb. */
const hexColour = (c: number[]) =>
  `#${(c.length === 1 ? [c[0]!, c[0]!, c[0]!] : c)
    .map((v) =>
      Math.round(v * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** An SVG gradient's stops from a shading's function over [from, to]. */
function stopsOf(fn: PDFDict, from: number, to: number): string[] {
  const get = (key: string) => fn.lookup(PDFName.of(key));
  const stop = (offset: number, c: PDFArray) => `<stop offset="${offset}" stop-color="${hexColour(numbers(c))}"/>`;
  if ((get('FunctionType') as PDFNumber).asNumber() === 2)
    return [stop(from, get('C0') as PDFArray), stop(to, get('C1') as PDFArray)];
  const edges = [from, ...numbers(get('Bounds') as PDFArray), to];
  return (get('Functions') as PDFArray).asArray().flatMap((f, i) => stopsOf(f as PDFDict, edges[i]!, edges[i + 1]!));
}

export async function pdfToSvg(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  const { width, height } = page.getSize();
  const resources = page.node.Resources();
  const resource = (kind: string, name: string) =>
    (resources?.lookup(PDFName.of(kind)) as PDFDict | undefined)?.lookup(PDFName.of(name));
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  const text = refs
    .map((ref) => {
      const stream = doc.context.lookup(ref as PDFRef) as PDFRawStream;
      return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    })
    .join('\n');

  const tokens = text.match(/\/[^\s/[\]()<>]+|[-+]?\d*\.?\d+(?:e[-+]?\d+)?|[A-Za-z*']+|\S/g) ?? [];
  const stack: { ctm: Matrix; fill: string; alpha: number; clipId: string | undefined; maskId: string | undefined }[] =
    [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill = '#000000';
  let alpha = 1;
  let name = '';
  let clipId: string | undefined;
  let maskId: string | undefined;
  let pendingClip: string | undefined;
  let path = '';
  const defs: string[] = [];
  const args: number[] = [];
  const out: string[] = [];
  const pt = (x: number, y: number) => {
    const dx = ctm[0] * x + ctm[2] * y + ctm[4];
    const dy = ctm[1] * x + ctm[3] * y + ctm[5];
    return `${dx.toFixed(3)} ${(height - dy).toFixed(3)}`;
  };
  const hex = (v: number) =>
    Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');

  const clipped = () => (clipId ? ` clip-path="url(#${clipId})"` : '') + (maskId ? ` mask="url(#${maskId})"` : '');
  /** A shading as an SVG gradient in page space (through the current matrix and the page's flip); its id. */
  const gradient = (sh: PDFDict): string => {
    const [a, b, c, d, e, f] = ctm;
    const space = `gradientUnits="userSpaceOnUse" gradientTransform="matrix(${[a, -b, c, -d, e, height - f].join(' ')})"`;
    const xy = numbers(sh.lookup(PDFName.of('Coords')) as PDFArray);
    const stops = stopsOf(sh.lookup(PDFName.of('Function')) as PDFDict, 0, 1).join('');
    const id = `d${defs.length}`;
    defs.push(
      (sh.lookup(PDFName.of('ShadingType')) as PDFNumber).asNumber() === 2
        ? `<linearGradient id="${id}" ${space} x1="${xy[0]}" y1="${xy[1]}" x2="${xy[2]}" y2="${xy[3]}">${stops}</linearGradient>`
        : `<radialGradient id="${id}" ${space} cx="${xy[3]}" cy="${xy[4]}" r="${xy[5]}">${stops}</radialGradient>`,
    );
    return id;
  };
  const opacity = (attribute: string) => (alpha === 1 ? '' : ` ${attribute}="${alpha}"`);

  for (const tok of tokens) {
    if (/^[-+]?\d*\.?\d+(?:e[-+]?\d+)?$/.test(tok)) {
      args.push(Number(tok));
      continue;
    }
    if (tok.startsWith('/')) {
      name = tok.slice(1);
      continue;
    }
    const a = args.splice(0);
    switch (tok) {
      case 'q':
        stack.push({ ctm, fill, alpha, clipId, maskId });
        break;
      case 'Q':
        ({ ctm, fill, alpha, clipId, maskId } = stack.pop()!);
        break;
      case 'gs': {
        const state = resource('ExtGState', name) as PDFDict;
        const ca = state.lookup(PDFName.of('ca'));
        if (ca instanceof PDFNumber) alpha = ca.asNumber();
        const smask = state.lookup(PDFName.of('SMask'));
        if (smask instanceof PDFDict) {
          const form = smask.lookup(PDFName.of('G')) as PDFRawStream;
          const shadings = (form.dict.lookup(PDFName.of('Resources')) as PDFDict).lookup(
            PDFName.of('Shading'),
          ) as PDFDict;
          const fillId = gradient(shadings.lookup(shadings.keys()[0]!) as PDFDict);
          maskId = `d${defs.length}`;
          defs.push(
            `<mask id="${maskId}" maskUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="url(#${fillId})"/></mask>`,
          );
        }
        break;
      }
      case 'sh': {
        const id = gradient(resource('Shading', name) as PDFDict);
        out.push(
          `<rect width="${width}" height="${height}" fill="url(#${id})"${opacity('fill-opacity')}${clipped()}/>`,
        );
        break;
      }
      case 'Do': {
        // The unit square, first row at the top (v = 1), through the matrix and the page's flip to SVG's y.
        const [a, b, c, d, e, f] = ctm;
        const m = [a, -b, -c, d, c + e, height - d - f].map((v) => v.toFixed(4)).join(' ');
        const href = imageUrl(doc, resource('XObject', name) as PDFRawStream);
        // A clip on the element itself would be read in its transformed space: the group keeps it in the page's.
        out.push(
          `<g${clipped()}><image transform="matrix(${m})" width="1" height="1" preserveAspectRatio="none"${opacity('opacity')} href="${href}"/></g>`,
        );
        break;
      }
      case 'W':
      case 'W*':
        pendingClip = `<path fill-rule="${tok === 'W*' ? 'evenodd' : 'nonzero'}" d="${path}"/>`;
        break;
      case 'cm':
        ctm = multiply(a as Matrix, ctm);
        break;
      case 'rg':
        fill = `#${hex(a[0]!)}${hex(a[1]!)}${hex(a[2]!)}`;
        break;
      case 'g':
        fill = `#${hex(a[0]!).repeat(3)}`;
        break;
      case 'm':
        path += `M${pt(a[0]!, a[1]!)}`;
        break;
      case 'l':
        path += `L${pt(a[0]!, a[1]!)}`;
        break;
      case 'c':
        path += `C${pt(a[0]!, a[1]!)} ${pt(a[2]!, a[3]!)} ${pt(a[4]!, a[5]!)}`;
        break;
      case 'h':
        path += 'Z';
        break;
      case 're': {
        const [x, y, w, h] = a as [number, number, number, number];
        path += `M${pt(x, y)}L${pt(x + w, y)}L${pt(x + w, y + h)}L${pt(x, y + h)}Z`;
        break;
      }
      case 'f':
      case 'F':
      case 'f*':
      case 'B':
      case 'b':
        out.push(
          `<path fill="${fill}"${opacity('fill-opacity')} fill-rule="${tok === 'f*' ? 'evenodd' : 'nonzero'}"${clipped()} d="${path}"/>`,
        );
        path = '';
        break;
      case 'n':
      case 'S':
        if (pendingClip) {
          clipId = `d${defs.length}`;
          defs.push(`<clipPath id="${clipId}">${pendingClip}</clipPath>`);
          pendingClip = undefined;
        }
        path = '';
        break;
      default:
        if (tok === 'v' || tok === 'y') throw new Error(`pdf-to-svg: operator ${tok} not supported`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs.join('')}</defs>${out.join('')}</svg>`;
}
