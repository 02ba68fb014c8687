/**
 * Request schemas of the content helpers (JSON Schema draft-07, AJV strict compatible), one per
 * `POST /api/qr/content/<type>`. They carry what maps onto one field: types, bounds, enumerations, defaults
 * and the unconditionally required fields. Rules that span fields (a password unless the network is open,
 * at least one name, an end after the start, a reference or a text) and format checks (e-mail, phone, URL,
 * IBAN checksum, dates) are enforced by the builders, which answer with the field at fault; the
 * descriptions document them so the published OpenAPI document tells the whole contract. Phone, e-mail
 * and web-address fields come from formatField (formats.ts), which holds each of those rules once.
 */
import { formatField } from './formats.js';

/** Contact fields shared by the vCard and MECARD helpers, so both check and document them alike. */
const FIRST_NAME = {
  type: 'string',
  maxLength: 100,
  description: 'Given name. One line, at most 100 characters.',
} as const;
const LAST_NAME = {
  type: 'string',
  maxLength: 100,
  description: 'Family name. One line, at most 100 characters.',
} as const;
const EMAIL = formatField('email', 'E-mail address');
const WEBSITE = formatField('url', 'Website');

export const CONTENT_SCHEMAS = {
  wifi: {
    type: 'object',
    description: 'Wi-Fi network credentials, encoded as the WIFI: string phones join from the camera.',
    additionalProperties: false,
    required: ['ssid'],
    properties: {
      ssid: {
        type: 'string',
        maxLength: 32,
        description: 'Network name (SSID). Required, non-blank, at most 32 bytes in UTF-8 (the 802.11 limit).',
      },
      password: {
        type: 'string',
        maxLength: 64,
        description:
          'Network password. Required unless encryption is nopass, and ignored then. WPA: a passphrase of ' +
          '8–63 bytes in UTF-8 (8–63 ASCII characters) or a 64-digit hexadecimal key. WEP: 5 or 13 ASCII ' +
          'characters, or 10 or 26 hexadecimal digits.',
      },
      encryption: {
        type: 'string',
        enum: ['WPA', 'WEP', 'nopass'],
        default: 'WPA',
        description: 'Security of the network: WPA (WPA, WPA2 or WPA3 personal), WEP, or nopass for an open network.',
      },
      hidden: {
        type: 'boolean',
        default: false,
        description: 'Whether the network hides its SSID, so the phone must probe for it.',
      },
    },
  },

  vcard: {
    type: 'object',
    description:
      'A contact, encoded as a vCard 3.0 (RFC 2426). At least one of firstName, lastName or organization ' +
      'must be given and non-blank; the formatted name (FN) is "firstName lastName", or the organization ' +
      'when neither name is given.',
    additionalProperties: false,
    properties: {
      firstName: FIRST_NAME,
      lastName: LAST_NAME,
      organization: {
        type: 'string',
        maxLength: 200,
        description: 'Company or organization name. One line, at most 200 characters.',
      },
      title: { type: 'string', maxLength: 200, description: 'Job title. One line, at most 200 characters.' },
      phone: formatField('phone', 'Phone number', 'Kept as written.'),
      email: EMAIL,
      url: WEBSITE,
      address: {
        type: 'string',
        maxLength: 500,
        description: 'Postal address as free text; line breaks allowed. Goes into the street component of ADR.',
      },
    },
  },

  geo: {
    type: 'object',
    description:
      'A location, encoded as a geo: URI (RFC 5870). Coordinates are written in plain decimal notation ' +
      'rounded to 7 decimals (about 1 cm).',
    additionalProperties: false,
    required: ['latitude', 'longitude'],
    properties: {
      latitude: {
        type: 'number',
        minimum: -90,
        maximum: 90,
        description: 'Latitude in decimal degrees, -90 to 90 (WGS 84).',
      },
      longitude: {
        type: 'number',
        minimum: -180,
        maximum: 180,
        description: 'Longitude in decimal degrees, -180 to 180 (WGS 84).',
      },
      query: {
        type: 'string',
        maxLength: 200,
        description:
          'Optional label or search text for map applications, appended as ?q=. One line, at most 200 characters.',
      },
    },
  },

  email: {
    type: 'object',
    description: 'An e-mail to compose, encoded as a mailto: URI (RFC 6068).',
    additionalProperties: false,
    required: ['to'],
    properties: {
      to: formatField('email', 'Recipient address', 'Required.'),
      subject: { type: 'string', maxLength: 255, description: 'Subject line. One line, at most 255 characters.' },
      body: {
        type: 'string',
        maxLength: 2000,
        description: 'Message text; line breaks allowed (sent as CRLF, as RFC 6068 requires). At most 2000 characters.',
      },
    },
  },

  sms: {
    type: 'object',
    description: 'A text message to send, encoded as SMSTO:<number>:<message>, the form ZXing and phone cameras read.',
    additionalProperties: false,
    required: ['number'],
    properties: {
      number: formatField('phone', 'Recipient phone number', 'Spaces are removed in the payload.'),
      message: {
        type: 'string',
        maxLength: 1000,
        description: 'Prefilled message text; line breaks allowed. At most 1000 characters.',
      },
    },
  },

  tel: {
    type: 'object',
    description: 'A phone number to call, encoded as a tel: URI (RFC 3966).',
    additionalProperties: false,
    required: ['number'],
    properties: {
      number: formatField('phone', 'Phone number', 'Spaces are removed (RFC 3966 allows only . - ( ) as separators).'),
    },
  },

  mecard: {
    type: 'object',
    description:
      'A contact in the compact MECARD format (NTT DoCoMo). At least one of firstName or lastName must be given and non-blank.',
    additionalProperties: false,
    properties: {
      firstName: FIRST_NAME,
      lastName: LAST_NAME,
      phone: formatField('phone', 'Phone number', 'Spaces are removed in the payload.'),
      email: EMAIL,
      url: WEBSITE,
      address: { type: 'string', maxLength: 500, description: 'Postal address as free text; line breaks allowed.' },
      note: {
        type: 'string',
        maxLength: 1000,
        description: 'Free-text note; line breaks allowed. At most 1000 characters.',
      },
    },
  },

  event: {
    type: 'object',
    description:
      'A calendar event, encoded as an iCalendar VEVENT (RFC 5545) with UTC times. The payload is the bare ' +
      'VEVENT that QR readers expect, without VCALENDAR, UID or DTSTAMP, so equal requests give equal payloads.',
    additionalProperties: false,
    required: ['summary', 'start'],
    properties: {
      summary: {
        type: 'string',
        maxLength: 255,
        description: 'Event title. Required; one line, at most 255 characters.',
      },
      start: {
        type: 'string',
        maxLength: 40,
        description:
          'Start as an ISO 8601 / RFC 3339 date-time with an explicit offset, e.g. 2025-07-14T20:30:00+02:00 ' +
          'or 2025-07-14T18:30:00Z. Seconds are optional; fractions of a second are dropped.',
      },
      end: {
        type: 'string',
        maxLength: 40,
        description: 'Optional end, in the same format as start; must be later than start.',
      },
      location: {
        type: 'string',
        maxLength: 255,
        description: 'Where the event takes place. One line, at most 255 characters.',
      },
      description: {
        type: 'string',
        maxLength: 2000,
        description: 'Longer description; line breaks allowed. At most 2000 characters.',
      },
    },
  },

  epc: {
    type: 'object',
    description:
      'A SEPA credit transfer, encoded as the EPC QR code payload (EPC069-12 version 002, UTF-8), known as ' +
      'GiroCode or Scan2Pay. The whole payload may be at most 331 bytes. Give at most one of ' +
      'remittanceReference and remittanceText.',
    additionalProperties: false,
    required: ['name', 'iban'],
    properties: {
      name: {
        type: 'string',
        maxLength: 70,
        description: 'Name of the beneficiary. Required; one line, at most 70 characters.',
      },
      iban: {
        type: 'string',
        maxLength: 42,
        description:
          'IBAN of the beneficiary; spaces and case are ignored. Must pass the ISO 13616 mod-97 checksum ' +
          '(at most 34 characters once spaces are removed).',
      },
      bic: {
        type: 'string',
        maxLength: 11,
        description:
          'Optional BIC of the beneficiary bank (8 or 11 characters); optional within the EEA since version 002.',
      },
      amount: {
        type: 'number',
        minimum: 0.01,
        maximum: 999999999.99,
        description:
          'Optional amount in euros, 0.01 to 999999999.99, with at most two decimals. Left empty, the payer enters it.',
      },
      purpose: {
        type: 'string',
        minLength: 4,
        maxLength: 4,
        description: 'Optional ISO 20022 purpose code: four capital letters, e.g. CHAR or GDDS.',
      },
      remittanceReference: {
        type: 'string',
        maxLength: 43,
        description:
          'Optional structured creditor reference: up to 35 letters or digits once spaces are removed; one ' +
          'starting with RF must be a valid ISO 11649 reference.',
      },
      remittanceText: {
        type: 'string',
        maxLength: 140,
        description: 'Optional unstructured remittance text shown to the payer. One line, at most 140 characters.',
      },
      information: {
        type: 'string',
        maxLength: 70,
        description:
          'Optional beneficiary-to-originator information (a note to the payer). One line, at most 70 characters.',
      },
    },
  },
} as const;

type Simplify<T> = { [K in keyof T]: T[K] };

type PropertyValue<P> = P extends { readonly enum: readonly (infer E)[] }
  ? E
  : P extends { readonly type: 'string' }
    ? string
    : P extends { readonly type: 'number' }
      ? number
      : P extends { readonly type: 'boolean' }
        ? boolean
        : never;

interface ObjectSchema {
  readonly properties: Readonly<Record<string, unknown>>;
}

type RequiredKey<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

/** The body a schema accepts, derived from it so the builders' input types cannot drift from the schemas. */
export type InputOf<S extends ObjectSchema> = Simplify<
  { [K in keyof S['properties'] as K extends RequiredKey<S> ? K : never]: PropertyValue<S['properties'][K]> } & {
    [K in keyof S['properties'] as K extends RequiredKey<S> ? never : K]?: PropertyValue<S['properties'][K]>;
  }
>;

/** Numeric bounds as a schema states them, for builders that must not emit a coordinate or amount outside them. */
export interface NumberBounds {
  readonly minimum: number;
  readonly maximum: number;
}
