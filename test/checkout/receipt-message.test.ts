/**
 * The receipt's text (src/checkout/receipt-message.ts): prices in each currency's own minor unit, the
 * order's facts, and the waiver quoted word for word with its version, its SHA-256 and when it was given.
 */
import { describe, expect, it } from 'vitest';
import type { Order, Pack, Waiver } from '../../src/accounts/index.js';
import { formatPrice, receiptMessage } from '../../src/checkout/receipt-message.js';
import { CURRENT_WAIVER } from '../../src/checkout/waiver.js';
import { WAIVER_SHA256, WAIVER_TEXT, WAIVER_VERSION } from '../helpers/waiver.js';

describe('formatPrice', () => {
  it('divides by the currency’s own minor unit, whatever the case of its code', () => {
    expect(formatPrice(2900, 'eur')).toBe('€29.00');
    expect(formatPrice(2905, 'EUR')).toBe('€29.05');
    expect(formatPrice(999, 'usd')).toBe('$9.99');
    expect(formatPrice(0, 'gbp')).toBe('£0.00');
    // No minor unit: 500 yen is ¥500, not ¥5.00.
    expect(formatPrice(500, 'jpy')).toBe('¥500');
    // Three decimals: 1500 fils are 1.500 dinars.
    expect(formatPrice(1500, 'kwd')).toBe('KWD\u00a01.500');
    expect(formatPrice(123456, 'eur')).toBe('€1,234.56');
  });
});

const PAID_AT = new Date('2026-11-28T09:05:07.123Z');
const order = (over: Partial<Order> = {}): Order => ({
  id: 'ord_receipt1',
  customerId: 'cus_receipt1',
  email: 'buyer@example.com',
  offerId: 'studio',
  kind: 'studio',
  credits: 100,
  price: 2900,
  currency: 'eur',
  provider: 'stripe',
  state: 'paid',
  checkoutSessionId: 'cs_test_1',
  paymentIntentId: 'pi_1',
  packId: 'pack_1',
  createdAt: new Date('2026-11-28T09:00:00Z'),
  paidAt: PAID_AT,
  closedAt: null,
  ...over,
});
const pack: Pack = {
  id: 'pack_1',
  customerId: 'cus_receipt1',
  kind: 'studio',
  credits: 100,
  remaining: 100,
  purchasedAt: PAID_AT,
  refundedAt: null,
  expiresAt: new Date('2027-11-28T09:05:07.123Z'),
};
const waiver: Waiver = {
  textVersion: WAIVER_VERSION,
  textSha256: new Uint8Array(WAIVER_SHA256),
  givenAt: new Date('2026-11-28T08:59:59.999Z'),
};

describe('receiptMessage', () => {
  it('names the order, the pack, the price and the buyer, and quotes the waiver as given', () => {
    const m = receiptMessage(order(), pack, 'Studio pack', waiver, CURRENT_WAIVER);
    expect(m.subject).toBe('Your receipt for order ord_receipt1: Studio pack');
    expect(m.text).toBe(
      [
        'Thank you for your order.',
        '',
        'Order:      ord_receipt1',
        'Date:       2026-11-28 09:05:07 UTC',
        'Item:       Studio pack',
        'AI credits: 100',
        'Valid:      until 2027-11-28 (API access and credits)',
        'Price:      €29.00 (paid through Stripe)',
        'Customer:   cus_receipt1 (buyer@example.com)',
        '',
        'Your waiver of the right of withdrawal',
        '',
        `Before paying you ticked these two boxes (text version ${WAIVER_VERSION}, given 2026-11-28 08:59:59 UTC):`,
        '',
        `[x] ${WAIVER_TEXT.consent}`,
        `[x] ${WAIVER_TEXT.acknowledgement}`,
        '',
        `SHA-256 of the text: ${WAIVER_SHA256.toString('hex')}`,
        '',
        'The pack was made available to you at once, so the right of withdrawal no longer applies.',
        '',
      ].join('\n'),
    );
  });

  it('a top-up is valid for its credits only; test mode says nothing was charged', () => {
    const { text } = receiptMessage(
      order({ kind: 'topup', provider: 'test', price: 500, currency: 'jpy' }),
      { ...pack, kind: 'topup' },
      'Top-up',
      waiver,
      CURRENT_WAIVER,
    );
    expect(text).toContain('\nValid:      until 2027-11-28 (credits)\n');
    expect(text).toContain('\nPrice:      ¥500 (test mode: nothing was charged)\n');
    expect(text).not.toContain('Stripe');
  });

  it('dates an order not yet marked paid by when it was made', () => {
    const { text } = receiptMessage(order({ paidAt: null }), pack, 'Studio pack', waiver, CURRENT_WAIVER);
    expect(text).toContain('\nDate:       2026-11-28 09:00:00 UTC\n');
  });

  it('hashes come from the waiver recorded, not the text shown now', () => {
    const recorded = { ...waiver, textSha256: new Uint8Array(32).fill(0xab) };
    const { text } = receiptMessage(order(), pack, 'Studio pack', recorded, CURRENT_WAIVER);
    expect(text).toContain(`SHA-256 of the text: ${'ab'.repeat(32)}\n`);
  });
});
