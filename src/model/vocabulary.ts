/**
 * The names a design may use, field by field. The design layer draws each of them (its registries are
 * typed by these names, so a name without a drawing, or a drawing without a name, does not compile); the
 * request schema, the AI's prompt and the docs list them from here.
 */

/** Error-correction levels of ISO/IEC 18004, lowest to highest recovery. */
export const ECC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type EccLevel = (typeof ECC_LEVELS)[number];

/**
 * Names accepted by `moduleShape`. The names of qr-code-styling and of Uniqode's renderer mean what they
 * mean there (`circle` is Uniqode's name for qr-code-styling's `dots`).
 */
export const MODULE_SHAPES = [
  'square',
  'dots',
  'rounded',
  'extra-rounded',
  'classy',
  'classy-rounded',
  'circle',
  'kite',
  'left-diamond',
  'right-diamond',
  'thin-square',
  'smooth-round',
  'smooth-sharp',
  'diamond',
  'star',
  'squircle',
  'leaf',
  'mosaic',
  'cross',
  'plus',
  'hexagon',
  'octagon',
  'heart',
  'horizontal',
  'vertical',
  'row',
  'column',
] as const;
export type ModuleShape = (typeof MODULE_SHAPES)[number];

/** Names accepted by `finderOuterShape`: the 7×7 ring of each finder eye. */
export const FINDER_OUTER_SHAPES = [
  'square',
  'rounded',
  'extra-rounded',
  'circle',
  'left-leaf',
  'right-leaf',
  'drop',
  'classy',
  'octagon',
  'cut-corner',
  'plus',
  'ticket',
  'squircle',
  'flower',
  'shield',
  'dots',
  'dashed',
] as const;
export type FinderOuterShape = (typeof FINDER_OUTER_SHAPES)[number];

/** Names accepted by `finderInnerShape`: the 3×3 centre of each finder eye. */
export const FINDER_INNER_SHAPES = [
  'square',
  'dot',
  'circle',
  'rounded',
  'extra-rounded',
  'left-leaf',
  'right-leaf',
  'left-diamond',
  'right-diamond',
  'drop',
  'classy',
  'cut-corner',
  'octagon',
  'diamond',
  'plus',
  'star',
  'heart',
  'flower',
  'shield',
  'squircle',
] as const;
export type FinderInnerShape = (typeof FINDER_INNER_SHAPES)[number];

/** Names accepted by `fontFamily`. */
export const FONT_FAMILIES = ['sans', 'serif', 'mono', 'rounded', 'display'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

/** Names accepted by `frameStyle`. */
export const FRAME_STYLES = [
  'none',
  'box-bottom',
  'box-top',
  'banner-top',
  'banner-bottom',
  'balloon-bottom',
  'balloon-top',
  'pill-bottom',
  'pill-top',
  'circular',
  'text-only',
  'border',
  'focus',
  'scan-corners',
] as const;
export type FrameStyle = (typeof FRAME_STYLES)[number];

/** Output formats, and the MIME type each is served with. */
export const FILE_FORMATS = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  eps: 'application/postscript',
} as const;
export type FileFormat = keyof typeof FILE_FORMATS;

/** Each format as messages name it. */
export const FORMAT_NAMES: Record<FileFormat, string> = {
  png: 'PNG',
  jpg: 'JPEG',
  webp: 'WebP',
  svg: 'SVG',
  pdf: 'PDF',
  eps: 'EPS',
};
