/**
 * The waiver text the site shows now, read from its data file (src/checkout/waiver-texts.json), and a
 * checkout body's waiver with both boxes ticked. Its hash is computed here, independently of the site.
 */
import { createHash } from 'node:crypto';
import texts from '../../src/checkout/waiver-texts.json' with { type: 'json' };

export const WAIVER_VERSION = texts.current as keyof typeof texts.texts;
export const WAIVER_TEXT = texts.texts[WAIVER_VERSION];
/** `withdrawalWaiver` of a checkout body: both boxes ticked, the current text. */
export const GIVEN_WAIVER = { consent: true, acknowledgement: true, textVersion: WAIVER_VERSION };
/** SHA-256 of the two sentences, `consent + "\n" + acknowledgement` in UTF-8. */
export const WAIVER_SHA256: Buffer = createHash('sha256')
  .update(`${WAIVER_TEXT.consent}\n${WAIVER_TEXT.acknowledgement}`, 'utf8')
  .digest();
