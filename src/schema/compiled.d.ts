// Types of the validator module that `scripts/compile-schemas.ts` generates at build time.
import type { ValidateFunction } from 'ajv';
import type { SchemaName } from './registry.js';

export declare const validators: Record<SchemaName, ValidateFunction>;
