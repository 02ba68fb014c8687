import type { Order, Pack, Waiver } from '../accounts/index.js';
import type { WaiverText } from './waiver.js';

/** A receipt's subject and plain text. */
export interface ReceiptMessage {
  subject: string;
  text: string;
}

/** An amount in a currency's minor unit as people write it: 2900 eur → €29.00, 500 jpy → ¥500. */
export function formatPrice(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
  return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const utc = (d: Date) =>
  `${d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')} UTC`;
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The confirmation on a durable medium that Directive 2011/83/EU art. 16(m) asks for: what was bought, and
 * the waiver of the right of withdrawal quoted word for word as the buyer accepted it, with the text's
 * version and SHA-256 and when it was given.
 */
export function receiptMessage(
  order: Order,
  pack: Pack,
  offerName: string,
  waiver: Waiver,
  text: WaiverText,
): ReceiptMessage {
  const paid = order.provider === 'test' ? 'test mode: nothing was charged' : `paid through Stripe`;
  const lines = [
    'Thank you for your order.',
    '',
    `Order:      ${order.id}`,
    `Date:       ${utc(order.paidAt ?? order.createdAt)}`,
    `Item:       ${offerName}`,
    `AI credits: ${pack.credits}`,
    `Valid:      until ${day(pack.expiresAt)} (${order.kind === 'studio' ? 'API access and credits' : 'credits'})`,
    `Price:      ${formatPrice(order.price, order.currency)} (${paid})`,
    `Customer:   ${order.customerId} (${order.email})`,
    '',
    'Your waiver of the right of withdrawal',
    '',
    `Before paying you ticked these two boxes (text version ${waiver.textVersion}, given ${utc(waiver.givenAt)}):`,
    '',
    `[x] ${text.consent}`,
    `[x] ${text.acknowledgement}`,
    '',
    `SHA-256 of the text: ${Buffer.from(waiver.textSha256).toString('hex')}`,
    '',
    'The pack was made available to you at once, so the right of withdrawal no longer applies.',
  ];
  return { subject: `Your receipt for order ${order.id}: ${offerName}`, text: `${lines.join('\n')}\n` };
}
