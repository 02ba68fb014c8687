import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { ReceiptSettings } from '../config.js';
import { receiptDestination } from '../checkout/receipts.js';

/** Messages sent by this process, in the outbox's names so that they sort in the order sent. */
let sent = 0;

/** How long an SMTP server may take at each step. */
const SMTP_TIMEOUT_MS = 20_000;

/** The messages of the account lifecycle. */
export type AccountMail = { kind: 'verify'; to: string; link: string } | { kind: 'reset'; to: string; link: string };

/** Subject and plain text of a message; the link on a line of its own. */
export function accountMessage(mail: AccountMail): { subject: string; text: string } {
  const lines =
    mail.kind === 'verify'
      ? [
          'Please confirm that this is your e-mail address by opening this link:',
          '',
          mail.link,
          '',
          'The link works once, for 24 hours. If you did not create a qrfarm account or change your',
          'address to this one, ignore this message: nothing changes.',
        ]
      : [
          'Someone asked to reset the password of the qrfarm account with this address.',
          'To choose a new password, open this link:',
          '',
          mail.link,
          '',
          'The link works once, for 30 minutes. Setting a new password signs the account out everywhere.',
          'If you did not ask for this, ignore this message: your password stays as it is.',
        ];
  return {
    subject: mail.kind === 'verify' ? 'Confirm your e-mail address for qrfarm' : 'Reset your qrfarm password',
    text: `${lines.join('\n')}\n`,
  };
}

/**
 * Sends the account's messages through the receipts' path: SMTP when SMTP_URL is set, else an .eml file
 * (mode 0600) in the outbox folder. Sent at once and not retried: the person asks for a new link. The
 * link holds a secret, so nothing of it is logged.
 */
export class AccountMailer {
  private readonly transport: Transporter | undefined;
  private readonly outbox: string | undefined;

  constructor(
    settings: ReceiptSettings,
    private readonly log: (message: string) => void,
  ) {
    const destination = receiptDestination(settings);
    this.from = settings.from;
    if (destination === undefined) return;
    if ('smtp' in destination) {
      this.transport = nodemailer.createTransport({
        url: destination.smtp,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      });
    } else {
      this.outbox = destination.outbox;
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    }
  }

  private readonly from: string;

  /** Sends the message; a failure is logged (without the link) and resolves all the same. */
  async send(mail: AccountMail): Promise<void> {
    if (this.transport === undefined) {
      this.log(`account mail (${mail.kind}) not sent: no SMTP_URL and no outbox folder (set QR_OUTBOX_DIR)`);
      return;
    }
    const { subject, text } = accountMessage(mail);
    const id = `${mail.kind}-${Date.now()}-${String(++sent).padStart(9, '0')}-${randomBytes(6).toString('hex')}`;
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject,
        text,
        messageId: `<${id}@qrfarm>`,
      });
      if (this.outbox !== undefined) writeOutbox(this.outbox, id, info.message as Buffer);
    } catch (e) {
      this.log(`account mail (${mail.kind}) not sent: ${(e as Error).message}`);
    }
  }

  close(): void {
    this.transport?.close();
  }
}

/** The message as `<kind>-<time>-<count>-<random>.eml`, mode 0600 (it holds an address and a link), renamed into place. */
function writeOutbox(dir: string, id: string, message: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${id}.eml`);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, message, { mode: 0o600 });
  renameSync(tmp, path);
}
