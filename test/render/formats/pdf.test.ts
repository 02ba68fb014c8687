/**
 * The PDF writer (src/render/formats/pdf.ts): a well-formed file (every cross-reference entry points at its
 * object; pdf-lib, an independent reader, loads it), the same bytes for the same scene, and SVG path data
 * written as PDF operators that draw what the SVG draws, command by command. What whole scenes draw is held
 * to the verified raster in test/render/vector-check.test.ts.
 */
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHex } from '../../../src/model/color.js';
import type { Layer } from '../../../src/model/layer.js';
import { PT_PER_PX, sceneToPdf } from '../../../src/render/formats/pdf.js';
import { designScene } from '../../../src/render/pipeline.js';
import type { Scene } from '../../../src/render/scene.js';
import { initWasm } from '../../../wasm/index.js';
import { svgToImage } from '../../helpers/decode.js';
import { pdfToSvg } from '../../helpers/pdf-to-svg.js';
import { CONTENT, configOf, drawingDiff, SCENE_CASES } from '../../helpers/scene-cases.js';

beforeAll(() => initWasm());

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** A 100×100 px scene of one black path in canvas pixels, on white. */
const sceneOf = (d: string, layers: Layer[] = []): Scene => ({
  layout: { width: 100, height: 100, originX: 0, originY: 0, modulePx: 1 } as Scene['layout'],
  background: { kind: 'solid', color: parseHex('#FFFFFF') },
  layers: [{ kind: 'path', space: 'canvas', d, paint: { kind: 'solid', color: parseHex('#000000') } }, ...layers],
  flat: false,
});

describe('the file', () => {
  it.each(SCENE_CASES.filter(([name]) => /gradients|logo|background image|transparent|frame banner-top/.test(name)))(
    'is well formed: %s',
    async (_name, design) => {
      const { scene, layout } = await designScene(configOf({ content: CONTENT, ...design, fileFormat: 'pdf' }));
      const pdf = sceneToPdf(scene);
      // The worker transfers the buffer it returns: the file must own it whole (no view into a pool).
      expect([pdf.byteOffset, pdf.buffer.byteLength]).toEqual([0, pdf.byteLength]);
      const text = latin1(pdf);
      expect(text.startsWith('%PDF-1.4\n')).toBe(true);
      expect(text.endsWith('%%EOF\n')).toBe(true);
      // startxref points at the table; entry n points at "n 0 obj".
      const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
      const table = /^xref\n0 (\d+)\n((?:\d{10} \d{5} [nf] \n)+)trailer\n/.exec(text.slice(xrefAt))!;
      const entries = table[2]!.match(/[\s\S]{20}/g)!;
      expect(entries).toHaveLength(Number(table[1]));
      expect(entries[0]).toBe('0000000000 65535 f \n');
      entries.slice(1).forEach((entry, i) => {
        expect(text.startsWith(`${i + 1} 0 obj\n`, Number(entry.slice(0, 10))), `object ${i + 1}`).toBe(true);
      });
      // Every stream's /Length is its length.
      for (const m of text.matchAll(/\/Length (\d+) >>\nstream\n/g)) {
        const start = m.index + m[0].length;
        expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
      }
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      expect(doc.getPageCount()).toBe(1);
      expect(doc.getPage(0).getSize()).toEqual({ width: layout.width * PT_PER_PX, height: layout.height * PT_PER_PX });
      expect(doc.getProducer()).toBe('qrfarm');
      expect(doc.getCreationDate()).toEqual(new Date(0));
      // The same scene, the same bytes.
      expect(Buffer.from(sceneToPdf(scene)).equals(Buffer.from(pdf))).toBe(true);
    },
  );

  it('names a graphics state only for what is translucent, and one shading per distinct gradient', async () => {
    const plain = latin1(sceneToPdf((await designScene(configOf({ content: CONTENT, fileFormat: 'pdf' }))).scene));
    expect(plain).not.toMatch(/ExtGState|Shading|XObject/);
    const gradient = {
      type: 'radial',
      stops: [
        { offset: 0, color: '#0D47A1' },
        { offset: 1, color: '#6A1B9A' },
      ],
    };
    const { scene } = await designScene(
      configOf({ content: CONTENT, foregroundGradient: gradient, backgroundColor: '#FFFFFF80', fileFormat: 'pdf' }),
    );
    const text = latin1(sceneToPdf(scene));
    // The modules and the three eyes share the foreground gradient.
    expect(text.match(/\/ShadingType 3/g)).toHaveLength(1);
    expect(text).toMatch(/\/A0 << \/Type \/ExtGState \/ca 0\.502 >>/);
  });
});

describe('path data', () => {
  // Every SVG 1.1 command, absolute and relative, shorthand curves, arcs (rotated, large, radii too small to
  // reach), implicit line-tos, and a subpath left open.
  const paths: [string, string][] = [
    ['lines, H and V, implicit line-tos', 'M10 10 40 10 40 40Z m20 0h20v20h-20z M70 70 L90 70 L80 90'],
    ['cubics and S', 'M10 50C10 20 40 20 40 50S70 80 70 50s20-30 20 0z'],
    ['quadratics and T', 'M10 80Q30 40 50 80T90 80Z m-80-60q10-15 20 0t20 0z'],
    ['arcs', 'M20 50a30 30 0 1 1 60 0a30 30 0 1 1 -60 0zM50 40a10 5 30 0 0 0 20a10 5 30 0 0 0-20z'],
    ['arc radii scaled up to reach', 'M10 90A5 5 0 0 1 90 90Z'],
    [
      'a circle of four arcs, relative',
      'm50 20a30 30 0 0 1 30 30a30 30 0 0 1-30 30a30 30 0 0 1-30-30a30 30 0 0 1 30-30',
    ],
  ];

  it.each(paths)('%s: the PDF draws what the SVG draws', async (_name, d) => {
    const fromPdf = svgToImage(await pdfToSvg(sceneToPdf(sceneOf(d))), 100);
    const fromSvg = svgToImage(
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#fff"/><path d="${d}"/></svg>`,
    );
    const { meanDiff, farShare } = drawingDiff(
      { ...fromPdf, pixels: fromPdf.data },
      { ...fromSvg, pixels: fromSvg.data },
    );
    expect(meanDiff).toBeLessThan(0.5);
    expect(farShare).toBeLessThan(0.002);
  });

  it('refuses malformed path data, as the raster kernel does', () => {
    expect(() => sceneToPdf(sceneOf('L1 1'))).toThrow();
    expect(() => sceneToPdf(sceneOf('M0 0a1 1 0 2 1 1 1'))).toThrow();
  });
});
