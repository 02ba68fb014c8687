// Types of the validator module that `scripts/compile-schemas.ts` generates at build time.
import type { ValidateFunction } from 'ajv';
import type { BusinessSchemaName } from './business-requests.js';
import type { SchemaName } from './registry.js';

export declare const validators: Record<SchemaName | BusinessSchemaName, ValidateFunction>;
