/**
 * The links the site mails (verification, password reset), read back as the person would: from the .eml
 * files of its outbox folder (QR_OUTBOX_DIR) or from the messages a loopback SMTP server took.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './consumer.js';

/** A message's text with quoted-printable soft breaks and escapes undone. */
export const unfold = (raw: string): string =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

/** The links of a page in the messages, oldest first. */
export function linksIn(messages: string[], to: string, page: 'verify-email' | 'reset-password'): string[] {
  return messages
    .filter((m) => new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}\\r?$`, 'im').test(m))
    .flatMap((m) =>
      [...unfold(m).matchAll(new RegExp(`(https?://\\S+/${page}#token=[\\w-]{43})`, 'g'))].map((x) => x[1]!),
    );
}

/** The messages in the outbox folder, oldest first (their names hold the time and the site's count). */
export function outboxMessages(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.eml') && /^(verify|reset)-/.test(f));
  } catch {
    return [];
  }
  const order = (f: string) => f.split('-').slice(1, 3).join('-');
  return names.sort((a, b) => order(a).localeCompare(order(b))).map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** The newest link of the page mailed to `to`, waiting up to 5 s for it (mail is sent after the answer). */
export async function newestLink(
  messages: () => string[],
  to: string,
  page: 'verify-email' | 'reset-password',
  after = 0,
): Promise<string> {
  let found: string[] = [];
  await eventually(async () => {
    found = linksIn(messages(), to, page);
    return found.length > after;
  }, 5000);
  return found.at(-1)!;
}

export const tokenOf = (link: string): string => link.split('#token=')[1]!;
