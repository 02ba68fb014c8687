import { ApiError } from '../errors.js';
import { compactPhone, fitQr, optionalText } from './fields.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';
import { backslashEscape } from './text-escaping.js';

export type MecardInput = InputOf<(typeof CONTENT_SCHEMAS)['mecard']>;

/** DoCoMo's MECARD reserves these; `,` also splits N into family and given name. */
const MECARD_SPECIALS = /[\\;,:]/g;

const escapeMecard = (value: string): string => backslashEscape(value, MECARD_SPECIALS);

/** `MECARD:N:<last>,<first>;TEL:…;EMAIL:…;URL:…;ADR:…;NOTE:…;;`, with only the fields that were given. */
export function buildMecard(input: MecardInput): string {
  const firstName = optionalText(input.firstName, 'firstName');
  const lastName = optionalText(input.lastName, 'lastName');
  const phone = optionalText(input.phone, 'phone', { format: 'phone' });
  const email = optionalText(input.email, 'email', { format: 'email' });
  const url = optionalText(input.url, 'url', { format: 'url' });
  const address = optionalText(input.address, 'address', { multiline: true });
  const note = optionalText(input.note, 'note', { multiline: true });

  // Readers (ZXing among them) drop a MECARD that has no N field.
  const names = [lastName, firstName].filter((name) => name !== undefined).map(escapeMecard);
  if (names.length === 0)
    throw new ApiError('MISSING_REQUIRED_FIELD', { message: 'Give firstName, lastName or both.', field: 'firstName' });

  const fields = [`N:${names.join(',')}`];
  if (phone !== undefined) fields.push(`TEL:${escapeMecard(compactPhone(phone))}`);
  if (email !== undefined) fields.push(`EMAIL:${escapeMecard(email)}`);
  if (url !== undefined) fields.push(`URL:${escapeMecard(url)}`);
  if (address !== undefined) fields.push(`ADR:${escapeMecard(address)}`);
  if (note !== undefined) fields.push(`NOTE:${escapeMecard(note)}`);
  return fitQr(`MECARD:${fields.join(';')};;`);
}
