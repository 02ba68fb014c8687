import type { ErrorCode } from '../errors.js';
import type { FinderInnerShape, FinderOuterShape } from '../design/finder-eyes.js';
import type { FontFamily } from '../design/fonts.js';
import type { FrameStyle } from '../design/frames.js';
import type { ModuleShape } from '../design/module-shapes.js';
import type { EccLevel } from '../qr/types.js';
import type { FileFormat } from '../schema/qr-config.js';
import type { Verification } from './verify.js';

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

/** Image bytes that came with the request (multipart files or decoded base64), checked by magic bytes. */
export interface RenderAssets {
  logo?: Uint8Array;
  background?: Uint8Array;
}

export interface RenderTask {
  config: RenderConfig;
  assets: RenderAssets;
}

export interface Correction {
  field: string;
  from: unknown;
  to: unknown;
  reason: string;
}

export interface RenderSuccess {
  ok: true;
  bytes: Uint8Array;
  format: FileFormat;
  contentType: string;
  width: number;
  height: number;
  version: number;
  eccLevel: EccLevel;
  mask: number;
  modulePx: number;
  verification: Verification;
  corrections: Correction[];
  warnings: string[];
  timings: Record<string, number>;
}

/** An expected refusal. Errors cross the worker boundary as data, since thrown classes do not survive it. */
export interface RenderFailure {
  ok: false;
  code: ErrorCode;
  message: string;
  field?: string;
}

export type RenderOutcome = RenderSuccess | RenderFailure;
