import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Receipts } from '../accounts/index.js';
import type { ReceiptSettings } from '../config.js';
import type { Catalogue } from './catalogue.js';
import { receiptMessage } from './receipt-message.js';
import { waiverText } from './waiver.js';

/** How long a claimed receipt is ours to send; one not sent by then is claimed again. */
const CLAIM_MS = 60_000;
/** Receipts claimed at a time. */
const BATCH = 20;
/** How often waiting receipts are looked for (the site also looks right after a payment). */
const SWEEP_MS = 30_000;
/** A failed send is tried again after 30 s, doubling each time up to an hour. */
const retryDelayMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/** How long an SMTP server may take at each step before the send counts as failed. */
const SMTP_TIMEOUT_MS = 20_000;

/** Where receipts go: a mail server, or a folder of .eml files. */
export type ReceiptDestination = { smtp: string } | { outbox: string };

export function receiptDestination(settings: ReceiptSettings): ReceiptDestination | undefined {
  if (settings.smtpUrl !== undefined) return { smtp: settings.smtpUrl };
  if (settings.outboxDir !== undefined) return { outbox: settings.outboxDir };
  return undefined;
}

/** What the start log says of a destination; never the SMTP URL, which may hold a password. */
export function describeDestination(d: ReceiptDestination | undefined): string {
  if (d === undefined)
    return 'Receipts are not sent: no SMTP_URL, and no outbox with a memory:// data directory (set QR_OUTBOX_DIR).';
  if ('smtp' in d) {
    const url = new URL(d.smtp);
    return `Receipts are sent by SMTP to ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}.`;
  }
  return `Receipts are written to ${d.outbox} as .eml files (SMTP_URL is not set).`;
}

/**
 * Sends the receipts of paid orders: claimed from the store (the transactional outbox written with each
 * fulfilment), composed, sent by SMTP or written to the outbox folder, then marked sent. A receipt is sent
 * at least once: a site stopping between the send and the mark sends it again after the claim's minute.
 */
export class ReceiptSender {
  private readonly transport: Transporter;
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly receipts: Receipts,
    private readonly catalogue: Catalogue,
    private readonly destination: ReceiptDestination,
    private readonly from: string,
    private readonly log: (message: string) => void,
  ) {
    this.transport =
      'smtp' in destination
        ? nodemailer.createTransport({
            url: destination.smtp,
            connectionTimeout: SMTP_TIMEOUT_MS,
            greetingTimeout: SMTP_TIMEOUT_MS,
            socketTimeout: SMTP_TIMEOUT_MS,
          })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    if ('outbox' in destination) mkdirSync(destination.outbox, { recursive: true, mode: 0o700 });
    this.timer = setInterval(() => void this.deliverPending(), SWEEP_MS);
    this.timer.unref();
  }

  /** Sends what is waiting; a call while a round runs asks for one more round after it. */
  deliverPending(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          for (let claimed = await this.claim(); claimed.length > 0; claimed = await this.claim())
            for (const orderId of claimed) await this.send(orderId);
        } catch (e) {
          this.log(`receipts: the store could not be read (retried in ${SWEEP_MS / 1000} s): ${(e as Error).message}`);
        }
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private claim(): Promise<string[]> {
    return this.receipts.claimReceipts(CLAIM_MS, BATCH);
  }

  private async send(orderId: string): Promise<void> {
    const paid = await this.receipts.paidOrder(orderId);
    if (paid === null) throw new Error(`order ${orderId} has a receipt to send but is not paid`);
    const { order, pack, waiver } = paid;
    const text = waiverText(waiver.textVersion);
    if (text === undefined)
      throw new Error(`order ${orderId}: waiver text ${waiver.textVersion} is not in waiver-texts.json`);
    const message = receiptMessage(
      order,
      pack,
      this.catalogue.offer(order.offerId)?.name ?? order.offerId,
      waiver,
      text,
    );
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: order.email,
        subject: message.subject,
        text: message.text,
        textEncoding: 'quoted-printable',
        messageId: `<${orderId}.receipt@qrfarm>`,
      });
      if ('outbox' in this.destination) writeOutbox(this.destination.outbox, orderId, info.message as Buffer);
      await this.receipts.receiptSent(orderId, info.messageId);
    } catch (e) {
      const { attempts } = (await this.receipts.receipt(orderId))!;
      const retryInMs = retryDelayMs(attempts);
      await this.receipts.receiptFailed(orderId, retryInMs);
      this.log(
        `receipt of ${orderId} not sent (attempt ${attempts}, again in ${retryInMs / 1000} s): ${(e as Error).message}`,
      );
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }
}

/** The message as a .eml file, mode 0600 (it holds the buyer's address), renamed into place whole. */
function writeOutbox(dir: string, orderId: string, message: Buffer): void {
  const path = join(dir, `${orderId}.eml`);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, message, { mode: 0o600 });
  renameSync(tmp, path);
}
