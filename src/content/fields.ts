import { ApiError } from '../errors.js';
import { FORMATS, type Format, formatMessage } from './formats.js';
import type { NumberBounds } from './schemas.js';

/**
 * The largest payload any QR code holds: version 40 at ECC L in byte mode, which every helper's payload
 * needs (they all contain lower-case letters or punctuation outside the alphanumeric set). Whether it fits
 * at the ECC level the caller picks is the renderer's decision; a helper only refuses what can never fit.
 */
const QR_MAX_BYTES = 2953;

/** Control characters break payload structure, and lone surrogates cannot be written as UTF-8. */
const NOT_IN_ONE_LINE = /[\p{Cc}\p{Cs}]/u;
const NOT_IN_TEXT = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

export interface TextRules {
  /** Line breaks (and tabs) are allowed; the builder encodes them for its format. */
  multiline?: boolean;
  format?: Format;
}

/**
 * A text field's value, or undefined when it is absent or blank (forms send "" for an empty field). The
 * value is returned as given, not trimmed: spaces can be part of an SSID or a password.
 */
export function optionalText(value: string | undefined, field: string, rules: TextRules = {}): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if ((rules.multiline ? NOT_IN_TEXT : NOT_IN_ONE_LINE).test(value)) {
    const what = rules.multiline ? 'control characters' : 'line breaks or control characters';
    throw new ApiError('INVALID_FIELD_VALUE', { message: `${field} must not contain ${what}.`, field });
  }
  if (rules.format !== undefined && !FORMATS[rules.format].test(value)) {
    throw new ApiError('INVALID_FIELD_VALUE', { message: formatMessage(rules.format, field), field });
  }
  return value;
}

export function requiredText(value: string | undefined, field: string, rules: TextRules = {}): string {
  const text = optionalText(value, field, rules);
  if (text === undefined) throw new ApiError('MISSING_REQUIRED_FIELD', { message: `${field} is required.`, field });
  return text;
}

/** RFC 3966 tel: URIs allow only . - ( ) as visual separators, and dialers are happiest without spaces. */
export const compactPhone = (phone: string): string => phone.replace(/ /g, '');

/** A required number inside the bounds its schema states. */
export function numberInRange(value: number | undefined, bounds: NumberBounds, field: string): number {
  if (value === undefined) throw new ApiError('MISSING_REQUIRED_FIELD', { message: `${field} is required.`, field });
  if (!(value >= bounds.minimum && value <= bounds.maximum)) {
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${field} must be between ${bounds.minimum} and ${bounds.maximum}.`,
      field,
    });
  }
  return value;
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The payload itself, once it is known that some QR code can hold it. */
export function fitQr(payload: string): string {
  const bytes = utf8Bytes(payload);
  if (bytes > QR_MAX_BYTES) {
    throw new ApiError('CONTENT_TOO_LONG', {
      message: `The payload is ${bytes} bytes; a QR code holds at most ${QR_MAX_BYTES}.`,
    });
  }
  return payload;
}
