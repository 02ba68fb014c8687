/**
 * ISO 7064 MOD 97-10 as ISO 13616 (IBAN) and ISO 11649 (RF creditor reference) use it: the first four
 * characters move to the end, letters become 10–35, and the resulting number must leave remainder 1.
 * The remainder is carried digit by digit because the number has up to 70 digits.
 */
function passesMod97(code: string): boolean {
  let remainder = 0;
  for (const char of code.slice(4) + code.slice(0, 4)) {
    const value = Number.parseInt(char, 36);
    remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97;
  }
  return remainder === 1;
}

/** IBANs and references are printed in groups of four and typed in either case; the payload wants neither. */
export const compactCode = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/** A compact IBAN: country code, two check digits, 11–30 letters or digits, and a correct checksum. */
export const isValidIban = (iban: string): boolean => /^[A-Z]{2}\d{2}[A-Z\d]{11,30}$/.test(iban) && passesMod97(iban);

/** A compact ISO 11649 creditor reference: `RF`, two check digits, 1–21 letters or digits, correct checksum. */
export const isValidCreditorReference = (reference: string): boolean =>
  /^RF\d{2}[A-Z\d]{1,21}$/.test(reference) && passesMod97(reference);
