import type { ColorSpace } from './cmyk.js';
import type { PrintSize } from './print-size.js';
import type {
  EccLevel,
  FileFormat,
  FinderInnerShape,
  FinderOuterShape,
  FontFamily,
  FrameStyle,
  ModuleShape,
} from './vocabulary.js';

export interface GradientSpec {
  type: 'linear' | 'radial';
  rotation?: number;
  stops: { offset: number; color: string }[];
}

export interface EyeOverride {
  outerColor?: string;
  innerColor?: string;
  rotation?: 0 | 90 | 180 | 270;
  flip?: 'none' | 'horizontal' | 'vertical';
}

/** A validated QrConfig with every default applied: what the main thread sends to a render worker. */
export interface RenderConfig {
  content: string;
  primaryColor: string;
  backgroundColor: string;
  foregroundGradient?: GradientSpec;
  backgroundGradient?: GradientSpec;
  finderOuterColor?: string;
  finderInnerColor?: string;
  finderOuterGradient?: GradientSpec;
  finderInnerGradient?: GradientSpec;
  finderEyes?: EyeOverride[];
  alignmentColor?: string;
  timingColor?: string;
  moduleShape: ModuleShape;
  finderOuterShape: FinderOuterShape;
  finderInnerShape: FinderInnerShape;
  eccLevel: EccLevel;
  minVersion?: number;
  maskPattern?: number;
  quietZone: number;
  fileFormat: FileFormat;
  outputWidth?: number;
  outputHeight?: number;
  pixelsPerModule?: number;
  printSize?: PrintSize;
  /** PDF and EPS only: cmyk writes every colour as DeviceCMYK (model/cmyk.ts). Default rgb. */
  colorSpace?: ColorSpace;
  /** How small the design may be printed to be read from this far (render/print-check.ts). */
  printCheck?: { distanceCm: number };
  strictScannability: boolean;
  logoSizePercent: number;
  logoPaddingPercent: number;
  logoPlateShape: 'none' | 'square' | 'rounded' | 'circle';
  logoPlateColor?: string;
  backgroundImageOpacity: number;
  backgroundImageFit: 'cover' | 'contain';
  moduleScale: number;
  moduleSizeVariation: number;
  qrShapeRadius: number;
  centerText?: { text: string; color?: string; backgroundColor?: string; fontSize?: number };
  ctaText?: string;
  ctaTextColor?: string;
  fontFamily: FontFamily;
  frameStyle: FrameStyle;
  frameColor?: string;
  frameTextColor?: string;
}

export type ImageAsset = 'logo' | 'background';

/** Image bytes that came with the request (multipart files, decoded base64 or fetched URLs), checked by magic bytes. */
export interface RenderAssets {
  logo?: Uint8Array;
  background?: Uint8Array;
  /**
   * The request field each image came from (`logoBase64`, `logoUrl`, the multipart file `logo`…), so a
   * refusal of the image names the field the client sent; the asset's own name where none is given.
   */
  fields?: Partial<Record<ImageAsset, string>>;
}

/**
 * One change made to a design, reported to the client: by the engine to a RenderConfig field, or by the
 * AI config cleaner to the model's config, where `to` is absent when the field was dropped.
 */
export interface Correction {
  field: string;
  from: unknown;
  to?: unknown;
  reason: string;
}
