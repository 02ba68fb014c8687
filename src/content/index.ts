import { buildEmail } from './email.js';
import { buildEpc } from './epc.js';
import { buildEvent } from './event.js';
import { buildGeo } from './geo.js';
import { buildMecard } from './mecard.js';
import { CONTENT_SCHEMAS, type InputOf } from './schemas.js';
import { buildSms } from './sms.js';
import { buildTel } from './tel.js';
import { buildVcard } from './vcard.js';
import { buildWifi } from './wifi.js';

export { CONTENT_SCHEMAS };

/**
 * `POST /api/qr/content/<type>` → the builder of its payload; each expects a body its schema accepted. The
 * `satisfies` clause makes a type without a schema, or a builder whose input drifts from it, a compile error.
 */
export const CONTENT_HELPERS = {
  wifi: buildWifi,
  vcard: buildVcard,
  geo: buildGeo,
  email: buildEmail,
  sms: buildSms,
  tel: buildTel,
  mecard: buildMecard,
  event: buildEvent,
  epc: buildEpc,
} satisfies { [T in keyof typeof CONTENT_SCHEMAS]: (input: InputOf<(typeof CONTENT_SCHEMAS)[T]>) => string };

export type ContentType = keyof typeof CONTENT_HELPERS;

/** The request body of a content type, as its schema defines it. */
export type ContentInput<T extends ContentType> = Parameters<(typeof CONTENT_HELPERS)[T]>[0];
