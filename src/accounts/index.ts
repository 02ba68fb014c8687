export { type AccountsOptions, createAccounts } from './accounts.js';
export { hashRequest, isValidIdempotencyKey } from './idempotency.js';
export { isWellFormedKey, KEY_PREFIX } from './key-format.js';
export { KEY_REVOKED_CHANNEL } from './key-revocations.js';
export { startMaintenance } from './maintenance.js';
export { MAX_PACK_CREDITS, PACK_LIFETIME_MONTHS } from './packs.js';
export { keyDigest, type PepperSource, resolvePepper } from './pepper.js';
export type * from './types.js';
