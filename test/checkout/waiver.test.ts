/**
 * The waiver texts (src/checkout/waiver.ts): the current one as its data file holds it, with a SHA-256
 * computed here independently; a version looked up, or refused with withdrawal_waiver_required on the
 * field at fault, its sentence in `message` as the contract has it.
 */
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../src/errors.js';
import { CURRENT_WAIVER, shownWaiver, waiverRefusal, waiverText } from '../../src/checkout/waiver.js';
import { WAIVER_SHA256, WAIVER_TEXT, WAIVER_VERSION } from '../helpers/waiver.js';

/** What `f` threw, as an ApiError's status, code, field and body. */
function thrown(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { status: e.status, code: e.code, field: e.field, body: e.toBody() };
  }
  throw new Error('nothing was thrown');
}

describe('the current waiver text', () => {
  it('is the data file’s current version, both sentences word for word, hashed as consent \\n acknowledgement', () => {
    expect(CURRENT_WAIVER.version).toBe(WAIVER_VERSION);
    expect(CURRENT_WAIVER.consent).toBe(WAIVER_TEXT.consent);
    expect(CURRENT_WAIVER.acknowledgement).toBe(WAIVER_TEXT.acknowledgement);
    expect(Buffer.from(CURRENT_WAIVER.sha256).equals(WAIVER_SHA256)).toBe(true);
    expect(CURRENT_WAIVER.sha256).toHaveLength(32);
  });
});

describe('waiverText', () => {
  it('finds a version by its exact name, and nothing for any other', () => {
    expect(waiverText(WAIVER_VERSION)).toBe(CURRENT_WAIVER);
    for (const other of ['', WAIVER_VERSION.toUpperCase(), `${WAIVER_VERSION} `, '2020-01-en', 'toString', '__proto__'])
      expect(waiverText(other), JSON.stringify(other)).toBeUndefined();
  });
});

describe('shownWaiver', () => {
  it('is the text of a version this site shows', () => {
    expect(shownWaiver(WAIVER_VERSION)).toBe(CURRENT_WAIVER);
  });

  it('refuses a version it never showed: 400 withdrawal_waiver_required on withdrawalWaiver.textVersion', () => {
    expect(thrown(() => shownWaiver('1999-01-en'))).toEqual({
      status: 400,
      code: 'withdrawal_waiver_required',
      field: 'withdrawalWaiver.textVersion',
      body: {
        success: false,
        error: 'withdrawal_waiver_required',
        code: 'withdrawal_waiver_required',
        field: 'withdrawalWaiver.textVersion',
        message: `withdrawalWaiver.textVersion must name the text shown to the buyer; the current one is ${WAIVER_VERSION}.`,
      },
    });
  });
});

describe('waiverRefusal', () => {
  it('says withdrawal_waiver_required in both error and code, the sentence in message, on the field given', () => {
    const e = waiverRefusal('Tick both boxes.', 'withdrawalWaiver.consent');
    expect({ status: e.status, body: e.toBody() }).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'withdrawal_waiver_required',
        code: 'withdrawal_waiver_required',
        field: 'withdrawalWaiver.consent',
        message: 'Tick both boxes.',
      },
    });
  });
});
