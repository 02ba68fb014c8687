import { performance } from 'node:perf_hooks';
import { decorate, type Decorations } from '../design/decorations.js';
import { gridFromSymbol, type ModuleGrid } from '../design/grid.js';
import { ApiError, contentTooLong } from '../errors.js';
import { decodeLossy } from '../images/decode.js';
import { weakestContrast } from '../model/contrast.js';
import type { Layout } from '../model/layout.js';
import type { IndexedRaster, Raster } from '../model/raster.js';
import type { RenderConfig } from '../model/render-config.js';
import type { ColorSpace } from '../model/cmyk.js';
import type { PrintSize } from '../model/print-size.js';
import { FILE_FORMATS, FORMAT_NAMES, type FileFormat } from '../model/vocabulary.js';
import { encode } from '../qr/encode.js';
import { DataTooLongError, type QrSymbol } from '../qr/types.js';
import { withDensity } from './formats/density.js';
import { encodeJpg } from './formats/jpeg.js';
import { jpegGrey } from './formats/jpeg-grey.js';
import { sceneToEps } from './formats/eps.js';
import { sceneToPdf } from './formats/pdf.js';
import { encodePng } from './formats/png.js';
import { encodeWebpImage } from './formats/webp.js';
import type { ResidentRaster } from './kernel.js';
import { designLayout } from './layout.js';
import { rasterizeFlat, rasterizeScene } from './raster.js';
import { buildScene, type Scene } from './scene.js';
import { sceneToSvg } from './svg.js';
import { stopIfRaised } from './stop-flag.js';
import type { RenderSuccess, RenderTask } from './types.js';
import { judgeRaster, type Failure, type Verdict } from './verify/index.js';

/** Budgets of the contract (docs/contract.md): larger outputs are refused as OUTPUT_TOO_COMPLEX. */
export const BUDGETS = { vectorBytes: 20 * 1024 * 1024, canvasPx: 5120 } as const;

const utf8 = new TextEncoder();

/** FNV-1a: a stable seed per content, so seeded variation renders the same bytes for the same request. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function encodeSymbol(cfg: RenderConfig): QrSymbol {
  try {
    return encode(cfg.content, { ecc: cfg.eccLevel, minVersion: cfg.minVersion, mask: cfg.maskPattern });
  } catch (e) {
    if (e instanceof DataTooLongError) {
      throw contentTooLong(e.bitsNeeded, e.bitsAvailable, cfg.eccLevel);
    }
    throw e;
  }
}

/** What a render draws, before any file is written: the symbol, where it sits, and the scene. */
export interface Designed {
  symbol: QrSymbol;
  layout: Layout;
  grid: ModuleGrid;
  scene: Scene;
  decorations: Decorations;
}

/** The symbol of a design, where it sits on the canvas, and its modules before any decoration. */
export function placeSymbol(cfg: RenderConfig): { symbol: QrSymbol; layout: Layout; grid: ModuleGrid } {
  const symbol = encodeSymbol(cfg);
  const layout = designLayout(cfg, symbol.size);
  return { symbol, layout, grid: gridFromSymbol(symbol) };
}

/**
 * The design stages: encode → layout → decorations → scene. `lap` is called after each, for timings.
 * Exported for the tests and tools that draw a design without writing a file.
 */
export async function designScene(task: RenderTask, lap: (stage: string) => void = () => {}): Promise<Designed> {
  const cfg = task.config;
  const { symbol, layout, grid: plain } = placeSymbol(cfg);
  lap('encode');
  checkCanvasBudget(layout, cfg.fileFormat);
  const decorations = await decorate(cfg, task.assets, plain, layout);
  lap('decorate');
  const grid = decorations.cleared ? { ...plain, cleared: decorations.cleared } : plain;
  const scene = buildScene(grid, layout, cfg, seedOf(cfg.content), decorations.layers);
  lap('scene');
  return { symbol, layout, grid, scene, decorations };
}

/**
 * Refuses a vector document over budget, before it is rasterized or turned into a PDF. The PDF is written
 * from the same paths as the SVG, so the SVG's length measures both.
 */
export function checkVectorBudget(bytes: number, format: 'svg' | 'pdf' | 'eps'): void {
  if (bytes > BUDGETS.vectorBytes) {
    throw new ApiError('OUTPUT_TOO_COMPLEX', {
      message: `The ${FORMAT_NAMES[format]} would hold ${(bytes / 1048576).toFixed(1)} MB of vector paths, over the ${BUDGETS.vectorBytes / 1048576} MB vector budget. Shorten the content, use simpler module shapes, or export a raster format (PNG, JPEG or WebP).`,
    });
  }
}

/** Refuses a canvas over budget before anything is drawn. */
export function checkCanvasBudget(layout: Layout, format: FileFormat): void {
  if (layout.width > BUDGETS.canvasPx || layout.height > BUDGETS.canvasPx) {
    throw new ApiError('OUTPUT_TOO_COMPLEX', {
      message: `The ${FORMAT_NAMES[format]}'s canvas would be ${layout.width}×${layout.height} px, over the ${BUDGETS.canvasPx} px canvas budget. Use a smaller outputWidth, quiet zone or frame.`,
    });
  }
}

/**
 * The pixels of the scene: a flat scene filled run by run, anything else drawn by our raster kernel. A
 * raster export is written from them; a vector export, written from the same scene, is verified from them
 * (README, "How each export is verified"; test/render/vector-check.test.ts holds every vector file to this
 * raster, the file drawn by independent renderers). Exported for those tests.
 */
export const sceneRaster = (d: Designed): IndexedRaster | ResidentRaster =>
  d.scene.flat ? rasterizeFlat(d.grid, d.scene) : rasterizeScene(d.scene);

/**
 * What the verifier reads of a lossy export: the file decoded again, as its reader decodes it. A JPEG is
 * read as the grey zxing's reader takes of it (formats/jpeg-grey.ts: Y, never converted to colour).
 */
export const readBack = async (format: 'jpg' | 'webp', bytes: Uint8Array): Promise<Raster> =>
  format === 'jpg' ? jpegGrey(bytes) : await decodeLossy(format, bytes);

/**
 * The export's bytes and the raster that verifies them: for PNG, SVG and PDF the scene's pixels the file
 * was written from or encodes; for JPEG and WebP the file decoded again (readBack). `drawn` is the raster
 * the kernel drew, left in its memory: the caller releases it once the file is verified.
 */
async function writeFile(
  d: Designed,
  format: FileFormat,
  print: PrintSize | undefined,
  space: ColorSpace,
  lap: (stage: string) => void,
): Promise<{ bytes: Uint8Array; checked: Raster; drawn?: ResidentRaster }> {
  if (format === 'svg' || format === 'pdf' || format === 'eps') {
    const svg = sceneToSvg(d.scene, print);
    checkVectorBudget(svg.length, format);
    const bytes =
      format === 'svg'
        ? utf8.encode(svg)
        : format === 'pdf'
          ? sceneToPdf(d.scene, print, space)
          : sceneToEps(d.scene, print, space);
    lap(format);
    const drawn = sceneRaster(d);
    lap('raster');
    return { bytes, checked: drawn, ...('release' in drawn && { drawn }) };
  }
  const drawn = sceneRaster(d);
  lap('raster');
  const encoded =
    format === 'png' ? encodePng(drawn) : format === 'jpg' ? encodeJpg(drawn) : await encodeWebpImage(drawn);
  const bytes = print ? withDensity(format, encoded, print.dpi, drawn) : encoded;
  lap(format);
  const checked = format === 'png' ? drawn : await readBack(format, bytes);
  return { bytes, checked, ...('release' in drawn && { drawn }) };
}

/** One render and its verification's failures, each with the check that failed. */
export interface Rendered {
  success: RenderSuccess;
  failures: Failure[];
}

/**
 * Renders one QR export and verifies it: encode → layout → decorations → scene → (svg) → raster → file →
 * verify. Every stage is a pure function of the previous one; this module only orders and times them.
 * Judging the verification, and correcting the design when it fails, is the guarantee's (guarantee.ts).
 */
export async function renderOnce(task: RenderTask): Promise<Rendered> {
  const cfg = task.config;
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 1000) / 1000;
    t = now;
  };

  // The stop flag is read only where the kernel holds no canvas of this render, so stopping leaks nothing.
  stopIfRaised(task.stop);
  const weakest = weakestContrast(cfg);
  const designed = await designScene(task, lap);
  const { symbol, layout, decorations } = designed;
  const format = cfg.fileFormat;

  stopIfRaised(task.stop);
  const { bytes, checked, drawn } = await writeFile(designed, format, cfg.printSize, cfg.colorSpace ?? 'rgb', lap);
  let verdict: Verdict;
  try {
    stopIfRaised(task.stop);
    verdict = await judgeRaster({
      raster: checked,
      exact: designed.scene.flat,
      format,
      layout,
      expected: utf8.encode(cfg.content),
      foreground: weakest.foreground,
      background: weakest.background,
    });
  } finally {
    drawn?.release();
  }
  lap('verify');

  const success: RenderSuccess = {
    ok: true,
    bytes,
    format,
    contentType: FILE_FORMATS[format],
    width: layout.width,
    height: layout.height,
    version: symbol.version,
    eccLevel: symbol.ecc,
    mask: symbol.mask,
    modulePx: layout.modulePx,
    verification: verdict.verification,
    corrections: decorations.corrections,
    warnings: decorations.warnings,
    timings,
  };
  return { success, failures: verdict.failures };
}
