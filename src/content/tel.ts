import { compactPhone, fitQr, requiredText } from './fields.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';

export type TelInput = InputOf<(typeof CONTENT_SCHEMAS)['tel']>;

/** `tel:<number>` (RFC 3966); the phone format admits only characters a tel: URI allows once spaces go. */
export function buildTel(input: TelInput): string {
  return fitQr(`tel:${compactPhone(requiredText(input.number, 'number', { format: 'phone' }))}`);
}
