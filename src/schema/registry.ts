import { CONTENT_SCHEMAS, type ContentType } from '../content/index.js';
import { aiGenerateManagedSchema, aiGenerateSchema } from './ai-request.js';
import { qrConfigSchema } from './qr-config.js';
import { qrTemplateOverrideSchema } from './template-override.js';

/** Content helper bodies, named `content_<type>` (the compiled module exports one identifier per schema). */
const contentSchemas = Object.fromEntries(
  Object.entries(CONTENT_SCHEMAS).map(([type, schema]) => [`content_${type}`, schema]),
) as {
  [T in ContentType as `content_${T}`]: (typeof CONTENT_SCHEMAS)[T];
};

/**
 * Every request body schema, by name. `scripts/compile-schemas.ts` compiles this table ahead of time into
 * standalone validator code (dist/src/schema/compiled.js), and the OpenAPI document is generated from it,
 * so the validator and the published contract cannot drift apart.
 */
export const SCHEMAS = {
  qrConfig: qrConfigSchema,
  qrTemplateOverride: qrTemplateOverrideSchema,
  aiGenerate: aiGenerateSchema,
  aiGenerateManaged: aiGenerateManagedSchema,
  ...contentSchemas,
} as const;

export type SchemaName = keyof typeof SCHEMAS;
