import { describe, expect, it } from 'vitest';
import { startMaintenance } from '../../src/accounts/maintenance.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (done: () => boolean) => {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(5))
    if (Date.now() > deadline) throw new Error('timed out');
};

describe('startMaintenance', () => {
  it('sweeps and prunes every tick; a failing store is logged once per outage; stop waits', async () => {
    let down = true;
    let completed = 0;
    const calls: string[] = [];
    const step = (name: string) => async () => {
      calls.push(name);
      if (down) throw new Error('store down');
      if (name === 'sessions') completed++;
      return 0;
    };
    const logs: string[] = [];
    const stop = startMaintenance(
      { sweepExpiredReservations: step('sweep'), pruneIdempotency: step('prune') },
      { intervalMs: 10, log: (m) => logs.push(m), people: { pruneSessions: step('sessions') } },
    );
    await until(() => calls.length >= 3);
    expect(logs).toEqual(['accounts maintenance failed (retried every 10 ms): store down']);
    down = false;
    await until(() => completed >= 2);
    down = true;
    await until(() => logs.length === 2);
    const failures = calls.length;
    await until(() => calls.length >= failures + 3);
    expect(logs).toHaveLength(2);
    await stop();
    const after = calls.length;
    await sleep(30);
    expect(calls.length).toBe(after);
  });
});
