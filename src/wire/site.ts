/**
 * The JSON the site's own API answers its pages (GET /api/session, /api/account…, /api/packs, POST
 * /api/checkout), declared once for the server's mappers and for the pages (web/src), which import these
 * types and nothing else from here: this module imports nothing.
 *
 * A time is a Date where the server builds an answer and the ISO 8601 string JSON turns it into where a
 * page reads it, hence the `Time` parameter: the mappers check their answers as `KeyJson<Date>`, the
 * pages read `KeyJson`.
 */

export interface UserJson<Time = string> {
  email: string;
  /** Whether the address is verified: buying, keys and AI credits need it. */
  emailVerified: boolean;
  customerId: string;
  createdAt: Time;
}

/** GET /api/session. */
export interface SessionJson<Time = string> {
  signedIn: boolean;
  user?: UserJson<Time>;
  expiresAt?: Time;
  /** What every POST of this browser sends in X-CSRF-Token. */
  csrfToken: string;
}

/** POST /api/session/signup and /signin: a new session, hence a new CSRF token. */
export interface SignedInJson<Time = string> {
  user: UserJson<Time>;
  csrfToken: string;
}

export interface PackJson<Time = string> {
  id: string;
  credits: number;
  remaining: number;
  purchasedAt: Time;
  expiresAt: Time;
  refundedAt: Time | null;
}

/** GET /api/account. */
export interface AccountJson<Time = string> {
  user: UserJson<Time>;
  activePack: PackJson<Time> | null;
  /** With an active Studio pack: when a Studio pack bought now would end (12 months after the active one's end). */
  studioExtendsTo: Time | null;
  packs: PackJson<Time>[];
  credits: { available: number; reserved: number };
}

/** An API key as listed: its start, never the key. */
export interface KeyJson<Time = string> {
  id: string;
  start: string;
  name: string | null;
  createdAt: Time;
  lastUsedAt: Time | null;
  revokedAt: Time | null;
}

/** POST /api/account/keys: the one answer with the key itself. */
export interface IssuedKeyJson<Time = string> extends KeyJson<Time> {
  key: string;
}

export type LedgerKind = 'grant' | 'reserve' | 'commit' | 'release' | 'expire' | 'refund';

export interface LedgerEntryJson<Time = string> {
  id: string;
  kind: LedgerKind;
  packId: string;
  remainingChange: number;
  heldChange: number;
  createdAt: Time;
}

/** One UTC day of GET /api/account/usage. */
export interface UsageDayJson {
  /** YYYY-MM-DD. */
  day: string;
  general: number;
  generation: number;
  ai: number;
  creditsSpent: number;
}

/** A pack on sale, as GET /api/packs lists it. */
export interface OfferJson {
  id: string;
  name: string;
  kind: 'studio' | 'topup';
  credits: number;
  /** In the currency's minor unit: 2900 with `eur` is €29.00. */
  price: number;
  /** ISO 4217, lower case. */
  currency: string;
  validMonths: number;
}

/** The waiver texts a checkout shows, and the version its answer must quote. */
export interface WaiverTextJson {
  textVersion: string;
  consent: string;
  acknowledgement: string;
}

/** GET /api/packs. */
export interface CatalogueJson {
  /** Top-ups are listed only where server AI is available. */
  packs: OfferJson[];
  /** Whether this site has a server AI provider configured: AI credits are sold, and spent, only then. */
  serverAi: { available: boolean };
  withdrawalWaiver: WaiverTextJson;
}

/** POST /api/checkout. */
export interface OrderJson<Time = string> {
  orderId: string;
  customerId: string;
  /** `open` until the provider reports the payment; `paid` at once in test mode. */
  status: 'open' | 'paid';
  /** Where to send the buyer to pay (Stripe Checkout). */
  checkoutUrl?: string;
  /** Test mode: nothing was charged. */
  testMode?: true;
  packId?: string;
  credits?: number;
  expiresAt?: Time;
}

/** A saved design (GET/POST /api/account/designs): a QrConfig without content. */
export interface DesignJson<Time = string> {
  id: string;
  name: string;
  config: Record<string, unknown>;
  createdAt: Time;
  updatedAt: Time;
}

export type OrderState = 'open' | 'paid' | 'refunded' | 'expired' | 'failed';

/** One order of GET /api/account/orders. */
export interface OrderSummaryJson<Time = string> {
  id: string;
  offerId: string;
  kind: 'studio' | 'topup';
  credits: number;
  /** Minor units, tax included. */
  price: number;
  currency: string;
  state: OrderState;
  createdAt: Time;
  paidAt: Time | null;
  /** The invoice of a paid order (GET /api/account/orders/:id/invoice.pdf); null before payment. */
  invoiceNumber: string | null;
}
