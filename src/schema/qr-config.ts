import { LIMITS } from '../model/limits.js';
import {
  ECC_LEVELS,
  FILE_FORMATS,
  FINDER_INNER_SHAPES,
  FINDER_OUTER_SHAPES,
  FONT_FAMILIES,
  FRAME_STYLES,
  MODULE_SHAPES,
} from '../model/vocabulary.js';

const hexColor = {
  type: 'string',
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
  description: 'Hex colour: #RGB, #RRGGBB or #RRGGBBAA (alpha last).',
} as const;

const gradient = (description: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['type', 'stops'],
    description,
    properties: {
      type: {
        type: 'string',
        enum: ['linear', 'radial'],
        description: 'linear: along `rotation`; radial: from the centre outward.',
      },
      rotation: {
        type: 'number',
        minimum: 0,
        maximum: 360,
        description: 'Direction of a linear gradient in degrees, clockwise from left→right. Default 0.',
      },
      stops: {
        type: 'array',
        minItems: 2,
        maxItems: 8,
        description: 'Two to eight colour stops, in order of offset.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['offset', 'color'],
          properties: {
            offset: { type: 'number', minimum: 0, maximum: 1, description: 'Position along the gradient, 0–1.' },
            color: { $ref: '#/definitions/hexColor', description: 'Stop colour.' },
          },
        },
      },
    },
  }) as const;

const range = (b: { min: number; max: number }, description: string, integer = false) =>
  ({ type: integer ? 'integer' : 'number', minimum: b.min, maximum: b.max, description }) as const;

const httpUrl = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: LIMITS.urlChars, pattern: '^https?://', description }) as const;

const base64Image = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: LIMITS.base64ImageChars, description }) as const;

/**
 * The design fields of QrConfig: every field of a render except `content`. Shared by the generate body,
 * the template-override body and the AI bodies, so a field means the same thing everywhere.
 */
export const designProperties = {
  primaryColor: { $ref: '#/definitions/hexColor', description: 'Colour of the dark modules. Default #000000.' },
  backgroundColor: {
    $ref: '#/definitions/hexColor',
    description: 'Colour of the light modules and the quiet zone. Default #FFFFFF.',
  },
  foregroundGradient: gradient(
    'Gradient over all dark modules (overrides primaryColor there; every stop must contrast with the background).',
  ),
  backgroundGradient: gradient(
    'Gradient over the background (overrides backgroundColor; every stop must contrast with the foreground).',
  ),
  finderOuterColor: {
    $ref: '#/definitions/hexColor',
    description: 'Colour of the finder rings. Default primaryColor.',
  },
  finderInnerColor: {
    $ref: '#/definitions/hexColor',
    description: 'Colour of the finder centres. Default primaryColor.',
  },
  finderOuterGradient: gradient('Gradient over the three finder rings.'),
  finderInnerGradient: gradient('Gradient over the three finder centres.'),
  finderEyes: {
    type: 'array',
    maxItems: 3,
    description: 'Per-eye overrides, in the order top-left, top-right, bottom-left.',
    items: {
      type: 'object',
      additionalProperties: false,
      properties: {
        outerColor: { $ref: '#/definitions/hexColor', description: "This eye's ring colour." },
        innerColor: { $ref: '#/definitions/hexColor', description: "This eye's centre colour." },
        rotation: {
          type: 'integer',
          enum: [0, 90, 180, 270],
          description: 'Rotate this eye about its centre, degrees clockwise.',
        },
        flip: { type: 'string', enum: ['none', 'horizontal', 'vertical'], description: 'Mirror this eye.' },
      },
    },
  },
  alignmentColor: {
    $ref: '#/definitions/hexColor',
    description: 'Colour of the alignment patterns. Default primaryColor.',
  },
  timingColor: { $ref: '#/definitions/hexColor', description: 'Colour of the timing patterns. Default primaryColor.' },
  moduleShape: { type: 'string', enum: [...MODULE_SHAPES], description: 'Shape of the data modules.' },
  finderOuterShape: {
    type: 'string',
    enum: [...FINDER_OUTER_SHAPES],
    description: 'Shape of the 7×7 ring of each finder eye.',
  },
  finderInnerShape: {
    type: 'string',
    enum: [...FINDER_INNER_SHAPES],
    description: 'Shape of the 3×3 centre of each finder eye.',
  },
  eccLevel: {
    type: 'string',
    enum: [...ECC_LEVELS],
    description: 'Error-correction level: L 7 %, M 15 %, Q 25 %, H 30 % recoverable. Default M; a logo raises it to H.',
  },
  minVersion: range(
    { min: 1, max: 40 },
    'Smallest symbol version (size 17 + 4 × version modules); larger when the content needs it.',
    true,
  ),
  maskPattern: range(
    { min: 0, max: 7 },
    'Force one of the eight ISO 18004 data masks; default: the one with the lowest penalty.',
    true,
  ),
  quietZone: range(
    LIMITS.quietZone,
    'Light margin around the symbol, in modules. Default and minimum 4 (ISO 18004).',
    true,
  ),
  fileFormat: { type: 'string', enum: Object.keys(FILE_FORMATS), description: 'Output format. Default png.' },
  outputWidth: range(
    LIMITS.outputPx,
    'Image width in pixels (64–4096). Default 800, or quiet-zone-inclusive modules × pixelsPerModule when only that is given, widened to hold a frame, caption or round outline.',
    true,
  ),
  outputHeight: range(LIMITS.outputPx, 'Image height in pixels. Default: equal to the width.', true),
  pixelsPerModule: range(
    LIMITS.pixelsPerModule,
    'Size of one module in pixels. Default: the largest whole number that fits the output size.',
    true,
  ),
  printSize: {
    type: 'object',
    additionalProperties: false,
    required: ['width', 'unit', 'dpi'],
    description:
      'A physical size for print, instead of outputWidth: the width of the whole image (quiet zone, frame and caption included). Raster exports are width × dpi pixels wide and carry the density (PNG pHYs, JPEG JFIF, WebP EXIF); SVG is sized in the unit; the PDF page is exactly that wide. Width and dpi together must make 64–4096 px.',
    properties: {
      width: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 2000,
        description: 'Width in the unit; with dpi it must make 64–4096 px (25 mm at 300 dpi is 295 px).',
      },
      unit: { type: 'string', enum: ['mm', 'in'], description: 'mm or in.' },
      dpi: range(LIMITS.printDpi, `Dots per inch of the raster (${LIMITS.printDpi.min}–${LIMITS.printDpi.max}).`, true),
    },
  },
  colorSpace: {
    type: 'string',
    enum: ['rgb', 'cmyk'],
    description:
      'PDF and EPS: the colour space the file is written in. cmyk converts every colour, gradient and image to DeviceCMYK by the device formula (K = 1 − max(R, G, B)). Default rgb.',
  },
  printCheck: {
    type: 'object',
    additionalProperties: false,
    required: ['distanceCm'],
    description:
      'How small this design may be printed and still be read by a phone camera from distanceCm away: the answer carries print { distanceCm, minWidthMm, model }. With printSize, a width below the minimum is a warning, or QR_UNSCANNABLE with strictScannability.',
    properties: {
      distanceCm: range(
        LIMITS.printDistanceCm,
        `Scanning distance in centimetres (${LIMITS.printDistanceCm.min}–${LIMITS.printDistanceCm.max}).`,
      ),
    },
  },
  responseType: {
    type: 'string',
    enum: ['base64', 'binary'],
    description: 'base64: JSON with the file in qrBase64. binary: the raw file. Default base64.',
  },
  strictScannability: {
    type: 'boolean',
    description:
      'Default true: readability problems are corrected automatically and reported in `corrections`. false: they are reported as warnings when the code still decodes, and refused when it does not.',
  },
  logoUrl: httpUrl('Logo placed at the centre (http or https URL). Clears the modules beneath it and raises ECC to H.'),
  logoBase64: base64Image(
    'Logo as base64 (a data: URL prefix is accepted). PNG, JPG, GIF, BMP or WebP, at most 10 MB.',
  ),
  logoSizePercent: range(
    LIMITS.logoSizePercent,
    'Logo width as a percentage of the symbol width (3–40). Above 25 it needs ECC H and is drawn at 25, reported in `corrections`.',
  ),
  logoPaddingPercent: range(
    { min: 0, max: 30 },
    'Clear space around the logo, as a percentage of the logo size. Default 8.',
  ),
  logoPlateShape: {
    type: 'string',
    enum: ['none', 'square', 'rounded', 'circle'],
    description: 'A plate drawn behind the logo. Default none.',
  },
  logoPlateColor: { $ref: '#/definitions/hexColor', description: 'Colour of the plate. Default backgroundColor.' },
  backgroundImageUrl: httpUrl('Image blended softly behind the code (http or https URL).'),
  backgroundImageBase64: base64Image('Background image as base64. PNG, JPG, GIF, BMP or WebP, at most 10 MB.'),
  backgroundImageOpacity: range(
    { min: 0.05, max: 1 },
    'Opacity of the background image (lowered automatically when contrast would suffer). Default 0.3.',
  ),
  backgroundImageFit: {
    type: 'string',
    enum: ['cover', 'contain'],
    description: 'How the background image fills the canvas. Default cover.',
  },
  centerText: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    description: 'A text band across the centre of the code.',
    properties: {
      text: { type: 'string', minLength: 1, maxLength: LIMITS.textChars, description: 'The text.' },
      color: { $ref: '#/definitions/hexColor', description: 'Text colour.' },
      backgroundColor: { $ref: '#/definitions/hexColor', description: 'Band colour.' },
      fontSize: range({ min: 6, max: 200 }, 'Font size in pixels.'),
    },
  },
  ctaText: {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.textChars,
    description: 'Call-to-action caption below the code, or the text of the frame.',
  },
  ctaTextColor: { $ref: '#/definitions/hexColor', description: 'Colour of the caption. Default primaryColor.' },
  fontFamily: {
    type: 'string',
    enum: [...FONT_FAMILIES],
    description: 'Typeface of centerText and ctaText (fonts ship with the service; text is drawn as outlines).',
  },
  frameStyle: {
    type: 'string',
    enum: [...FRAME_STYLES],
    description:
      'A frame around the code carrying ctaText ("SCAN ME" when ctaText is absent). Default none: ctaText alone is a caption below the code.',
  },
  frameColor: { $ref: '#/definitions/hexColor', description: 'Colour of the frame. Default primaryColor.' },
  frameTextColor: {
    $ref: '#/definitions/hexColor',
    description:
      'Colour of the text on the frame. Default backgroundColor on filled bands, ctaTextColor or primaryColor on open frames.',
  },
  moduleScale: range(LIMITS.moduleScale, 'Drawn size of each module relative to its cell (0.5–1.0). Default 1.'),
  moduleSizeVariation: range(
    LIMITS.moduleSizeVariation,
    'Seeded random size variation of modules (0–0.15). Default 0.',
  ),
  qrShapeRadius: range(LIMITS.qrShapeRadius, 'Rounding of the whole code: 0 square, 50 circular. Default 0.'),
} as const;

export const contentProperty = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.contentChars,
  description: 'Text or URL to encode (1–4296 characters; must also fit the QR capacity at the chosen ECC level).',
} as const;

export const definitions = { hexColor } as const;

/** POST /api/qr/generate: a complete QrConfig. */
export const qrConfigSchema = {
  $id: 'QrConfig',
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  definitions,
  properties: { content: contentProperty, ...designProperties },
} as const;

/** Defaults applied after validation; one table so responses, cache keys and docs agree. */
export const QR_DEFAULTS = {
  primaryColor: '#000000',
  backgroundColor: '#FFFFFF',
  moduleShape: 'square',
  finderOuterShape: 'square',
  finderInnerShape: 'square',
  eccLevel: 'M',
  quietZone: 4,
  fileFormat: 'png',
  responseType: 'base64',
  strictScannability: true,
  logoSizePercent: 20,
  logoPaddingPercent: 8,
  logoPlateShape: 'none',
  backgroundImageOpacity: 0.3,
  backgroundImageFit: 'cover',
  fontFamily: FONT_FAMILIES[0],
  frameStyle: 'none',
  moduleScale: 1,
  moduleSizeVariation: 0,
  qrShapeRadius: 0,
} as const;
