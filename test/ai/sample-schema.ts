/**
 * A stand-in for the QrConfig schema (src/schema/qr-config.ts) with the shapes the real one uses: hex
 * patterns, bounds, enums, a nested object with an array, a $ref, caller-owned fields, and a shape field
 * without an enum (the designer fills it from the shape lists).
 */
import type { JsonSchema } from '../../src/ai/json-schema.js';

const hex = { type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' } as const;

export const sampleSchema = {
  type: 'object',
  properties: {
    content: { type: 'string', minLength: 1, maxLength: 4296, description: 'Text or URL to encode.' },
    primaryColor: { ...hex, description: 'Colour of the dark modules.' },
    backgroundColor: { ...hex, description: 'Background colour.' },
    moduleShape: { type: 'string', description: 'Shape of the data modules.' },
    finderOuterShape: { type: 'string', description: 'Outer ring of the finder eyes.' },
    finderInnerShape: { type: 'string', description: 'Centre of the finder eyes.' },
    eccLevel: { type: 'string', enum: ['L', 'M', 'Q', 'H'], default: 'M', description: 'Error-correction level.' },
    fileFormat: { type: 'string', enum: ['png', 'jpg', 'svg', 'pdf', 'webp'] },
    outputWidth: { type: 'integer', minimum: 64, maximum: 4096 },
    outputHeight: { type: 'integer', minimum: 64, maximum: 4096 },
    responseType: { type: 'string', enum: ['base64', 'binary'] },
    logoUrl: { type: 'string' },
    logoBase64: { type: 'string' },
    backgroundImageUrl: { type: 'string' },
    backgroundImageBase64: { type: 'string' },
    centerText: { type: 'object', properties: { text: { type: 'string' }, color: hex } },
    ctaText: { type: 'string' },
    pixelsPerModule: { type: 'integer', minimum: 1, maximum: 100 },
    minVersion: { type: 'integer', minimum: 1, maximum: 40 },
    logoSizePercent: { type: 'number', minimum: 3, maximum: 40 },
    moduleScale: { type: 'number', minimum: 0.5, maximum: 1, description: 'Drawn size of a module in its cell.' },
    moduleSizeVariation: { type: 'number', minimum: 0, maximum: 0.15 },
    qrShapeRadius: { type: 'number', minimum: 0, maximum: 50 },
    transparentBackground: { type: 'boolean' },
    gradient: {
      type: 'object',
      description: 'Colour gradient across the modules.',
      properties: {
        type: { type: 'string', enum: ['linear', 'radial'] },
        colors: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4 },
        angle: { type: 'number', minimum: 0, maximum: 360 },
      },
      required: ['type', 'colors'],
      additionalProperties: false,
    },
    frame: { $ref: '#/$defs/frame' },
  },
  required: ['content'],
  $defs: {
    frame: {
      type: 'object',
      properties: {
        style: { type: 'string', enum: ['none', 'banner', 'rounded-banner'] },
        color: { type: 'string' },
      },
    },
  },
} as const satisfies JsonSchema;
