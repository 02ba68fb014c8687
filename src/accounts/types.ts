/**
 * What the consumer site needs from the account store: keys checked at the edge, the Studio pack that
 * opens the gateway, and AI credits reserved before an LLM call and settled after it. The gateway codes
 * against this surface only; `src/accounts/` implements it on the store (PGlite or PostgreSQL).
 */

/** Who a verified API key belongs to. Never carries the key or its hash. */
export interface KeyOwner {
  customerId: string;
  keyId: string;
}

export interface Pack {
  id: string;
  customerId: string;
  /** Credits the pack granted when bought. */
  credits: number;
  purchasedAt: Date;
  refundedAt: Date | null;
  /** purchasedAt + 12 months: the pack is active strictly before this instant. */
  expiresAt: Date;
}

/** A credit held for one AI call: committed when a design comes back, released otherwise. */
export interface Reservation {
  id: string;
  customerId: string;
  expiresAt: Date;
}

export interface CreditBalance {
  /** Credits that can still be reserved, over the customer's active packs. */
  available: number;
  /** Credits held by reservations not yet committed or released. */
  reserved: number;
}

export interface Accounts {
  /**
   * The owner of an active key, or null for a key that is malformed (prefix or checksum: refused
   * without a lookup), unknown or revoked. Cached briefly; a revocation reaches every instance within 1 s.
   */
  verifyKey(plaintext: string): Promise<KeyOwner | null>;
  /** The customer's active pack (bought less than 12 months before `now`, not refunded), newest first. */
  activePack(customerId: string, now?: Date): Promise<Pack | null>;
  /** Holds one credit, or null when none is available. Exact under concurrency. */
  reserveCredit(customerId: string, now?: Date): Promise<Reservation | null>;
  /** Spends a held credit; returns what is left available afterwards. Idempotent per reservation. */
  commitCredit(reservationId: string): Promise<CreditBalance>;
  /** Returns a held credit. Idempotent per reservation; a committed one stays committed. */
  releaseCredit(reservationId: string): Promise<void>;
  balance(customerId: string, now?: Date): Promise<CreditBalance>;
  close(): Promise<void>;
}
