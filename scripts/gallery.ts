/**
 * Contact sheets of the design vocabulary, one PNG each in docs/gallery/: module shapes, finder eyes,
 * frames and text, colour, logos and background images. Every tile is a POST /api/qr/generate to the real
 * service started in-process, so every tile is a render that passed verification; each is also read here,
 * independently of the service, by zbar (the decoder family outside zxing's lineage), and the script fails
 * naming every tile zbar cannot read: a design that only one family reads is not shown as safe.
 *
 *   npm run gallery
 */
import { scanRGBABuffer, ZBarConfigType, ZBarScanner, ZBarSymbolType } from '@undecaf/zbar-wasm';
import { decodeImage } from '../src/images/decode.js';
import type { RenderConfig } from '../src/model/render-config.js';
import {
  FINDER_INNER_SHAPES,
  FINDER_OUTER_SHAPES,
  type FinderInnerShape,
  type FinderOuterShape,
  FONT_FAMILIES,
  FRAME_STYLES,
  MODULE_SHAPES,
} from '../src/model/vocabulary.js';
import { encodePng } from '../src/render/formats/png.js';
import { loadResvg, rasterizeSvg } from '../src/render/resvg.js';
import { initWasm } from '../wasm/index.js';
import { fetchPng, inParallel, withService, writeSheet, type Section, type Tile } from './contact-sheet.js';

const TILE = 240;
/** At most this many tiles a row; a sheet whose sections are all shorter is as wide as its longest. */
const COLUMNS = 6;
const CONTENT = 'https://example.com';
const INK = '#1E3A5F';
const ACCENT = '#C2410C';
const CAPTION = 'Scan to visit';

type DesignConfig = Omit<Partial<RenderConfig>, 'content'> & { logoBase64?: string; backgroundImageBase64?: string };
interface Design {
  label: string;
  config: DesignConfig;
}
interface Group {
  title: string;
  designs: Design[];
}

/** The centre drawn with each ring that has no centre of its own name. */
const CENTRE_FOR: Record<Exclude<FinderOuterShape, FinderInnerShape>, FinderInnerShape> = {
  ticket: 'rounded',
  dots: 'dot',
  dashed: 'square',
};
const centreFor = (ring: FinderOuterShape): FinderInnerShape =>
  ring in CENTRE_FOR ? CENTRE_FOR[ring as keyof typeof CENTRE_FOR] : (ring as FinderInnerShape);

const pngBase64 = (svg: string, width: number) => Buffer.from(encodePng(rasterizeSvg(svg, width))).toString('base64');

/** A five-pointed star, as SVG path data. */
function star(cx: number, cy: number, outer: number, inner: number): string {
  const points = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`;
  });
  return `M${points.join('L')}Z`;
}

/** An app-icon logo: rounded, with transparent corners, so that each plate shape reads around it. */
const emblem = () =>
  pngBase64(
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256"><defs>` +
      `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#F97316"/><stop offset="1" stop-color="#BE185D"/></linearGradient></defs>` +
      `<rect x="8" y="8" width="240" height="240" rx="56" fill="url(#g)"/><path d="${star(128, 136, 88, 38)}" fill="#FFFFFF"/></svg>`,
    256,
  );

/** A soft landscape "photo", wider than tall so that `cover` and `contain` differ. */
const photo = () =>
  pngBase64(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400"><defs>` +
      `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7DD3FC"/><stop offset="1" stop-color="#FDE68A"/></linearGradient>` +
      `<filter id="soft"><feGaussianBlur stdDeviation="6"/></filter></defs>` +
      `<rect width="640" height="400" fill="url(#sky)"/><circle cx="470" cy="130" r="60" fill="#FEF3C7" filter="url(#soft)"/>` +
      `<path d="M0 300C120 220 220 240 320 290S520 250 640 230V400H0Z" fill="#86EFAC" filter="url(#soft)"/>` +
      `<path d="M0 350C160 300 300 330 420 350S580 330 640 320V400H0Z" fill="#22C55E" filter="url(#soft)"/></svg>`,
    640,
  );

function sheets(logoBase64: string, backgroundImageBase64: string): Record<string, Group[]> {
  const ink = { primaryColor: INK };
  const logo = { ...ink, logoBase64, eccLevel: 'H' } as const;
  return {
    'module-shapes': [
      {
        title: `moduleShape (${MODULE_SHAPES.length})`,
        designs: MODULE_SHAPES.map((s) => ({ label: s, config: { ...ink, moduleShape: s } })),
      },
    ],
    'finder-eyes': [
      {
        title: `finderOuterShape, each with its matching finderInnerShape (${FINDER_OUTER_SHAPES.length})`,
        designs: FINDER_OUTER_SHAPES.map((ring) => ({
          label: `${ring} / ${centreFor(ring)}`,
          config: { ...ink, finderInnerColor: ACCENT, finderOuterShape: ring, finderInnerShape: centreFor(ring) },
        })),
      },
      {
        title: `finderInnerShape, in a square ring (${FINDER_INNER_SHAPES.length})`,
        designs: FINDER_INNER_SHAPES.map((centre) => ({
          label: `square / ${centre}`,
          config: { ...ink, finderInnerColor: ACCENT, finderInnerShape: centre },
        })),
      },
    ],
    frames: [
      {
        title: `frameStyle, with ctaText "${CAPTION}" (${FRAME_STYLES.length})`,
        designs: FRAME_STYLES.map((f) => ({ label: f, config: { ...ink, frameStyle: f, ctaText: CAPTION } })),
      },
      {
        title: `fontFamily (${FONT_FAMILIES.length})`,
        designs: FONT_FAMILIES.map((f) => ({
          label: f,
          config: { ...ink, frameStyle: 'box-bottom', ctaText: CAPTION, fontFamily: f },
        })),
      },
      {
        title: 'qrShapeRadius and centerText',
        designs: [
          ...[0, 25, 50].map((r) => ({ label: `qrShapeRadius ${r}`, config: { ...ink, qrShapeRadius: r } })),
          { label: 'centerText', config: { ...ink, eccLevel: 'H', centerText: { text: 'MENU' } } },
          {
            label: 'centerText, coloured band',
            config: { ...ink, eccLevel: 'H', centerText: { text: 'OPEN', color: '#FFFFFF', backgroundColor: ACCENT } },
          },
        ],
      },
    ],
    colour: [
      {
        title: 'Gradients: modules, rings, centres, background',
        designs: [
          {
            label: 'foregroundGradient linear',
            config: {
              foregroundGradient: {
                type: 'linear',
                rotation: 45,
                stops: [
                  { offset: 0, color: '#1D4ED8' },
                  { offset: 1, color: '#9333EA' },
                ],
              },
            },
          },
          {
            label: 'foregroundGradient radial',
            config: {
              foregroundGradient: {
                type: 'radial',
                stops: [
                  { offset: 0, color: '#BE185D' },
                  { offset: 1, color: '#1E3A8A' },
                ],
              },
            },
          },
          {
            label: 'finderOuterGradient',
            config: {
              ...ink,
              finderOuterGradient: {
                type: 'linear',
                rotation: 90,
                stops: [
                  { offset: 0, color: '#DC2626' },
                  { offset: 1, color: '#7C2D12' },
                ],
              },
            },
          },
          {
            label: 'finderInnerGradient',
            config: {
              ...ink,
              finderInnerGradient: {
                type: 'linear',
                stops: [
                  { offset: 0, color: '#DC2626' },
                  { offset: 1, color: '#7C3AED' },
                ],
              },
            },
          },
          {
            label: 'backgroundGradient linear',
            config: {
              ...ink,
              backgroundGradient: {
                type: 'linear',
                rotation: 135,
                stops: [
                  { offset: 0, color: '#FFF7ED' },
                  { offset: 1, color: '#DBEAFE' },
                ],
              },
            },
          },
          {
            label: 'backgroundGradient radial',
            config: {
              ...ink,
              backgroundGradient: {
                type: 'radial',
                stops: [
                  { offset: 0, color: '#FFFFFF' },
                  { offset: 1, color: '#D1FAE5' },
                ],
              },
            },
          },
        ],
      },
      {
        title: 'Finder eyes and patterns',
        designs: [
          {
            label: 'finderOuterColor, finderInnerColor',
            config: { ...ink, finderOuterColor: '#15803D', finderInnerColor: ACCENT },
          },
          {
            label: 'finderEyes colours',
            config: {
              ...ink,
              finderEyes: [
                { outerColor: '#DC2626', innerColor: '#1D4ED8' },
                { outerColor: '#15803D', innerColor: '#DC2626' },
                { outerColor: '#1D4ED8', innerColor: '#15803D' },
              ],
            },
          },
          {
            label: 'finderEyes rotation 0 / 90 / 270',
            config: {
              ...ink,
              finderOuterShape: 'drop',
              finderInnerShape: 'drop',
              finderEyes: [{ rotation: 0 }, { rotation: 90 }, { rotation: 270 }],
            },
          },
          {
            label: 'finderEyes flip none / h / v',
            config: {
              ...ink,
              finderOuterShape: 'cut-corner',
              finderInnerShape: 'cut-corner',
              finderEyes: [{ flip: 'none' }, { flip: 'horizontal' }, { flip: 'vertical' }],
            },
          },
          { label: 'alignmentColor', config: { ...ink, alignmentColor: ACCENT } },
          { label: 'timingColor', config: { ...ink, timingColor: ACCENT } },
        ],
      },
      {
        title: 'Light on dark, translucency',
        designs: [
          { label: 'light on dark', config: { primaryColor: '#F8FAFC', backgroundColor: '#0F172A' } },
          {
            label: 'light gradient on dark',
            config: {
              backgroundColor: '#111827',
              foregroundGradient: {
                type: 'radial',
                stops: [
                  { offset: 0, color: '#FDE68A' },
                  { offset: 1, color: '#A5F3FC' },
                ],
              },
            },
          },
          { label: 'translucent background', config: { ...ink, backgroundColor: '#FDE68A80' } },
          { label: 'transparent background', config: { ...ink, backgroundColor: '#FFFFFF00' } },
        ],
      },
    ],
    logos: [
      {
        title: 'logoPlateShape',
        designs: (['none', 'square', 'rounded', 'circle'] as const).map((plate) => ({
          label: `logo, plate ${plate}`,
          config: { ...logo, logoPlateShape: plate, logoPlateColor: '#FED7AA', logoPaddingPercent: 18 },
        })),
      },
      {
        title: 'Background image',
        designs: [
          { label: 'backgroundImageFit cover', config: { ...ink, backgroundImageBase64 } },
          {
            label: 'backgroundImageFit contain',
            config: { ...ink, backgroundImageBase64, backgroundImageFit: 'contain' },
          },
          {
            label: 'backgroundImageOpacity 0.6',
            config: { ...ink, backgroundImageBase64, backgroundImageOpacity: 0.6 },
          },
          { label: 'background image and logo', config: { ...logo, backgroundImageBase64, logoPlateShape: 'circle' } },
        ],
      },
    ],
  };
}

/** zbar with its own test of the inverted image on, as a scanner that reads light-on-dark codes runs it. */
const zbar = await ZBarScanner.create();
zbar.setConfig(ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_TEST_INVERTED, 1);

/** Whether zbar finds exactly the content in a tile. */
async function zbarReads(png: Uint8Array, name: string): Promise<boolean> {
  const { pixels, width, height } = await decodeImage(png, name);
  const found = await scanRGBABuffer(pixels.slice().buffer, width, height, zbar);
  return found.length === 1 && found[0]!.typeName === 'ZBAR_QRCODE' && found[0]!.decode() === CONTENT;
}

await Promise.all([initWasm(), loadResvg()]);
const all = sheets(emblem(), photo());
const unread: string[] = [];
const made = await withService(async (base) => {
  const out: { sheet: string; sections: Section[]; columns: number }[] = [];
  for (const [sheet, groups] of Object.entries(all)) {
    const sections: Section[] = [];
    for (const { title, designs } of groups) {
      const tiles = await inParallel(designs, async ({ label, config }): Promise<Tile> => {
        const name = `${sheet}: ${label}`;
        const { png, headers } = await fetchPng(name, `${base}/api/qr/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: CONTENT, outputWidth: TILE, responseType: 'binary', ...config }),
        });
        // A corrected or adjusted design (a shrunk logo, a shortened caption) is not the one the label names.
        for (const header of ['x-qr-corrections', 'x-qr-warnings']) {
          const said = headers.get(header);
          if (said) throw new Error(`${name}: the service changed the design (${header}): ${decodeURIComponent(said)}`);
        }
        if (!(await zbarReads(png, name))) unread.push(name);
        return { label, png };
      });
      sections.push({ title, tiles });
    }
    out.push({ sheet, sections, columns: Math.min(COLUMNS, Math.max(...groups.map((g) => g.designs.length))) });
  }
  return out;
});
// No sheet is written while any tile is one a scanner of the other family may not read.
if (unread.length) throw new Error(`zbar cannot read ${unread.length} tile(s): ${unread.join('; ')}`);
for (const { sheet, sections, columns } of made)
  await writeSheet(`docs/gallery/${sheet}.png`, sections, { tile: TILE, columns });
