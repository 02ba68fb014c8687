import type { Options } from 'ajv';

/**
 * One set of AJV options for the build-time compiler and for any test that compiles a schema, so both
 * validate alike. `allErrors` stays off: the first error names the field, and stopping there is cheaper.
 * `useDefaults` is off too: defaults are applied in one place (QR_DEFAULTS) after validation.
 */
export const AJV_OPTIONS: Options = { strict: true, allErrors: false, verbose: false };
