import type { Decorations } from './decorations.js';
import { decodeImage } from '../images/decode.js';
import { resample, shrinkToFit } from '../images/resample.js';
import { composite, contrastRatio, luma, luminance, WHITE, type Rgba } from '../model/color.js';
import { backgroundColors, foregroundColors, MIN_CONTRAST } from '../model/contrast.js';
import type { Layout } from '../model/layout.js';
import type { Box } from '../model/paint.js';
import type { RgbaRaster } from '../model/raster.js';
import type { Correction, RenderConfig } from '../model/render-config.js';

/**
 * Outside the symbol every pixel of the image stays within this share of the grey distance from the
 * background to the foreground. The verifier requires the quiet zone on the background's side of the
 * midpoint (0.5); half of that leaves room for JPEG and WebP ringing and for resampling.
 */
const QUIET_SHARE = 0.25;
/** Image pixels around the symbol's edge faded too: resampling blends each drawn pixel with its neighbours. */
const FADE_MARGIN_PX = 2;
/** The contrast check reads the image at this many pixels per module, as the verifier and a phone see it. */
const ANALYSIS_PX_PER_MODULE = 3;
const EPS = 1e-9;

const greyOf = (c: Rgba) => luma(c.r, c.g, c.b);

/** Which part of the image is drawn (source pixels) and where on the canvas (canvas pixels). */
function placement(
  img: RgbaRaster,
  fit: RenderConfig['backgroundImageFit'],
  width: number,
  height: number,
): { rect: Box; box: Box } {
  if (fit === 'cover') {
    const s = Math.max(width / img.width, height / img.height);
    const w = Math.min(img.width, Math.round(width / s));
    const h = Math.min(img.height, Math.round(height / s));
    return {
      rect: { x: Math.floor((img.width - w) / 2), y: Math.floor((img.height - h) / 2), w, h },
      box: { x: 0, y: 0, w: width, h: height },
    };
  }
  const s = Math.min(width / img.width, height / img.height);
  const w = img.width * s;
  const h = img.height * s;
  return { rect: { x: 0, y: 0, w: img.width, h: img.height }, box: { x: (width - w) / 2, y: (height - h) / 2, w, h } };
}

/** The symbol's area on the canvas, in pixels. */
const symbolBox = (l: Layout): Box => ({ x: l.originX, y: l.originY, w: l.size * l.modulePx, h: l.size * l.modulePx });

/** The image pixels under the symbol, reduced to about ANALYSIS_PX_PER_MODULE per module. */
function underSymbol(px: RgbaRaster, box: Box, layout: Layout): RgbaRaster | null {
  const s = symbolBox(layout);
  const kx = px.width / box.w;
  const ky = px.height / box.h;
  const x0 = Math.max(0, Math.floor((s.x - box.x) * kx)),
    x1 = Math.min(px.width, Math.ceil((s.x + s.w - box.x) * kx));
  const y0 = Math.max(0, Math.floor((s.y - box.y) * ky)),
    y1 = Math.min(px.height, Math.ceil((s.y + s.h - box.y) * ky));
  if (x1 <= x0 || y1 <= y0) return null;
  const f = Math.max(1, (layout.modulePx * kx) / ANALYSIS_PX_PER_MODULE);
  return resample(
    px,
    { x: x0, y: y0, w: x1 - x0, h: y1 - y0 },
    Math.max(1, Math.round((x1 - x0) / f)),
    Math.max(1, Math.round((y1 - y0) / f)),
  );
}

/** WCAG luminance is a sum of one term per channel: tabulated once, it costs three lookups a pixel. */
const channelLuminance = (of: (v: number) => Rgba) => Float64Array.from({ length: 256 }, (_, v) => luminance(of(v)));
const LUM_R = channelLuminance((v) => ({ r: v, g: 0, b: 0, a: 255 }));
const LUM_G = channelLuminance((v) => ({ r: 0, g: v, b: 0, a: 255 }));
const LUM_B = channelLuminance((v) => ({ r: 0, g: 0, b: v, a: 255 }));
const lum = (r: number, g: number, b: number) => LUM_R[r]! + LUM_G[g]! + LUM_B[b]!;

/**
 * Whether every foreground colour keeps MIN_CONTRAST against the image blended at `opacity` over every
 * background colour: only the darkest and the lightest blended pixels need checking.
 */
function holdsContrast(sample: RgbaRaster, opacity: number, fgs: Rgba[], bgs: Rgba[]): boolean {
  const p = sample.pixels;
  for (const bg of bgs) {
    let lo = Infinity,
      hi = -Infinity;
    let dark = bg,
      light = bg;
    for (let i = 0; i < p.length; i += 4) {
      const a = (opacity * p[i + 3]!) / 255;
      const r = Math.round(bg.r + a * (p[i]! - bg.r)),
        g = Math.round(bg.g + a * (p[i + 1]! - bg.g)),
        b = Math.round(bg.b + a * (p[i + 2]! - bg.b));
      const l = lum(r, g, b);
      if (l < lo) {
        lo = l;
        dark = { r, g, b, a: 255 };
      }
      if (l > hi) {
        hi = l;
        light = { r, g, b, a: 255 };
      }
    }
    for (const fg of fgs) {
      if (
        contrastRatio(composite(fg, dark), dark) < MIN_CONTRAST ||
        contrastRatio(composite(fg, light), light) < MIN_CONTRAST
      )
        return false;
    }
  }
  return true;
}

/** The highest opacity, in hundredths and at most the requested one, at which the contrast holds. */
function safeOpacity(sample: RgbaRaster | null, requested: number, fgs: Rgba[], bgs: Rgba[]): number {
  if (!sample || holdsContrast(sample, requested, fgs, bgs)) return requested;
  // Opacity 0 shows the plain background: the floor, whose own contrast the guarantee has judged already.
  let lo = 0;
  let hi = Math.ceil(requested * 100 - EPS);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (holdsContrast(sample, mid / 100, fgs, bgs)) lo = mid;
    else hi = mid;
  }
  return lo / 100;
}

/**
 * Bakes the opacity into the image's alpha, so renderers draw it directly rather than through an offscreen
 * group (at 4096 px that group costs resvg seconds), and fades it outside the symbol. Everything outside the
 * symbol is quiet zone (the required four modules, any wider quietZone, the pixels left over by whole-pixel
 * modules) and must binarize as background: there each pixel's grey stays within QUIET_SHARE of the way
 * from the background to the foreground.
 */
function applyOpacity(px: RgbaRaster, box: Box, layout: Layout, opacity: number, fgs: Rgba[], bgs: Rgba[]): void {
  const bgGreys = bgs.map(greyOf);
  const [darkest, lightest] = [Math.min(...bgGreys), Math.max(...bgGreys)];
  let allowed = Infinity;
  for (const bg of bgs)
    for (const fg of fgs) allowed = Math.min(allowed, QUIET_SHARE * Math.abs(greyOf(bg) - greyOf(composite(fg, bg))));
  const s = symbolBox(layout);
  const kx = box.w / px.width;
  const ky = box.h / px.height;
  // An image pixel counts as inside the symbol only if it and FADE_MARGIN_PX neighbours (plus a canvas pixel) are.
  const inside = (start: number, k: number, i: number, lo: number, len: number) =>
    start + (i - FADE_MARGIN_PX) * k - 1 >= lo && start + (i + 1 + FADE_MARGIN_PX) * k + 1 <= lo + len;
  const p = px.pixels;
  for (let y = 0; y < px.height; y++) {
    const rowInside = inside(box.y, ky, y, s.y, s.h);
    for (let x = 0, o = y * px.width * 4; x < px.width; x++, o += 4) {
      let a = p[o + 3]! * opacity;
      if (!(rowInside && inside(box.x, kx, x, s.x, s.w))) {
        const g = luma(p[o]!, p[o + 1]!, p[o + 2]!);
        const deviation = Math.max(Math.abs(g - darkest), Math.abs(g - lightest));
        if ((deviation * a) / 255 > allowed) a = (allowed / deviation) * 255;
      }
      p[o + 3] = Math.floor(a);
    }
  }
}

/**
 * The background image, under everything else, over the whole canvas (`cover` crops it to fill, `contain`
 * letterboxes it), at backgroundImageOpacity lowered as far as needed for every foreground colour to keep
 * 4:1 against the image where it sits behind the symbol, and faded outside the symbol so the quiet zone
 * stays quiet. It is embedded at no more pixels than it covers on the canvas.
 */
export async function backgroundImageDecoration(
  cfg: RenderConfig,
  bytes: Uint8Array,
  layout: Layout,
  field = 'background',
): Promise<Decorations> {
  const image = await decodeImage(bytes, field);
  const { rect, box } = placement(image, cfg.backgroundImageFit, layout.width, layout.height);
  const px = shrinkToFit(image, rect, box.w, box.h);
  const fgs = foregroundColors(cfg).map((f) => f.color);
  const bgs = backgroundColors(cfg).map((b) => composite(b.color, WHITE));
  const requested = cfg.backgroundImageOpacity;
  const opacity = safeOpacity(underSymbol(px, box, layout), requested, fgs, bgs);
  applyOpacity(px, box, layout, opacity, fgs, bgs);

  const corrections: Correction[] = [];
  const warnings: string[] = [];
  if (opacity < requested) {
    corrections.push({
      field: 'backgroundImageOpacity',
      from: requested,
      to: opacity,
      reason: `the image behind the code would leave the modules under ${MIN_CONTRAST}:1 contrast`,
    });
    warnings.push(
      `The background image opacity was lowered from ${requested} to ${opacity} so the modules keep ${MIN_CONTRAST}:1 contrast.`,
    );
  }
  const below = opacity > 0 ? [{ kind: 'image' as const, space: 'canvas' as const, box, image: px, opacity: 1 }] : [];
  return { layers: { below, above: [] }, corrections, warnings };
}
