import { qrConfigSchema } from './qr-config.js';

/**
 * Every request body schema, by name. `scripts/compile-schemas.ts` compiles this table ahead of time into
 * standalone validator code (dist/src/schema/compiled.js), and the OpenAPI document is generated from it,
 * so the validator and the published contract cannot drift apart.
 */
export const SCHEMAS = {
  qrConfig: qrConfigSchema,
} as const;

export type SchemaName = keyof typeof SCHEMAS;
