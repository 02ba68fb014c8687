/**
 * The account's messages (src/site/account-mail.ts): composed with the link on a line of its own, sent by
 * SMTP to a loopback mail server or written as an .eml file only its owner can read; a failed send is
 * logged without the link, and with nowhere to send, said so.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMailer, accountMessage } from '../../src/site/account-mail.js';
import { linksIn, outboxMessages, unfold } from '../helpers/mailbox.js';
import { type FakeSmtp, startFakeSmtp } from '../helpers/smtp.js';

const FROM = 'qrfarm <accounts@qr.example>';
const LINK = `https://qr.example/verify-email#token=${'A'.repeat(43)}`;

describe('account mail', () => {
  let smtp: FakeSmtp;
  let outbox: string;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    outbox = mkdtempSync(join(tmpdir(), 'qrfarm-account-mail-'));
  });
  afterAll(async () => {
    await smtp?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('says what the link does and how long it works', () => {
    expect(accountMessage({ kind: 'verify', to: 'a@example.com', link: LINK })).toMatchObject({
      subject: 'Confirm your e-mail address for qrfarm',
      text: expect.stringContaining(`\n\n${LINK}\n\nThe link works once, for 24 hours.`),
    });
    expect(accountMessage({ kind: 'reset', to: 'a@example.com', link: LINK }).text).toContain(
      'The link works once, for 30 minutes.',
    );
  });

  it('sends by SMTP, from QR_MAIL_FROM to the person', async () => {
    const mailer = new AccountMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: outbox }, () => {});
    await mailer.send({ kind: 'reset', to: 'ana@example.com', link: LINK.replace('verify-email', 'reset-password') });
    mailer.close();
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toMatchObject({ from: 'accounts@qr.example', to: ['ana@example.com'] });
    expect(linksIn([smtp.messages[0]!.data], 'ana@example.com', 'reset-password')).toEqual([
      LINK.replace('verify-email', 'reset-password'),
    ]);
    expect(smtp.problems).toEqual([]);
  });

  it('without SMTP writes an .eml file of mode 0600 to the outbox', async () => {
    const mailer = new AccountMailer({ smtpUrl: undefined, from: FROM, outboxDir: outbox }, () => {});
    await mailer.send({ kind: 'verify', to: 'bo@example.com', link: LINK });
    const [name] = readdirSync(outbox);
    expect(name).toMatch(/^verify-\d+-\d{9}-[0-9a-f]{12}\.eml$/);
    expect(statSync(join(outbox, name!)).mode & 0o777).toBe(0o600);
    expect(linksIn(outboxMessages(outbox), 'bo@example.com', 'verify-email')).toEqual([LINK]);
    expect(unfold(outboxMessages(outbox)[0]!)).toContain('Subject: Confirm your e-mail address for qrfarm');
  });

  it('a refused send is logged without the link; with nowhere to send, that is said', async () => {
    const logs: string[] = [];
    smtp.refuse(1);
    const mailer = new AccountMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: undefined }, (m) => logs.push(m));
    await mailer.send({ kind: 'verify', to: 'cy@example.com', link: LINK });
    mailer.close();
    const nowhere = new AccountMailer({ smtpUrl: undefined, from: FROM, outboxDir: undefined }, (m) => logs.push(m));
    await nowhere.send({ kind: 'verify', to: 'cy@example.com', link: LINK });
    expect(logs).toEqual([
      expect.stringMatching(/^account mail \(verify\) not sent: .*451/),
      'account mail (verify) not sent: no SMTP_URL and no outbox folder (set QR_OUTBOX_DIR)',
    ]);
    expect(logs.join('\n')).not.toContain('A'.repeat(43));
  });
});
