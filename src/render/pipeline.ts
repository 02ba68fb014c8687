import { performance } from 'node:perf_hooks';
import { decorate, decorationInsets, type Decorations } from '../design/decorations.js';
import { gridFromSymbol, type ModuleGrid } from '../design/grid.js';
import { ApiError } from '../errors.js';
import { encode } from '../qr/encode.js';
import { DataTooLongError, type QrSymbol } from '../qr/types.js';
import { FILE_FORMATS } from '../schema/qr-config.js';
import { weakestContrast } from './contrast.js';
import { decodeLossy, encodeJpg, encodeWebpImage } from './formats/lossy.js';
import { sceneToPdf } from './formats/pdf.js';
import { encodePng } from './formats/png.js';
import { computeLayout, type Layout } from './layout.js';
import { rasterizeFlat, rasterizeSvg, type Raster } from './raster.js';
import { buildScene, type Scene } from './scene.js';
import { sceneToSvg } from './svg.js';
import type { RenderConfig, RenderOutcome, RenderTask } from './types.js';
import { MIN_CONTRAST, verifyRaster, type Verification } from './verify.js';

/** Budgets of the interface contract: larger outputs are refused as OUTPUT_TOO_COMPLEX. */
export const BUDGETS = { vectorBytes: 20 * 1024 * 1024, canvasPx: 5120 } as const;
/** Vector exports are verified from a raster with about this many pixels per module. */
const VECTOR_CHECK_MODULE_PX = 4;

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
      throw new ApiError('CONTENT_TOO_LONG', `The content needs ${e.bitsNeeded} bits, more than a QR code holds at ECC ${cfg.eccLevel} (${e.bitsAvailable}). Shorten it or use a lower eccLevel.`, 'content');
    }
    throw e;
  }
}

/** Scales a layout for a raster drawn at a different size; positions may become fractional. */
const scaleLayout = (l: Layout, s: number): Layout => ({ ...l, modulePx: l.modulePx * s, width: Math.round(l.width * s), height: Math.round(l.height * s), originX: l.originX * s, originY: l.originY * s });

interface Drawn { scene: Scene; grid: ModuleGrid; svg?: string }

function draw(cfg: RenderConfig, grid: ModuleGrid, layout: Layout, decorations: Decorations, needSvg: boolean): Drawn {
  const scene = buildScene(grid, layout, cfg, seedOf(cfg.content), decorations.layers);
  if (!needSvg && scene.flat) return { scene, grid };
  const svg = sceneToSvg(scene);
  checkVectorBudget(svg.length);
  return { scene, grid, svg };
}

/** Refuses a vector document over budget, before it is rasterized or turned into a PDF. */
export function checkVectorBudget(bytes: number): void {
  if (bytes > BUDGETS.vectorBytes) {
    throw new ApiError('OUTPUT_TOO_COMPLEX', `The SVG would be ${(bytes / 1048576).toFixed(1)} MB, over the 20 MB budget. Export PNG, shorten the content or use simpler module shapes.`);
  }
}

/** Refuses a canvas over budget before anything is drawn. */
export function checkCanvasBudget(layout: Layout): void {
  if (layout.width > BUDGETS.canvasPx || layout.height > BUDGETS.canvasPx) {
    throw new ApiError('OUTPUT_TOO_COMPLEX', `The canvas would be ${layout.width}×${layout.height} px, over the ${BUDGETS.canvasPx} px budget.`);
  }
}

const rasterOf = (d: Drawn, width: number): Raster => (d.scene.flat ? rasterizeFlat(d.grid, d.scene) : rasterizeSvg(d.svg!, width));

/**
 * Renders one QR export and proves it scans: encode → layout → scene → (svg) → raster → file → verify.
 * Every stage is a pure function of the previous one; this module only orders them and times them.
 */
export async function render(task: RenderTask): Promise<RenderOutcome> {
  const cfg = task.config;
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 1000) / 1000;
    t = now;
  };

  const weakest = weakestContrast(cfg);
  if (weakest.ratio < MIN_CONTRAST) {
    throw new ApiError('LOW_CONTRAST', `${weakest.field} has a contrast of ${weakest.ratio.toFixed(2)}:1 with the background; at least ${MIN_CONTRAST}:1 is needed.`, weakest.field);
  }
  const symbol = encodeSymbol(cfg);
  lap('encode');
  const layout = computeLayout(symbol.size, cfg, (w, h) => decorationInsets(cfg, w, h));
  checkCanvasBudget(layout);
  const format = cfg.fileFormat;
  const vector = format === 'svg' || format === 'pdf';
  const plain = gridFromSymbol(symbol);
  const decorations = await decorate(cfg, task.assets, plain, layout);
  lap('decorate');
  const grid = decorations.cleared ? { ...plain, cleared: decorations.cleared } : plain;
  const drawn = draw(cfg, grid, layout, decorations, vector);
  lap('scene');

  let bytes: Uint8Array;
  let checked: Raster;
  let checkedLayout = layout;
  if (vector) {
    bytes = format === 'svg' ? utf8.encode(drawn.svg!) : await sceneToPdf(drawn.scene);
    lap(format);
    // The PDF is drawn from the same scene as the SVG, so rasterizing the SVG checks the PDF's geometry.
    const s = Math.min(1, VECTOR_CHECK_MODULE_PX / layout.modulePx);
    checked = rasterizeSvg(drawn.svg!, Math.max(1, Math.round(layout.width * s)));
    checkedLayout = scaleLayout(layout, checked.width / layout.width);
    lap('raster');
  } else {
    const raster = rasterOf(drawn, layout.width);
    lap('raster');
    if (format === 'png') {
      bytes = encodePng(raster);
      checked = raster;
    } else {
      bytes = format === 'jpg' ? await encodeJpg(raster) : await encodeWebpImage(raster, drawn.scene.flat);
      checked = await decodeLossy(format, bytes);
    }
    lap(format);
  }

  const verification = await verifyRaster({ raster: checked, layout: checkedLayout, expected: utf8.encode(cfg.content), foreground: weakest.foreground, background: weakest.background });
  lap('verify');
  const refusal = refuse(verification);
  if (refusal) return refusal;

  return {
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
    verification,
    corrections: decorations.corrections,
    warnings: decorations.warnings,
    timings,
  };
}

/** A failed check is never returned as a success. */
function refuse(v: Verification): RenderOutcome | null {
  if (v.failures.length === 0) return null;
  return { ok: false, code: 'QR_UNSCANNABLE', message: `The QR code failed verification: ${v.failures.join('; ')}.` };
}
