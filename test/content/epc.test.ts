import { describe, expect, it } from 'vitest';
import { buildEpc, type EpcInput } from '../../src/content/epc.js';
import { expectApiError } from './support.js';

/** ISO 13616 check, written independently with BigInt: rearrange, letters to 10–35, remainder 1. */
const bigIntMod97 = (code: string): bigint =>
  BigInt([...(code.slice(4) + code.slice(0, 4))].map((c) => Number.parseInt(c, 36)).join('')) % 97n;

const VALID_IBANS = [
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'BE68539007547034',
  'AT611904300234573201',
  'NO9386011117947',
  'MT84MALT011000012345MTLCAST001S',
];

const ELEMENTS = [
  'service',
  'version',
  'charset',
  'identification',
  'bic',
  'name',
  'iban',
  'amount',
  'purpose',
  'reference',
  'text',
  'information',
];

/** Reads an EPC069-12 payload into its named elements; omitted trailing elements read as empty. */
function readEpc(payload: string): Record<string, string> {
  const lines = payload.split('\n');
  expect(lines.length).toBeLessThanOrEqual(ELEMENTS.length);
  expect(lines[lines.length - 1]).not.toBe('');
  return Object.fromEntries(ELEMENTS.map((name, i) => [name, lines[i] ?? '']));
}

const base: EpcInput = { name: 'Red Cross', iban: 'DE89370400440532013000' };

describe('buildEpc', () => {
  it('writes the EPC069-12 version 002 header and elements in order', () => {
    const read = readEpc(
      buildEpc({
        ...base,
        bic: 'COBADEFFXXX',
        amount: 12.3,
        purpose: 'CHAR',
        remittanceText: 'Donation',
        information: 'Thanks',
      }),
    );
    expect(read).toEqual({
      service: 'BCD',
      version: '002',
      charset: '1',
      identification: 'SCT',
      bic: 'COBADEFFXXX',
      name: 'Red Cross',
      iban: 'DE89370400440532013000',
      amount: 'EUR12.30',
      purpose: 'CHAR',
      reference: '',
      text: 'Donation',
      information: 'Thanks',
    });
  });

  it('leaves out trailing empty elements and puts no line break after the last', () => {
    expect(buildEpc(base)).toBe('BCD\n002\n1\nSCT\n\nRed Cross\nDE89370400440532013000');
    expect(readEpc(buildEpc({ ...base, remittanceReference: 'RF18539007547034' })).reference).toBe('RF18539007547034');
  });

  it('accepts valid IBANs, written compact or in groups and in either case', () => {
    for (const iban of VALID_IBANS) {
      expect(bigIntMod97(iban)).toBe(1n);
      expect(readEpc(buildEpc({ ...base, iban })).iban).toBe(iban);
    }
    expect(readEpc(buildEpc({ ...base, iban: 'gb82 west 1234 5698 7654 32' })).iban).toBe('GB82WEST12345698765432');
  });

  it('refuses every one-digit change of a valid IBAN', () => {
    for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432']) {
      for (let i = 2; i < iban.length; i++) {
        if (!/\d/.test(iban[i] as string)) continue;
        for (let d = 0; d <= 9; d++) {
          if (String(d) === iban[i]) continue;
          const changed = iban.slice(0, i) + d + iban.slice(i + 1);
          expect(bigIntMod97(changed)).not.toBe(1n);
          expectApiError(() => buildEpc({ ...base, iban: changed }), 'INVALID_FIELD_VALUE', 'iban');
        }
      }
    }
  });

  it('agrees with an independent checksum on IBANs with computed check digits', () => {
    for (let n = 0; n < 300; n++) {
      const bban = String(1_000_000_000_000_000 + n * 7_919_000_003).padStart(18, '0');
      const check = String(98n - bigIntMod97(`DE00${bban}`)).padStart(2, '0');
      const iban = `DE${check}${bban}`;
      expect(bigIntMod97(iban)).toBe(1n);
      expect(readEpc(buildEpc({ ...base, iban })).iban).toBe(iban);
      const swapped = `DE${check}${bban.slice(1, 2)}${bban.slice(0, 1)}${bban.slice(2)}`;
      if (swapped !== iban) expectApiError(() => buildEpc({ ...base, iban: swapped }), 'INVALID_FIELD_VALUE', 'iban');
    }
  });

  it('refuses malformed IBANs', () => {
    for (const iban of [
      'DE8937040044053201300',
      'D189370400440532013000',
      'DE89-3704-0044',
      '89DE370400440532013000',
      'DE89370400440532013000123456789012345',
    ]) {
      expectApiError(() => buildEpc({ ...base, iban }), 'INVALID_FIELD_VALUE', 'iban');
    }
    expectApiError(() => buildEpc({ ...base, iban: '  ' }), 'MISSING_REQUIRED_FIELD', 'iban');
  });

  it('formats amounts with two decimals and refuses more precision or out-of-range values', () => {
    const amountOf = (amount: number): string => readEpc(buildEpc({ ...base, amount })).amount as string;
    expect(amountOf(12.3)).toBe('EUR12.30');
    expect(amountOf(1)).toBe('EUR1.00');
    expect(amountOf(0.01)).toBe('EUR0.01');
    expect(amountOf(0.29)).toBe('EUR0.29');
    expect(amountOf(1234567.89)).toBe('EUR1234567.89');
    expect(amountOf(999999999.99)).toBe('EUR999999999.99');
    expect(readEpc(buildEpc(base)).amount).toBe('');
    for (const amount of [0.1 + 0.2, 1.005, 100.001, 12.345]) {
      expectApiError(() => buildEpc({ ...base, amount }), 'INVALID_FIELD_VALUE', 'amount');
    }
    for (const amount of [0, 0.009, -5, 1_000_000_000, Number.NaN]) {
      expectApiError(() => buildEpc({ ...base, amount }), 'VALUE_OUT_OF_RANGE', 'amount');
    }
  });

  it('checks BIC, purpose and creditor reference', () => {
    expect(readEpc(buildEpc({ ...base, bic: 'deutdeff' })).bic).toBe('DEUTDEFF');
    expect(readEpc(buildEpc({ ...base, bic: 'DEUTDEFF500' })).bic).toBe('DEUTDEFF500');
    for (const bic of ['DEUT', 'DEUTDEF', 'DEUTDEFF5', '1EUTDEFF']) {
      expectApiError(() => buildEpc({ ...base, bic }), 'INVALID_FIELD_VALUE', 'bic');
    }
    for (const purpose of ['char', 'CH4R', 'CHA']) {
      expectApiError(() => buildEpc({ ...base, purpose }), 'INVALID_FIELD_VALUE', 'purpose');
    }
    expect(readEpc(buildEpc({ ...base, remittanceReference: 'rf18 5390 0754 7034' })).reference).toBe(
      'RF18539007547034',
    );
    expect(readEpc(buildEpc({ ...base, remittanceReference: '1234 5678 9012' })).reference).toBe('123456789012');
    for (const remittanceReference of ['RF19539007547034', 'RF18539007547035', 'INV-2025/001', 'X'.repeat(36)]) {
      expectApiError(() => buildEpc({ ...base, remittanceReference }), 'INVALID_FIELD_VALUE', 'remittanceReference');
    }
  });

  it('takes a reference or a text, not both', () => {
    expectApiError(
      () => buildEpc({ ...base, remittanceReference: 'RF18539007547034', remittanceText: 'Invoice 7' }),
      'INVALID_FIELD_VALUE',
      'remittanceText',
    );
  });

  it('keeps non-ASCII text intact and refuses line breaks that would shift the elements', () => {
    const read = readEpc(
      buildEpc({ name: 'Société Générale; Zürich, 東京 🏦', iban: base.iban, remittanceText: 'Rechnung: 42 \\ "Ü"' }),
    );
    expect(read.name).toBe('Société Générale; Zürich, 東京 🏦');
    expect(read.text).toBe('Rechnung: 42 \\ "Ü"');
    expectApiError(() => buildEpc({ ...base, name: 'Two\nLines' }), 'INVALID_FIELD_VALUE', 'name');
    expectApiError(() => buildEpc({ ...base, remittanceText: 'a\r\nb' }), 'INVALID_FIELD_VALUE', 'remittanceText');
  });

  it('allows a payload of exactly 331 bytes and refuses one byte more', () => {
    const full = (text: string): EpcInput => ({
      ...base,
      name: 'N'.repeat(70),
      bic: 'COBADEFFXXX',
      amount: 999999999.99,
      purpose: 'GDDS',
      remittanceText: text,
      information: 'I'.repeat(50),
    });
    const overhead = Buffer.byteLength(buildEpc(full('x'))) - 1;
    const fits = 'x'.repeat(331 - overhead);
    expect(Buffer.byteLength(buildEpc(full(fits)))).toBe(331);
    expectApiError(() => buildEpc(full(`${fits}x`)), 'CONTENT_TOO_LONG');
    expectApiError(
      () => buildEpc({ ...base, name: '€'.repeat(70), remittanceText: 'é'.repeat(60) }),
      'CONTENT_TOO_LONG',
    );
  });
});
