import { describe, expect, it } from 'vitest';
import { BatchedCounts, type Counted } from '../../src/store/batched-counts.js';

/** A store stand-in: what each write received, failing while `down`. */
function recorder() {
  const writes: Counted<{ k: string; v: number }>[][] = [];
  const state = { down: false };
  const write = async (batch: Counted<{ k: string; v: number }>[]) => {
    if (state.down) throw new Error('store down');
    writes.push(batch.map((c) => ({ row: { ...c.row }, n: c.n })));
  };
  return { writes, state, write };
}

describe('BatchedCounts', () => {
  it('writes each key once per flush with its count, and the row as last updated', async () => {
    const r = recorder();
    const counts = new BatchedCounts({ write: r.write, flushMs: 3_600_000, what: 'counts', log: () => {} });
    for (let v = 1; v <= 3; v++) counts.count('a', () => ({ k: 'a', v: 0 })).v = v;
    counts.count('b', () => ({ k: 'b', v: 9 }));
    await counts.flush();
    await counts.flush();
    expect(r.writes).toEqual([
      [
        { row: { k: 'a', v: 3 }, n: 3 },
        { row: { k: 'b', v: 9 }, n: 1 },
      ],
    ]);
    await counts.close();
  });

  it('keeps a failed batch, adds what is counted meanwhile, and logs once per outage', async () => {
    const r = recorder();
    const logs: string[] = [];
    const counts = new BatchedCounts({ write: r.write, flushMs: 3_600_000, what: 'counts', log: (m) => logs.push(m) });
    r.state.down = true;
    counts.count('a', () => ({ k: 'a', v: 1 }));
    await counts.flush();
    counts.count('a', () => ({ k: 'a', v: 2 }));
    counts.count('c', () => ({ k: 'c', v: 1 }));
    await counts.flush();
    expect(logs).toEqual(['counts could not be written (kept, retried): store down']);
    r.state.down = false;
    await counts.close();
    expect(r.writes).toEqual([
      [
        { row: { k: 'a', v: 1 }, n: 2 },
        { row: { k: 'c', v: 1 }, n: 1 },
      ],
    ]);
    r.state.down = true;
    counts.count('a', () => ({ k: 'a', v: 1 }));
    await counts.flush();
    expect(logs).toHaveLength(2);
  });

  it('starts a flush as soon as maxPending keys wait', async () => {
    const r = recorder();
    const counts = new BatchedCounts({ write: r.write, flushMs: 3_600_000, maxPending: 2, what: 'c', log: () => {} });
    counts.count('a', () => ({ k: 'a', v: 1 }));
    expect(r.writes).toHaveLength(0);
    counts.count('b', () => ({ k: 'b', v: 1 }));
    await counts.flush();
    expect(r.writes[0]).toHaveLength(2);
    await counts.close();
  });
});
