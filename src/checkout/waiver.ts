import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import stored from './waiver-texts.json' with { type: 'json' };

/**
 * The two boxes of the checkout (Directive 2011/83/EU art. 16(m)): the buyer's express consent to
 * immediate performance, and their acknowledgement that they thereby lose the right of withdrawal. Each
 * version of the text is kept (src/checkout/waiver-texts.json), never edited: a new wording is a new
 * version, and an order records the version its buyer was shown with the text's SHA-256.
 */
export interface WaiverText {
  version: string;
  consent: string;
  acknowledgement: string;
  /** SHA-256 of `consent + "\n" + acknowledgement` in UTF-8. */
  sha256: Uint8Array;
}

const hashOf = (consent: string, acknowledgement: string): Uint8Array =>
  new Uint8Array(createHash('sha256').update(`${consent}\n${acknowledgement}`, 'utf8').digest());

function loadTexts(data: unknown): { current: WaiverText; byVersion: Map<string, WaiverText> } {
  const file = data as { current?: unknown; texts?: Record<string, { consent?: unknown; acknowledgement?: unknown }> };
  const byVersion = new Map<string, WaiverText>();
  for (const [version, t] of Object.entries(file.texts ?? {})) {
    if (typeof t.consent !== 'string' || typeof t.acknowledgement !== 'string' || !t.consent || !t.acknowledgement)
      throw new Error(`waiver-texts.json: ${version} needs a consent and an acknowledgement text`);
    byVersion.set(version, {
      version,
      consent: t.consent,
      acknowledgement: t.acknowledgement,
      sha256: hashOf(t.consent, t.acknowledgement),
    });
  }
  const current = typeof file.current === 'string' ? byVersion.get(file.current) : undefined;
  if (current === undefined) throw new Error('waiver-texts.json: current must name one of the texts');
  return { current, byVersion };
}

const TEXTS = loadTexts(stored);

/** The text a checkout shows now. */
export const CURRENT_WAIVER: WaiverText = TEXTS.current;

export const waiverText = (version: string): WaiverText | undefined => TEXTS.byVersion.get(version);

/**
 * The contract's answer (docs/contract.md): `error` and `code` both say withdrawal_waiver_required; the
 * sentence is `message`.
 */
export const waiverRefusal = (message: string, field: string): ApiError =>
  new ApiError('withdrawal_waiver_required', { message: 'withdrawal_waiver_required', field, extra: { message } });

/**
 * The text of a waiver given with both boxes ticked (the body's schema checks them): one this site
 * shows or has shown, else withdrawal_waiver_required.
 */
export function shownWaiver(textVersion: string): WaiverText {
  const text = waiverText(textVersion);
  if (text === undefined)
    throw waiverRefusal(
      `withdrawalWaiver.textVersion must name the text shown to the buyer; the current one is ${CURRENT_WAIVER.version}.`,
      'withdrawalWaiver.textVersion',
    );
  return text;
}
