/** An sRGB colour with straight (non-premultiplied) alpha, each channel 0–255. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 255 };

/** Parses #RGB, #RRGGBB or #RRGGBBAA (already validated by the schema). */
export function parseHex(hex: string): Rgba {
  let h = hex.slice(1);
  if (h.length === 3) h = h.replace(/./g, (c) => c + c);
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) : 255 };
}

/** `over` composited onto an opaque `under`: what a viewer shows. */
export function composite(over: Rgba, under: Rgba): Rgba {
  const a = over.a / 255;
  const mix = (f: number, b: number) => Math.round(f * a + b * (1 - a));
  return { r: mix(over.r, under.r), g: mix(over.g, under.g), b: mix(over.b, under.b), a: 255 };
}

const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2 relative luminance of an opaque colour. */
export const luminance = (c: Rgba): number => 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);

/** Rec. 601 luma (0–255), the grey level a scanner's camera pipeline sees; the verifier binarizes it. */
export const luma = (r: number, g: number, b: number): number => 0.299 * r + 0.587 * g + 0.114 * b;
export const greyLevel = (c: Pick<Rgba, 'r' | 'g' | 'b'>): number => Math.round(luma(c.r, c.g, c.b));

/** WCAG 2 contrast ratio (1–21) of two opaque colours. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * Foreground/background contrast as a viewer sees them: a translucent background is taken to sit on
 * white paper or a white page, and the foreground is composited onto that background.
 */
export function effectiveContrast(fg: Rgba, bg: Rgba): number {
  const seenBg = composite(bg, WHITE);
  return contrastRatio(composite(fg, seenBg), seenBg);
}

export const toHex = (c: Rgba): string =>
  `#${[c.r, c.g, c.b]
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}${c.a === 255 ? '' : c.a.toString(16).padStart(2, '0').toUpperCase()}`;

/** SVG/PDF paint form: opaque hex plus a separate opacity, which every SVG viewer understands. */
export const svgPaint = (c: Rgba): { color: string; opacity: number } => ({
  color: toHex({ ...c, a: 255 }),
  opacity: Math.round((c.a / 255) * 1000) / 1000,
});
