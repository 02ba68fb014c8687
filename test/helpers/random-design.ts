/**
 * Seeded random designs drawn from the whole QrConfig vocabulary, for the corpus test and the gallery.
 * The same seed always gives the same design, so a failing case can be replayed.
 */
import {
  FINDER_INNER_SHAPES,
  FINDER_OUTER_SHAPES,
  FONT_FAMILIES,
  FRAME_STYLES,
  MODULE_SHAPES,
} from '../../src/model/vocabulary.js';
import { encodePng } from '../../src/render/formats/png.js';

export function prng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}

const hex = (r: number, g: number, b: number) =>
  `#${[r, g, b]
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** A colour of the given lightness band (0 dark … 1 light) with a random hue. */
function colour(rnd: ReturnType<typeof prng>, light: number) {
  const h = rnd.next() * 6;
  const sat = 0.3 + rnd.next() * 0.7;
  const base = [Math.abs(h - 3) - 1, 2 - Math.abs(h - 2), 2 - Math.abs(h - 4)].map((v) => Math.max(0, Math.min(1, v)));
  return hex(
    ...(base.map((v) => (light + (v - 0.5) * sat * (light < 0.5 ? light * 1.6 : (1 - light) * 1.6)) * 255) as [
      number,
      number,
      number,
    ]),
  );
}

function gradient(rnd: ReturnType<typeof prng>, light: number) {
  const n = rnd.int(2, 3);
  return {
    type: rnd.pick(['linear', 'radial'] as const),
    rotation: rnd.int(0, 360),
    stops: Array.from({ length: n }, (_, i) => ({ offset: i / (n - 1), color: colour(rnd, light) })),
  };
}

/** A small emblem (a disc in a random colour) as a PNG upload, base64. */
function emblem(rnd: ReturnType<typeof prng>): string {
  const n = 48;
  const pixels = new Uint8Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) pixels[y * n + x] = Math.hypot(x - 23.5, y - 23.5) < 21 ? 1 : 0;
  const c = { r: rnd.int(0, 200), g: rnd.int(0, 200), b: rnd.int(0, 200), a: 255 };
  return Buffer.from(
    encodePng({ kind: 'indexed', width: n, height: n, pixels, palette: [{ r: 255, g: 255, b: 255, a: 0 }, c] }),
  ).toString('base64');
}

/** A soft two-colour "photo" as a PNG upload, base64. */
function photo(rnd: ReturnType<typeof prng>): string {
  const [w, h] = [64, 48];
  const a = [rnd.int(0, 255), rnd.int(0, 255), rnd.int(0, 255)];
  const b = [rnd.int(0, 255), rnd.int(0, 255), rnd.int(0, 255)];
  const pixels = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const t = ((i % w) + Math.floor(i / w)) / (w + h);
    pixels.set([...a.map((v, k) => Math.round(v + (b[k]! - v) * t)), 255], i * 4);
  }
  return Buffer.from(encodePng({ kind: 'rgba', width: w, height: h, pixels })).toString('base64');
}

const WORDS = ['menu', 'café', 'straße', '東京', 'event', 'ticket', 'wifi', '🌸', 'promo', 'naïve', 'order', 'shop'];

export function randomDesign(seed: number): { content: string } & Record<string, unknown> {
  const rnd = prng(seed);
  const inverted = rnd.chance(0.15);
  const [fgLight, bgLight] = inverted
    ? [0.85 + rnd.next() * 0.15, 0.05 + rnd.next() * 0.1]
    : [0.05 + rnd.next() * 0.3, 0.88 + rnd.next() * 0.12];
  const content = rnd.chance(0.6)
    ? `https://example.com/${Array.from({ length: rnd.int(1, 6) }, () => rnd.pick(WORDS)).join('/')}?id=${rnd.int(1, 999999)}`
    : Array.from({ length: rnd.int(1, 30) }, () => rnd.pick(WORDS)).join(' ');
  const d: { content: string } & Record<string, unknown> = {
    content,
    primaryColor: colour(rnd, fgLight),
    backgroundColor: colour(rnd, bgLight),
    moduleShape: rnd.pick(MODULE_SHAPES),
    finderOuterShape: rnd.pick(FINDER_OUTER_SHAPES),
    finderInnerShape: rnd.pick(FINDER_INNER_SHAPES),
    eccLevel: rnd.pick(['L', 'M', 'Q', 'H']),
    moduleScale: Math.round((0.5 + rnd.next() * 0.5) * 100) / 100,
    moduleSizeVariation: rnd.chance(0.4) ? Math.round(rnd.next() * 0.15 * 1000) / 1000 : 0,
    outputWidth: rnd.int(300, 900),
    fileFormat: rnd.chance(0.8) ? 'png' : 'svg',
  };
  if (rnd.chance(0.3)) d.foregroundGradient = gradient(rnd, fgLight);
  if (rnd.chance(0.2)) d.backgroundGradient = gradient(rnd, bgLight);
  if (rnd.chance(0.25)) d.finderOuterColor = colour(rnd, fgLight);
  if (rnd.chance(0.25)) d.finderInnerColor = colour(rnd, fgLight);
  if (rnd.chance(0.15))
    d.finderEyes = [0, 1, 2].map(() => ({
      outerColor: colour(rnd, fgLight),
      rotation: rnd.pick([0, 90, 180, 270]),
      flip: rnd.pick(['none', 'horizontal', 'vertical']),
    }));
  if (rnd.chance(0.15)) d.alignmentColor = colour(rnd, fgLight);
  if (rnd.chance(0.15)) d.timingColor = colour(rnd, fgLight);
  if (rnd.chance(0.3)) {
    d.frameStyle = rnd.pick(FRAME_STYLES);
    if (rnd.chance(0.8)) d.ctaText = Array.from({ length: rnd.int(1, 4) }, () => rnd.pick(WORDS)).join(' ');
  }
  if (rnd.chance(0.3)) d.fontFamily = rnd.pick(FONT_FAMILIES);
  if (rnd.chance(0.15)) d.qrShapeRadius = rnd.int(0, 50);
  if (rnd.chance(0.1)) d.centerText = { text: rnd.pick(WORDS) };
  if (rnd.chance(0.2)) {
    d.logoBase64 = emblem(rnd);
    d.logoSizePercent = rnd.int(8, 30);
    d.logoPlateShape = rnd.pick(['none', 'square', 'rounded', 'circle']);
    // A logo needs ECC H; an explicit lower level with a logo over 25 % is a client error, not a design.
    delete d.eccLevel;
  }
  if (rnd.chance(0.1)) d.backgroundImageBase64 = photo(rnd);
  return d;
}
