import { ApiError } from '../errors.js';
import { fitQr, requiredText, utf8Bytes } from './fields.js';
import { CONTENT_SCHEMAS, type InputOf } from './schemas.js';
import { backslashEscape } from './text-escaping.js';

const WIFI = CONTENT_SCHEMAS.wifi;
export type WifiInput = InputOf<typeof WIFI>;
type KeyedEncryption = Exclude<NonNullable<WifiInput['encryption']>, 'nopass'>;

/** IEEE 802.11 carries the SSID in an element of at most 32 octets. */
const SSID_MAX_BYTES = 32;

/**
 * ZXing's WifiResultParser ends a value at the first `;` not preceded by an odd run of backslashes, and it
 * finds a field by searching for its `S:`/`P:`/`T:`/`H:` prefix anywhere in the text, so a `:` inside a value
 * must be escaped as well or `XP:` in an SSID would be read as a password. `,` and `"` are escaped because
 * the format's other readers treat them as special.
 */
const WIFI_SPECIALS = /[\\;,:"]/g;

const HEX = /^[\dA-Fa-f]+$/;
const ASCII = /^[\x20-\x7E]+$/;

/** What a phone would accept as the key, so a code that can never join its network is refused here. */
const KEY_RULES: Record<KeyedEncryption, { accepts: (password: string) => boolean; hint: string }> = {
  WPA: {
    accepts: (p) => (utf8Bytes(p) >= 8 && utf8Bytes(p) <= 63) || (p.length === 64 && HEX.test(p)),
    hint: 'a passphrase of 8–63 bytes or a key of 64 hexadecimal digits',
  },
  WEP: {
    accepts: (p) =>
      (ASCII.test(p) && (p.length === 5 || p.length === 13)) || (HEX.test(p) && (p.length === 10 || p.length === 26)),
    hint: 'a key of 5 or 13 ASCII characters or 10 or 26 hexadecimal digits',
  },
};

const escapeWifi = (value: string): string => backslashEscape(value, WIFI_SPECIALS);

/** `WIFI:T:<encryption>;S:<ssid>;P:<password>;H:<hidden>;;` — no P: field for an open network. */
export function buildWifi(input: WifiInput): string {
  const ssid = requiredText(input.ssid, 'ssid');
  if (utf8Bytes(ssid) > SSID_MAX_BYTES) {
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: `ssid is ${utf8Bytes(ssid)} bytes in UTF-8; an SSID has at most ${SSID_MAX_BYTES}.`,
      field: 'ssid',
    });
  }
  const encryption = input.encryption ?? WIFI.properties.encryption.default;
  const hidden = input.hidden ?? WIFI.properties.hidden.default;

  // A password sent with nopass is a leftover of a form, not a reason to refuse: the network is open.
  let passwordField = '';
  if (encryption !== 'nopass') {
    const password = requiredText(input.password, 'password');
    const rule = KEY_RULES[encryption];
    if (!rule.accepts(password)) {
      throw new ApiError('INVALID_FIELD_VALUE', {
        message: `A ${encryption} password must be ${rule.hint}.`,
        field: 'password',
      });
    }
    passwordField = `P:${escapeWifi(password)};`;
  }
  return fitQr(`WIFI:T:${encryption};S:${escapeWifi(ssid)};${passwordField}H:${hidden};;`);
}
