import { compactPhone, fitQr, optionalText, requiredText } from './fields.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';

export type SmsInput = InputOf<(typeof CONTENT_SCHEMAS)['sms']>;

/**
 * `SMSTO:<number>:<message>`. Readers split at the first colon after the number and take the rest verbatim,
 * so the message needs no escaping and the number (digits and separators only) cannot contain a colon.
 */
export function buildSms(input: SmsInput): string {
  const number = compactPhone(requiredText(input.number, 'number', { format: 'phone' }));
  const message = optionalText(input.message, 'message', { multiline: true }) ?? '';
  return fitQr(`SMSTO:${number}:${message}`);
}
