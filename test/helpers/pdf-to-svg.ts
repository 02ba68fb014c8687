/**
 * Reads the first page of a PDF and redraws its filled vector paths as SVG, so a test can rasterize and
 * decode what a PDF viewer would show. It interprets the content-stream operators (q Q cm rg g m l c v y
 * h re f f* W W* n), transforming every point by the current matrix, which is all a vector QR page uses.
 * A clip (W … n) applies to what is filled after it, until the graphics state is restored.
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, type PDFRawStream, type PDFRef } from 'pdf-lib';

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

export async function pdfToSvg(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  const { width, height } = page.getSize();
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  const text = refs
    .map((ref) => {
      const stream = doc.context.lookup(ref as PDFRef) as PDFRawStream;
      return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    })
    .join('\n');

  const tokens = text.match(/\/[^\s/[\]()<>]+|[-+]?\d*\.?\d+(?:e[-+]?\d+)?|[A-Za-z*']+|\S/g) ?? [];
  const stack: { ctm: Matrix; fill: string; clipId: string | undefined }[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill = '#000000';
  let clipId: string | undefined;
  let pendingClip: string | undefined;
  let path = '';
  const clips: string[] = [];
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

  for (const tok of tokens) {
    if (/^[-+]?\d*\.?\d+(?:e[-+]?\d+)?$/.test(tok)) {
      args.push(Number(tok));
      continue;
    }
    const a = args.splice(0);
    switch (tok) {
      case 'q':
        stack.push({ ctm, fill, clipId });
        break;
      case 'Q':
        ({ ctm, fill, clipId } = stack.pop()!);
        break;
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
          `<path fill="${fill}" fill-rule="${tok === 'f*' ? 'evenodd' : 'nonzero'}"${clipId ? ` clip-path="url(#${clipId})"` : ''} d="${path}"/>`,
        );
        path = '';
        break;
      case 'n':
      case 'S':
        if (pendingClip) {
          clipId = `c${clips.length}`;
          clips.push(`<clipPath id="${clipId}">${pendingClip}</clipPath>`);
          pendingClip = undefined;
        }
        path = '';
        break;
      default:
        if (tok === 'v' || tok === 'y') throw new Error(`pdf-to-svg: operator ${tok} not supported`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${clips.join('')}</defs>${out.join('')}</svg>`;
}
