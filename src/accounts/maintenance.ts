import { logWarn } from '../observe/log.js';
import { OutageLog } from '../outage.js';
import type { Credits, IdempotencyRecords, People } from './interfaces.js';

/**
 * The site's housekeeping: releases expired credit holds, prunes day-old Idempotency-Key records and
 * expired sessions, every `intervalMs`. Several instances may run it at once (all are safe to repeat).
 * Returns the stop.
 */
export function startMaintenance(
  accounts: Pick<Credits, 'sweepExpiredReservations'> & Pick<IdempotencyRecords, 'pruneIdempotency'>,
  {
    intervalMs = 30_000,
    log = logWarn,
    people,
  }: { intervalMs?: number; log?: (m: string) => void; people?: Pick<People, 'pruneSessions'> } = {},
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const outage = new OutageLog(log);
  const tick = () => {
    running = outage.run(
      async () => {
        await accounts.sweepExpiredReservations();
        await accounts.pruneIdempotency();
        await people?.pruneSessions();
      },
      (e) => `accounts maintenance failed (retried every ${intervalMs} ms): ${e.message}`,
    );
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
