import { fitQr, optionalText, requiredText } from './fields.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';

export type EmailInput = InputOf<(typeof CONTENT_SCHEMAS)['email']>;

/**
 * `mailto:<to>?subject=…&body=…` (RFC 6068). encodeURIComponent leaves only unreserved characters and
 * `!*'()` unencoded, all of which RFC 6068 allows, and percent-encodes UTF-8 as §2 requires. The address is
 * encoded on each side of its `@`, which must stay literal.
 */
export function buildEmail(input: EmailInput): string {
  const to = requiredText(input.to, 'to', { format: 'email' });
  const subject = optionalText(input.subject, 'subject');
  const body = optionalText(input.body, 'body', { multiline: true });

  const at = to.lastIndexOf('@');
  const address = `${encodeURIComponent(to.slice(0, at))}@${encodeURIComponent(to.slice(at + 1))}`;
  const headers: string[] = [];
  if (subject !== undefined) headers.push(`subject=${encodeURIComponent(subject)}`);
  // RFC 6068 §5: line breaks in a body are CRLF, whatever the sender's platform used.
  if (body !== undefined) headers.push(`body=${encodeURIComponent(body.replace(/\r\n|\r|\n/g, '\r\n'))}`);
  return fitQr(`mailto:${address}${headers.length > 0 ? `?${headers.join('&')}` : ''}`);
}
