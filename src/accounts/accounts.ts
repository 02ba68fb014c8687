import { logWarn } from '../observe/log.js';
import type { Db } from '../store/index.js';
import { credits as creditsMetric } from '../observe/metrics.js';
import { balance, commitCredit, releaseCredit, reserveCredit, sweepExpiredReservations } from './credits.js';
import { createCustomer, findCustomerByEmail, getCustomer, requireCustomer } from './customers.js';
import { deleteDesign, getDesign, listDesigns, saveDesign, updateDesign } from './designs.js';
import { abandonIdempotent, beginIdempotent, completeIdempotent, pruneIdempotency } from './idempotency.js';
import { invoiceOf, ordersOf } from './invoices.js';
import { KeyVerifier } from './key-verifier.js';
import { issueKey, listKeys, revokeKey } from './keys.js';
import { listLedger } from './ledger.js';
import { oneAtATime } from './one-at-a-time.js';
import {
  attachCheckoutSession,
  checkoutClosed,
  createOrder,
  getOrder,
  orderWaiver,
  paymentRefunded,
  paymentSucceeded,
} from './orders.js';
import { ActivePackCache } from './pack-cache.js';
import { activePack, grantPack, listPacks, refundPack } from './packs.js';
import { claimReceipts, paidOrder, receiptFailed, receiptSent, receiptState } from './receipts.js';
import type { Accounts } from './interfaces.js';
import type { Clock, Seller } from './types.js';
import { GatewayCallCounter, usageByDay } from './usage.js';

export interface AccountsOptions {
  /** The secret API keys are hashed with (see `resolvePepper`). */
  pepper: Uint8Array;
  /** Default: the system clock. */
  clock?: Clock;
  /** REDIS_URL: revocations broadcast by pub/sub, so caches may keep keys longer. */
  redisUrl?: string;
  /** How long a hold lasts before the sweeper releases it; longer than any AI call (45 s). Default 2 min. */
  reservationTtlMs?: number;
  /** A `running` Idempotency-Key older than this is taken over by a retry. Default: reservationTtlMs. */
  idempotencyLeaseMs?: number;
  /**
   * Key cache TTL without a live pub/sub subscription. Default 0.9 s: a revocation must be refused within
   * 1 s, and a request that arrives as its entry ages out still needs time to be answered.
   */
  keyCacheTtlMs?: number;
  /** Key cache TTL while revocations arrive by pub/sub. Default 10 s. */
  keyCacheTtlWithRedisMs?: number;
  /** How long an active pack read from the store is trusted (src/accounts/pack-cache.ts). Default 5 s. */
  activePackTtlMs?: number;
  /** Key cache size, and active-pack cache size. Default 10,000. */
  keyCacheEntries?: number;
  /** How often counted gateway calls are written to the store. Default 10 s. */
  usageFlushMs?: number;
  log?: (message: string) => void;
  /** Who sells, copied into each invoice as a payment is recorded. Default: qrfarm, no address, no tax. */
  seller?: Seller;
}

const NO_SELLER: Seller = { name: 'qrfarm', address: '', taxId: '', taxPercent: 0 };

/** Ledger entries `ledger()` returns when not told how many. */
const DEFAULT_LEDGER_LIMIT = 50;

/** The account store on a Db (PGlite or PostgreSQL). Closing it leaves the Db open. */
export function createAccounts(db: Db, options: AccountsOptions): Accounts {
  const clock = options.clock ?? (() => new Date());
  const reservationTtlMs = options.reservationTtlMs ?? 120_000;
  const leaseMs = options.idempotencyLeaseMs ?? reservationTtlMs;
  const verifier = new KeyVerifier(db, {
    pepper: options.pepper,
    clock,
    redisUrl: options.redisUrl,
    cacheTtlMs: options.keyCacheTtlMs ?? 900,
    cacheTtlWithFeedMs: options.keyCacheTtlWithRedisMs ?? 10_000,
    cacheEntries: options.keyCacheEntries ?? 10_000,
    log: options.log ?? logWarn,
  });
  // A customer's reservations queue on their row lock in any case (credits.ts). Queued there, each waiting
  // one would hold a pooled connection: a burst from one customer would take the whole pool, and time out
  // waiting for it, theirs and everyone else's calls alike. Queued here, a customer uses one connection.
  const perCustomer = oneAtATime();
  const packs = new ActivePackCache(options.activePackTtlMs ?? 5000, options.keyCacheEntries ?? 10_000);
  const usage = new GatewayCallCounter(db, clock, options.usageFlushMs ?? 10_000, options.log ?? logWarn);

  return {
    verifyKey: (plaintext) => verifier.verify(plaintext),
    async activePack(customerId, now = clock()) {
      const cached = packs.get(customerId, now);
      if (cached !== undefined) return cached;
      const pack = await activePack(db, customerId, now);
      if (pack !== null) packs.set(pack, now);
      return pack;
    },
    reserveCredit: (customerId, now) =>
      perCustomer(customerId, () => reserveCredit(db, customerId, now ?? clock(), reservationTtlMs)),
    commitCredit: (reservationId) => commitCredit(db, reservationId, clock()),
    releaseCredit: (reservationId) => releaseCredit(db, reservationId, clock()),
    balance: (customerId, now = clock()) => balance(db, customerId, now),

    createCustomer: (email) => createCustomer(db, email, clock()),
    customer: (customerId) => getCustomer(db, customerId),
    customerByEmail: (email) => findCustomerByEmail(db, email),
    issueKey: (customerId, { name } = {}) => issueKey(db, options.pepper, customerId, name, clock()),
    async revokeKey(keyId) {
      const { info, digest } = await revokeKey(db, keyId, clock());
      verifier.revoked(digest);
      return info;
    },
    listKeys: (customerId) => listKeys(db, customerId),
    async grantPack(input) {
      const pack = await grantPack(db, input, clock());
      packs.forget(pack.customerId);
      return pack;
    },
    async refundPack(packId, now = clock()) {
      const pack = await refundPack(db, packId, now);
      packs.forget(pack.customerId);
      return pack;
    },
    async listPacks(customerId) {
      await requireCustomer(db, customerId);
      return listPacks(db, customerId);
    },
    async ledger(customerId, limit = DEFAULT_LEDGER_LIMIT) {
      await requireCustomer(db, customerId);
      return listLedger(db, customerId, limit);
    },
    async sweepExpiredReservations(now = clock()) {
      const expired = await sweepExpiredReservations(db, now);
      // Given back by the sweeper (a call's instance gone mid-call), apart from those its call released.
      creditsMetric.labels('expired').inc(expired);
      return expired;
    },
    recordCall: (customerId, limitClass) => usage.record(customerId, limitClass),
    async usage(customerId, days, now = clock()) {
      await usage.flush();
      return usageByDay(db, customerId, days, now);
    },

    beginIdempotent: (customerId, key, requestHash, now = clock()) =>
      beginIdempotent(db, customerId, key, requestHash, now, leaseMs),
    completeIdempotent: (customerId, key, response) => completeIdempotent(db, customerId, key, response),
    abandonIdempotent: (customerId, key) => abandonIdempotent(db, customerId, key),
    pruneIdempotency: (now = clock()) => pruneIdempotency(db, now),

    createOrder: (input) => createOrder(db, input, clock()),
    order: (orderId) => getOrder(db, orderId),
    waiver: (orderId) => orderWaiver(db, orderId),
    attachCheckoutSession: (orderId, sessionId) => attachCheckoutSession(db, orderId, sessionId),
    async paymentSucceeded(payment) {
      const done = await paymentSucceeded(db, payment, clock(), options.seller ?? NO_SELLER);
      // A Studio pack bought while one runs ends later than the one cached.
      if (done.outcome === 'granted') packs.forget(done.order.customerId);
      return done;
    },
    ordersOf: (customerId, limit) => ordersOf(db, customerId, limit),
    invoiceOf: (customerId, orderId) => invoiceOf(db, customerId, orderId),
    saveDesign: (customerId, input) => saveDesign(db, customerId, input, clock()),
    design: (customerId, id) => getDesign(db, customerId, id),
    listDesigns: (customerId) => listDesigns(db, customerId),
    updateDesign: (customerId, id, change) => updateDesign(db, customerId, id, change, clock()),
    deleteDesign: (customerId, id) => deleteDesign(db, customerId, id),
    async paymentRefunded(refund) {
      const outcome = await paymentRefunded(db, refund, clock());
      if (outcome.outcome === 'refunded') packs.forget(outcome.order.customerId);
      return outcome;
    },
    checkoutClosed: (closed) => checkoutClosed(db, closed, clock()),
    claimReceipts: (leaseMs, limit) => claimReceipts(db, clock(), leaseMs, limit),
    paidOrder: (orderId) => paidOrder(db, orderId),
    receiptSent: (orderId, messageId) => receiptSent(db, orderId, messageId, clock()),
    receiptFailed: (orderId, retryInMs) => receiptFailed(db, orderId, clock(), retryInMs),
    receipt: (orderId) => receiptState(db, orderId),

    keyRevocationFeed: () => verifier.feedState(),
    async close() {
      await usage.close();
      await verifier.close();
    },
  };
}
