// Types of the validator module that `scripts/compile-schemas.ts` generates at build time.
import type { ValidateFunction } from 'ajv';
import type { SiteForm } from './forms.js';

export declare const validators: Record<SiteForm, ValidateFunction>;
