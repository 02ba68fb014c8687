import { ApiError } from '../errors.js';
import { numberInRange, optionalText, requiredText, utf8Bytes } from './fields.js';
import { compactCode, isValidCreditorReference, isValidIban } from './iban.js';
import { CONTENT_SCHEMAS, type InputOf } from './schemas.js';

const EPC = CONTENT_SCHEMAS.epc;
export type EpcInput = InputOf<typeof EPC>;

/** EPC069-12 caps the whole payload at 331 bytes. */
const MAX_PAYLOAD_BYTES = 331;

const BIC = /^[A-Z]{6}[A-Z\d]{2}(?:[A-Z\d]{3})?$/;
const PURPOSE = /^[A-Z]{4}$/;
const REFERENCE = /^[A-Z\d]{1,35}$/;
const AT_MOST_TWO_DECIMALS = /^\d+(?:\.\d{1,2})?$/;

const invalid = (field: string, message: string): ApiError => new ApiError('INVALID_FIELD_VALUE', { message, field });

function formatAmount(amount: number): string {
  numberInRange(amount, EPC.properties.amount, 'amount');
  // String() is the shortest text that reads back as the same double, i.e. what the caller wrote; an amount
  // such as 0.1 + 0.2 arrives as 0.30000000000000004 and is refused rather than silently rounded.
  if (!AT_MOST_TWO_DECIMALS.test(String(amount))) throw invalid('amount', 'amount must have at most two decimals.');
  return `EUR${amount.toFixed(2)}`;
}

function creditorReference(value: string | undefined): string | undefined {
  const text = optionalText(value, 'remittanceReference');
  if (text === undefined) return undefined;
  const reference = compactCode(text);
  const wellFormed = REFERENCE.test(reference) && (!reference.startsWith('RF') || isValidCreditorReference(reference));
  if (!wellFormed) {
    throw invalid(
      'remittanceReference',
      'remittanceReference must be at most 35 letters or digits, and a valid ISO 11649 reference when it starts with RF.',
    );
  }
  return reference;
}

/**
 * The EPC QR code payload (EPC069-12, version 002, character set 1 = UTF-8): one element per line, in the
 * order service tag, version, character set, identification, BIC, name, IBAN, amount, purpose, structured
 * reference, unstructured text, beneficiary-to-originator information.
 */
export function buildEpc(input: EpcInput): string {
  const name = requiredText(input.name, 'name');
  const iban = compactCode(requiredText(input.iban, 'iban'));
  if (!isValidIban(iban))
    throw invalid('iban', 'iban is not a valid IBAN: its ISO 13616 mod-97 checksum does not match.');
  const bic = optionalText(input.bic, 'bic')?.toUpperCase();
  if (bic !== undefined && !BIC.test(bic))
    throw invalid('bic', 'bic must be 8 or 11 letters and digits, e.g. COBADEFFXXX.');
  const amount = input.amount === undefined ? undefined : formatAmount(input.amount);
  const purpose = optionalText(input.purpose, 'purpose');
  if (purpose !== undefined && !PURPOSE.test(purpose))
    throw invalid('purpose', 'purpose must be four capital letters, e.g. CHAR.');
  const reference = creditorReference(input.remittanceReference);
  const text = optionalText(input.remittanceText, 'remittanceText');
  if (reference !== undefined && text !== undefined) {
    throw invalid('remittanceText', 'Give remittanceReference or remittanceText, not both.');
  }
  const information = optionalText(input.information, 'information');

  const elements = ['BCD', '002', '1', 'SCT', bic, name, iban, amount, purpose, reference, text, information];
  // Trailing empty elements may be left out, and the last element carries no line break.
  const payload = elements
    .map((element) => element ?? '')
    .join('\n')
    .replace(/\n+$/, '');
  const bytes = utf8Bytes(payload);
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new ApiError('CONTENT_TOO_LONG', {
      message: `The EPC payload is ${bytes} bytes; EPC069-12 allows at most ${MAX_PAYLOAD_BYTES}.`,
    });
  }
  return payload;
}
