import { ApiError } from '../errors.js';
import { fitQr, optionalText } from './fields.js';
import { foldContentLines } from './folding.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';
import { escapeText } from './text-escaping.js';

export type VcardInput = InputOf<(typeof CONTENT_SCHEMAS)['vcard']>;

/** A vCard 3.0 (RFC 2426): escaped TEXT values, CRLF line ends, lines folded at 75 octets. */
export function buildVcard(input: VcardInput): string {
  const firstName = optionalText(input.firstName, 'firstName');
  const lastName = optionalText(input.lastName, 'lastName');
  const organization = optionalText(input.organization, 'organization');
  const title = optionalText(input.title, 'title');
  const phone = optionalText(input.phone, 'phone', { format: 'phone' });
  const email = optionalText(input.email, 'email', { format: 'email' });
  const url = optionalText(input.url, 'url', { format: 'url' });
  const address = optionalText(input.address, 'address', { multiline: true });

  // FN is mandatory in vCard 3.0 and must name someone or something.
  const fullName = [firstName, lastName].filter((part) => part !== undefined).join(' ') || organization;
  if (fullName === undefined) {
    throw new ApiError('MISSING_REQUIRED_FIELD', {
      message: 'Give at least one of firstName, lastName or organization.',
      field: 'firstName',
    });
  }

  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    // N is mandatory too, even for an organization's card; its components stay empty then.
    `N:${escapeText(lastName ?? '')};${escapeText(firstName ?? '')};;;`,
    `FN:${escapeText(fullName)}`,
  ];
  if (organization !== undefined) lines.push(`ORG:${escapeText(organization)}`);
  if (title !== undefined) lines.push(`TITLE:${escapeText(title)}`);
  if (phone !== undefined) lines.push(`TEL:${escapeText(phone)}`);
  if (email !== undefined) lines.push(`EMAIL:${escapeText(email)}`);
  // URL's value type is uri, not text, so RFC 2426 gives its , and ; no escapes; the url check already
  // refuses the backslashes and whitespace that could break the line.
  if (url !== undefined) lines.push(`URL:${url}`);
  if (address !== undefined) lines.push(`ADR:;;${escapeText(address)};;;;`);
  lines.push('END:VCARD');
  return fitQr(foldContentLines(lines));
}
