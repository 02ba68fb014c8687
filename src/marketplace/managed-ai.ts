import { logWarn } from '../observe/log.js';
import { randomUUID } from 'node:crypto';
import type { MarketplaceSettings } from '../config.js';
import { ApiError } from '../errors.js';
import { OutageLog } from '../outage.js';
import type { Db } from '../store/index.js';
import { type MarketplaceCaller, marketplaceCaller } from './caller.js';
import { monthOf } from './month.js';
import type { PlanTable } from './plans.js';
import { deliverManagedDesign, holdManagedDesign, releaseManagedDesign, sweepManagedHolds } from './quota.js';

/**
 * Counts the design a managed call is about to answer with, and returns the headers that report it to
 * the marketplace. Called once the file is ready, just before the success answer is written.
 */
export type DeliverDesign = () => Promise<Record<string, string>>;

export interface ManagedAiMeterOptions {
  /** A hold older than this is released by the sweeper: far longer than any managed call. Default 5 min. */
  holdTtlMs?: number;
  /** How often expired holds are swept. Default 30 s. */
  sweepEveryMs?: number;
  clock?: () => Date;
  log?: (message: string) => void;
}

/**
 * The managed-AI quota of marketplace plans. Each call holds one design of the caller's calendar month
 * (UTC) in the store before any LLM is asked; a plan with a hard limit (Basic) is refused there once held
 * and delivered designs reach its quota. A design delivered turns its hold into a counted design (past the
 * quota on a paid plan: overage) and the answer carries the marketplace's billing header; anything else
 * (no design, a refused one, an error, a client gone) gives the hold back, and nothing is billed.
 */
export class ManagedAiMeter {
  private readonly holdTtlMs: number;
  private readonly clock: () => Date;
  private readonly log: (message: string) => void;
  private readonly billing: Record<string, string>;
  private readonly sweeper: NodeJS.Timeout;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly plans: PlanTable,
    private readonly settings: MarketplaceSettings,
    options: ManagedAiMeterOptions = {},
  ) {
    this.holdTtlMs = options.holdTtlMs ?? 300_000;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? logWarn;
    this.billing = { [settings.billingHeader]: `${settings.managedAiBillingObject}=1` };
    const outage = new OutageLog(this.log);
    this.sweeper = setInterval(() => {
      this.sweeping = outage.run(
        () => sweepManagedHolds(db, this.clock()),
        (e) => `managed-AI hold sweep failed (retried): ${e.message}`,
      );
    }, options.sweepEveryMs ?? 30_000);
    this.sweeper.unref();
  }

  /** The caller a request's marketplace headers name. */
  callerOf(headers: Readonly<Record<string, string>>): MarketplaceCaller {
    return marketplaceCaller(headers, this.settings, this.plans);
  }

  /**
   * Runs `call` under the quota of the caller the headers name: refused with MANAGED_AI_QUOTA_EXCEEDED
   * before `call` starts when a hard limit is reached; otherwise `call` gets the function to call just
   * before it answers with a design.
   */
  async meter(
    headers: Readonly<Record<string, string>>,
    call: (deliver: DeliverDesign) => Promise<void>,
  ): Promise<void> {
    const { user, plan } = this.callerOf(headers);
    const now = this.clock();
    const month = monthOf(now);
    const quota = plan.managedAiDesignsPerMonth;
    const limit = plan.overageUsdPerCall === null ? quota : undefined;
    const holdId = randomUUID();
    const held =
      limit !== 0 &&
      (await holdManagedDesign(this.db, {
        holdId,
        user,
        month: month.key,
        planId: plan.id,
        limit,
        expiresAt: new Date(now.getTime() + this.holdTtlMs),
      }));
    if (!held) {
      const seconds = Math.max(1, Math.ceil((month.resetsAt.getTime() - now.getTime()) / 1000));
      throw new ApiError('MANAGED_AI_QUOTA_EXCEEDED', {
        message: `The ${plan.name} plan includes ${quota} managed-AI designs a month, all used for ${month.key}; the quota starts again at ${month.resetsAt.toISOString()}. Paid plans continue past their quota.`,
        headers: { 'Retry-After': String(seconds) },
        extra: { resetAt: month.resetsAt.toISOString() },
      });
    }
    let delivered = false;
    try {
      await call(async () => {
        const counted = await deliverManagedDesign(this.db, holdId, quota);
        delivered = true;
        // Only a call outliving its hold's expiry gets here: the design is billed, our count misses it.
        if (counted === null) this.log(`managed-AI design of ${month.key} delivered after its hold expired`);
        return this.billing;
      });
    } finally {
      if (!delivered) await releaseManagedDesign(this.db, holdId).catch((e: Error) => this.log(e.message));
    }
  }

  /** Stops the sweeper; the store stays open. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweeping;
  }
}
