/** Packs and their credits: what a customer holds, holds for a call, and the movements of each. */

/** A Studio pack opens the gateway and holds credits; a top-up only adds credits. */
export type PackKind = 'studio' | 'topup';

export interface Pack {
  id: string;
  customerId: string;
  kind: PackKind;
  /** Credits the pack granted when bought. */
  credits: number;
  /** Credits of this pack not yet reserved or spent. */
  remaining: number;
  purchasedAt: Date;
  refundedAt: Date | null;
  /**
   * 12 months after purchase, or after the end of the Studio pack it extends: the pack is active strictly
   * before this instant.
   */
  expiresAt: Date;
}

/** A credit held for one AI call: committed when a design comes back, released otherwise. */
export interface Reservation {
  id: string;
  customerId: string;
  /** The pack the credit was drawn from, and is given back to on release. */
  packId: string;
  /** A hold still open after this is released by the sweeper. */
  expiresAt: Date;
}

export interface CreditBalance {
  /** Credits that can still be reserved, over the customer's active packs. */
  available: number;
  /** Credits held by reservations not yet committed or released. */
  reserved: number;
}

export interface GrantPackInput {
  customerId: string;
  credits: number;
  /** Default: a Studio pack. */
  kind?: PackKind;
  /** Default: now. */
  purchasedAt?: Date;
  /** Grants once per key (e.g. a checkout session): a repeat returns the pack already granted. */
  idempotencyKey?: string;
}

export type LedgerKind = 'grant' | 'reserve' | 'commit' | 'release' | 'expire' | 'refund';

/**
 * One credit movement. Over a pack's entries, remainingChange sums to its remaining credits; over a
 * customer's, heldChange sums to the credits on hold. `expire` is a release by the sweeper.
 */
export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  packId: string;
  reservationId: string | null;
  remainingChange: number;
  heldChange: number;
  createdAt: Date;
}

/** One UTC day of a customer's use: gateway calls by limit class, and AI credits spent (any channel). */
export interface UsageDay {
  /** YYYY-MM-DD. */
  day: string;
  general: number;
  generation: number;
  ai: number;
  creditsSpent: number;
}
