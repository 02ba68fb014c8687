/**
 * What test/errors.test.ts's scan must count as raising a code, and what it must not. Never imported: the
 * scan reads it through the type checker.
 */
import { ApiError, type ErrorCode } from '../src/errors.js';

// Raises: NOT_FOUND, UNAUTHORIZED, INTERNAL_ERROR, SERVER_BUSY, INVALID_HEX, BAD_REQUEST, INVALID_JSON.
export const constructed = () =>
  new ApiError(
    // a comment between
    'NOT_FOUND',
    { message: 'laid out over lines' },
  );
export const chosen = (b: boolean) => new ApiError(b ? 'UNAUTHORIZED' : 'INTERNAL_ERROR');
export const refusal = (): { ok: false; code: ErrorCode } => ({ ok: false, code: 'SERVER_BUSY' });
export function typed(again: boolean): ErrorCode {
  let code: ErrorCode = 'INVALID_HEX';
  if (again) code = 'BAD_REQUEST';
  return code;
}
export const byField: Partial<Record<string, ErrorCode>> = { body: 'INVALID_JSON' };

// Not raises: readings, plain strings, comments (MISSING_REQUIRED_FIELD).
export const reads = (e: ApiError) => e.code === 'LOW_CONTRAST' || e.code !== 'QR_UNSCANNABLE';
export function cases(code: ErrorCode): number {
  switch (code) {
    case 'FILE_TOO_LARGE':
      return 1;
    default:
      return 0;
  }
}
export const text: string = 'PAYLOAD_TOO_LARGE';
export const logged = () => console.log('HEADERS_TOO_LARGE');
