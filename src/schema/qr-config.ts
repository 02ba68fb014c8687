import { MODULE_SHAPES } from '../design/module-shapes.js';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES } from '../design/finder-eyes.js';
import { ECC_LEVELS } from '../qr/types.js';

/** Output formats, and the MIME type each is served with. */
export const FILE_FORMATS = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml', pdf: 'application/pdf' } as const;
export type FileFormat = keyof typeof FILE_FORMATS;

/** Limits of the interface contract, in one place so the schema, the pipeline and the docs agree. */
export const LIMITS = {
  contentChars: 4296,
  outputPx: { min: 64, max: 4096 },
  pixelsPerModule: { min: 1, max: 100 },
  quietZone: { min: 4, max: 40 },
  logoSizePercent: { min: 3, max: 40 },
  moduleScale: { min: 0.5, max: 1 },
  moduleSizeVariation: { min: 0, max: 0.15 },
  qrShapeRadius: { min: 0, max: 50 },
  /** Base64 of a 10 MB file. */
  base64ImageChars: Math.ceil((10 * 1024 * 1024) / 3) * 4 + 64,
  urlChars: 2048,
  textChars: 200,
} as const;

const hexColor = {
  type: 'string',
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
  description: 'Hex colour: #RGB, #RRGGBB or #RRGGBBAA (alpha last).',
} as const;

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
  backgroundColor: { $ref: '#/definitions/hexColor', description: 'Colour of the light modules and the quiet zone. Default #FFFFFF.' },
  moduleShape: { type: 'string', enum: [...MODULE_SHAPES], description: 'Shape of the data modules.' },
  finderOuterShape: { type: 'string', enum: [...FINDER_OUTER_SHAPES], description: 'Shape of the 7×7 ring of each finder eye.' },
  finderInnerShape: { type: 'string', enum: [...FINDER_INNER_SHAPES], description: 'Shape of the 3×3 centre of each finder eye.' },
  eccLevel: { type: 'string', enum: [...ECC_LEVELS], description: 'Error-correction level: L 7 %, M 15 %, Q 25 %, H 30 % recoverable. Default M; a logo raises it to H.' },
  minVersion: range({ min: 1, max: 40 }, 'Smallest symbol version (size 17 + 4 × version modules); larger when the content needs it.', true),
  maskPattern: range({ min: 0, max: 7 }, 'Force one of the eight ISO 18004 data masks; default: the one with the lowest penalty.', true),
  quietZone: range(LIMITS.quietZone, 'Light margin around the symbol, in modules. Default and minimum 4 (ISO 18004).', true),
  fileFormat: { type: 'string', enum: Object.keys(FILE_FORMATS), description: 'Output format. Default png.' },
  outputWidth: range(LIMITS.outputPx, 'Image width in pixels (64–4096). Default 800, or quiet-zone-inclusive modules × pixelsPerModule when only that is given.', true),
  outputHeight: range(LIMITS.outputPx, 'Image height in pixels. Default: equal to the width.', true),
  pixelsPerModule: range(LIMITS.pixelsPerModule, 'Size of one module in pixels. Default: the largest whole number that fits the output size.', true),
  responseType: { type: 'string', enum: ['base64', 'binary'], description: 'base64: JSON with the file in qrBase64. binary: the raw file. Default base64.' },
  strictScannability: { type: 'boolean', description: 'Default true: readability problems are corrected automatically and reported in `corrections`. false: they are reported as warnings when the code still decodes, and refused when it does not.' },
  logoUrl: httpUrl('Logo placed at the centre (http or https URL). Clears the modules beneath it and raises ECC to H.'),
  logoBase64: base64Image('Logo as base64 (a data: URL prefix is accepted). PNG, JPG, GIF, BMP or WebP, at most 10 MB.'),
  logoSizePercent: range(LIMITS.logoSizePercent, 'Logo width as a percentage of the symbol width (3–40; above 25 needs ECC H).'),
  backgroundImageUrl: httpUrl('Image blended softly behind the code (http or https URL).'),
  backgroundImageBase64: base64Image('Background image as base64. PNG, JPG, GIF, BMP or WebP, at most 10 MB.'),
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
  ctaText: { type: 'string', minLength: 1, maxLength: LIMITS.textChars, description: 'Call-to-action caption below the code.' },
  moduleScale: range(LIMITS.moduleScale, 'Drawn size of each module relative to its cell (0.5–1.0). Default 1.'),
  moduleSizeVariation: range(LIMITS.moduleSizeVariation, 'Seeded random size variation of modules (0–0.15). Default 0.'),
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
  moduleScale: 1,
  moduleSizeVariation: 0,
  qrShapeRadius: 0,
} as const;
