/**
 * The second decoder family in the verifier: zbar reads grey bytes the verifier made, byte for byte against
 * the content, in the polarity asked; an anti-aliased export is judged by what zbar reads at its own size,
 * not from afar; and the verification reports each family's reading.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addBase64Assets } from '../../src/api/render-request.js';
import { parseHex, WHITE } from '../../src/model/color.js';
import { weakestContrast } from '../../src/model/contrast.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { render } from '../../src/render/guarantee.js';
import { designScene } from '../../src/render/pipeline.js';
import { rasterizeFlat, rasterizeScene } from '../../src/render/raster.js';
import { sceneToSvg } from '../../src/render/svg.js';
import { verifyRaster } from '../../src/render/verify/index.js';
import { zbarDecodedAt } from '../../src/render/verify/plan.js';
import { scan } from '../../src/render/verify/read.js';
import { type GreyPixels, zbarReads } from '../../src/render/verify/zbar.js';
import { type QrConfigBody, prepareRender } from '../../src/schema/prepare-render.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm, zbarInstance } from '../../wasm/index.js';
import { decodeOne, decodeWithZbar, fileToImage } from '../helpers/decode.js';
import { prng, randomDesign } from '../helpers/random-design.js';

beforeAll(initWasm);

const CONTENT = 'https://example.com/zbar/verify';
const bytes = (s: string) => new TextEncoder().encode(s);

/** The grey image of a design as the verifier hands a PNG of it to zbar. */
async function greyOf(over: Partial<RenderConfig>): Promise<GreyPixels & { modulePx: number; flat: boolean }> {
  const config = { ...QR_DEFAULTS, content: CONTENT, outputWidth: 330, ...over } as RenderConfig;
  const { grid, scene, layout } = await designScene({ config, assets: {} });
  const raster = scene.flat ? rasterizeFlat(grid, scene) : rasterizeScene(scene);
  const { zbarGrey } = scan(raster, true, [], true);
  if ('release' in raster) raster.release();
  return { width: raster.width, height: raster.height, pixels: zbarGrey!, modulePx: layout.modulePx, flat: scene.flat };
}

/** A box filter by `f`, plain arithmetic: the reduction as a GreyImage (PGM) the verifier hands on. */
function reduce(img: GreyPixels, f: number) {
  const w = Math.floor(img.width / f);
  const h = Math.floor(img.height / f);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++)
        for (let dx = 0; dx < f; dx++) s += img.pixels[(y * f + dy) * img.width + x * f + dx]!;
      out[y * w + x] = Math.round(s / (f * f));
    }
  const header = new TextEncoder().encode(`P5\n${w} ${h}\n255\n`);
  return { width: w, height: h, pgm: new Uint8Array([...header, ...out]) };
}

describe('zbar in the verifier', () => {
  it('reads the content byte for byte, and nothing else', async () => {
    const img = await greyOf({});
    expect(await zbarReads(img, bytes(CONTENT))).toBe(true);
    expect(await zbarReads(img, bytes(`${CONTENT}x`))).toBe(false);
    expect(await zbarReads(img, bytes(CONTENT).subarray(1))).toBe(false);
  });

  it('reads a light-on-dark code only when asked to invert it, as the verifier hands it over', async () => {
    const img = await greyOf({ primaryColor: '#F5F5F5', backgroundColor: '#102030' });
    expect(await zbarReads(img, bytes(CONTENT))).toBe(false);
    expect(await zbarReads(img, bytes(CONTENT), true)).toBe(true);
  });

  it('an image of odd size is inverted to its last byte', async () => {
    const img = await greyOf({ primaryColor: '#F5F5F5', backgroundColor: '#102030', outputWidth: 331 });
    expect((img.width * img.height) % 4).not.toBe(0);
    expect(await zbarReads(img, bytes(CONTENT), true)).toBe(true);
  });

  it('an anti-aliased export must be read at its own size and from afar: fine grain at full size fails it, though the reduction averages it away', async () => {
    const img = await greyOf({});
    const f = Math.floor(img.modulePx / 3);
    expect(f).toBeGreaterThan(1);
    // Every other light pixel dark: a scan line at full size sees nothing but edges; a box of f × f
    // pixels sees mid-grey light modules beside black ones.
    const grainy = img.pixels.map((v, i) => (v > 128 && (i % img.width) % 2 === Math.floor(i / img.width) % 2 ? 0 : v));
    const native = { ...img, pixels: grainy };
    const far = reduce(native, f);
    const expected = bytes(CONTENT);
    expect(
      await zbarReads({ ...far, pixels: far.pgm.subarray(far.pgm.length - far.width * far.height) }, expected),
    ).toBe(true);
    expect(await zbarReads(native, expected)).toBe(false);
    expect(await zbarDecodedAt(far, native, false, expected)).toBe(null);
    // A flat raster's reduction stands for it (no full size to read): the same images, judged from afar.
    expect(await zbarDecodedAt(far, null, false, expected)).toBe('reduced');
    // Read at its own size and from afar: reduced; at its own size only, it has not read it.
    expect(await zbarDecodedAt(far, img, false, expected)).toBe('reduced');
    const blank = { ...far, pgm: far.pgm.map((v, i) => (i < far.pgm.length - far.width * far.height ? v : 255)) };
    expect(await zbarReads(img, expected)).toBe(true);
    expect(await zbarDecodedAt(blank, img, false, expected)).toBe(null);
  });

  it('the verification reports each family: both read a plain code from afar', async () => {
    const config = { ...QR_DEFAULTS, content: CONTENT, outputWidth: 330 } as RenderConfig;
    const { grid, scene, layout } = await designScene({ config, assets: {} });
    const v = await verifyRaster({
      raster: rasterizeFlat(grid, scene),
      exact: true,
      format: 'png',
      layout,
      expected: bytes(CONTENT),
      foreground: parseHex('#000000'),
      background: WHITE,
    });
    expect(v).toMatchObject({
      decoded: true,
      decodedAt: 'reduced',
      decoders: { zxing: { decoded: true, decodedAt: 'reduced' }, zbar: { decoded: true, decodedAt: 'reduced' } },
      failures: [],
    });
  });

  // The verifier makes an anti-aliased export's full-size grey in zbar's own memory (zbar.ts, ZbarImage): each
  // verdict must give it back, whether zbar reads the code or not, or every render would leave an image behind.
  it("gives back the full-size grey it made in zbar's memory after every verdict, read or not", async () => {
    const z = await zbarInstance();
    const judge = async (design: Partial<RenderConfig>, i: number) => {
      const config = { ...QR_DEFAULTS, content: `${CONTENT}/${i}`, outputWidth: 600, ...design } as RenderConfig;
      const { scene, layout } = await designScene({ config, assets: {} });
      const raster = rasterizeScene(scene);
      const weakest = weakestContrast(config);
      const v = await verifyRaster({
        raster,
        exact: false,
        format: 'png',
        layout,
        expected: bytes(i % 2 ? 'not the content' : config.content),
        foreground: weakest.foreground,
        background: weakest.background,
      });
      raster.release();
      return v.decoders.zbar.decoded;
    };
    // Warm: zbar's memory grows to what one read needs, and no further.
    for (let i = 0; i < 4; i++) await judge({ moduleShape: 'rounded' }, i);
    const settled = z.memory.buffer.byteLength;
    const read: boolean[] = [];
    // 40 images of 600 × 600 px kept would take 14 MB more.
    for (let i = 0; i < 40; i++) read.push(await judge({ moduleShape: 'rounded' }, i));
    expect(read).toContain(true);
    expect(read).toContain(false);
    expect(z.memory.buffer.byteLength).toBe(settled);
  });
});

describe('zbar is handed the grey it computes itself', () => {
  /**
   * The design behind seed 3269336352 of test/measure/zbar-reductions.ts (i = 5919 of its round-and-square
   * run, docs/design-decisions.md): an SVG at 12 px a module, circle modules at scale 0.52 with a logo. When the
   * verifier read an SVG from resvg's drawing of it, zbar, handed that drawing in zxing's grey, read the code,
   * though zbar reads nothing in the file: in its own grey, one level the other way decides this marginal code.
   */
  const SEED = 3269336352;
  const ROUND_AND_SQUARE = {
    moduleShape: ['square', 'rounded', 'extra-rounded', 'dots', 'circle', 'squircle', 'smooth-round'],
    finderOuterShape: ['square', 'rounded', 'extra-rounded', 'cut-corner'],
    finderInnerShape: ['square', 'dot', 'circle', 'rounded', 'extra-rounded', 'squircle'],
  };
  /** The design as that run drew it: randomDesign, its shapes drawn from the round-and-square lists. */
  function seedDesign() {
    const design = randomDesign(SEED);
    const pick = prng(SEED ^ 0x5bd1e995);
    for (const [field, names] of Object.entries(ROUND_AND_SQUARE)) design[field] = pick.pick(names);
    const assets = addBase64Assets(design, {});
    const { config } = prepareRender(design as QrConfigBody, assets);
    expect(config).toMatchObject({ fileFormat: 'svg', moduleShape: 'circle', moduleScale: 0.52 });
    return { config, assets, expected: Buffer.from(bytes(config.content)) };
  }

  it(`seed ${SEED}: zbar's verdict on the file's pixels is an independent zbar read of the file, byte for byte`, async () => {
    const { config, assets, expected } = seedDesign();
    const { scene, layout } = await designScene({ config, assets });
    const file = bytes(sceneToSvg(scene));
    const readsFile = (await decodeWithZbar('svg', file)).some((b) => Buffer.from(b).equals(expected));
    expect(readsFile).toBe(false);
    // The file as resvg draws it, as the verifier read SVGs then.
    const drawn = await fileToImage('svg', file);
    const weakest = weakestContrast(config);
    const v = await verifyRaster({
      raster: { kind: 'rgba', width: drawn.width, height: drawn.height, pixels: new Uint8Array(drawn.data.buffer) },
      exact: false,
      format: 'svg',
      layout,
      expected,
      foreground: weakest.foreground,
      background: weakest.background,
    });
    expect(v.decoders.zbar.decoded).toBe(readsFile);
  });

  it(`seed ${SEED}: what the service returns, zbar and zxing read from the file, byte for byte`, async () => {
    const { config, assets, expected } = seedDesign();
    const out = await render({ config, assets });
    if (!out.ok) throw new Error(out.message);
    expect((await decodeWithZbar('svg', out.bytes)).some((b) => Buffer.from(b).equals(expected))).toBe(true);
    expect(Buffer.from((await decodeOne('svg', out.bytes)).bytes).equals(expected)).toBe(true);
  });
});
