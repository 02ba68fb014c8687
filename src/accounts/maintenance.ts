import type { Accounts, People } from './types.js';

/**
 * The site's housekeeping: releases expired credit holds, prunes day-old Idempotency-Key records and
 * expired sessions, every `intervalMs`. Several instances may run it at once (all are safe to repeat).
 * Returns the stop.
 */
export function startMaintenance(
  accounts: Accounts,
  {
    intervalMs = 30_000,
    log = (m: string) => console.warn(m),
    people,
  }: { intervalMs?: number; log?: (m: string) => void; people?: Pick<People, 'pruneSessions'> } = {},
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  const tick = () => {
    running = (async () => {
      try {
        await accounts.sweepExpiredReservations();
        await accounts.pruneIdempotency();
        await people?.pruneSessions();
        failing = false;
      } catch (e) {
        if (!failing) log(`accounts maintenance failed (retried every ${intervalMs} ms): ${(e as Error).message}`);
        failing = true;
      }
    })();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
