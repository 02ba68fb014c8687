import { describe, expect, it } from 'vitest';
import { Recycler, SUSTAINED_REPORTS } from '../../src/render/recycle.js';
import type { WorkerMemory } from '../../src/render/worker-memory.js';

const MB = 1024 * 1024;
const report = (threadId: number, tasks: number, externalMb: number): WorkerMemory => ({
  threadId,
  tasks,
  heapUsedBytes: 10 * MB,
  heapTotalBytes: 20 * MB,
  externalBytes: externalMb * MB,
  wasmBytes: { kernel: 5 * MB },
});

describe('Recycler', () => {
  it('finds a worker due at its task limit, and never with the limit at 0', () => {
    const r = new Recycler({ tasks: 3, bytes: 0 });
    expect([1, 2, 3].map((t) => r.note(report(1, t, 500)))).toEqual([false, false, true]);
    const never = new Recycler({ tasks: 0, bytes: 0 });
    expect(never.note(report(1, 1_000_000, 10_000))).toBe(false);
  });

  it('finds a worker due only once heap and external stay over the limit for SUSTAINED_REPORTS reports in a row', () => {
    const r = new Recycler({ tasks: 0, bytes: 100 * MB });
    // 20 MB of heap + 90 MB external = 110 MB: over. One report under the limit starts the count again.
    for (let i = 1; i < SUSTAINED_REPORTS; i++) expect(r.note(report(1, i, 90))).toBe(false);
    expect(r.note(report(1, SUSTAINED_REPORTS, 70))).toBe(false);
    for (let i = 1; i < SUSTAINED_REPORTS; i++) expect(r.note(report(1, 100 + i, 90))).toBe(false);
    expect(r.note(report(1, 200, 90))).toBe(true);
    // Each worker is counted on its own.
    expect(r.note(report(2, 1, 90))).toBe(false);
  });

  it('knows which workers have reported, and keeps the reports of live workers only', () => {
    const r = new Recycler({ tasks: 0, bytes: 0 });
    r.note(report(1, 1, 50));
    expect(r.allReported([1])).toBe(true);
    expect(r.allReported([1, 2])).toBe(false);
    r.note(report(2, 4, 60));
    expect(r.reports([2, 3]).map((m) => [m.threadId, m.tasks])).toEqual([[2, 4]]);
    expect(r.allReported([1])).toBe(false);
  });
});
