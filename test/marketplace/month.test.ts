/** The UTC calendar months metering is keyed by (src/marketplace/month.ts). */
import { describe, expect, it } from 'vitest';
import { monthClock, monthOf } from '../../src/marketplace/month.js';

describe('monthOf', () => {
  it('the UTC month of an instant and when the next one starts, across the turn of a year', () => {
    expect(monthOf(new Date('2026-11-28T12:00:00Z'))).toEqual({
      key: '2026-11',
      resetsAt: new Date('2026-12-01T00:00:00Z'),
    });
    expect(monthOf(new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      key: '2026-12',
      resetsAt: new Date('2027-01-01T00:00:00Z'),
    });
    expect(monthOf(new Date('2027-01-01T00:00:00Z')).key).toBe('2027-01');
  });

  it('UTC, whatever the offset an instant was written with', () => {
    expect(monthOf(new Date('2026-12-01T00:30:00+01:00')).key).toBe('2026-11');
  });
});

describe('monthClock', () => {
  it('follows its clock across a month’s end, and back (a clock set back)', () => {
    let now = Date.parse('2026-11-30T23:59:59.999Z');
    const month = monthClock(() => now);
    expect(month().key).toBe('2026-11');
    now += 1;
    expect(month()).toEqual({ key: '2026-12', resetsAt: new Date('2027-01-01T00:00:00Z') });
    now = Date.parse('2026-10-15T00:00:00Z');
    expect(month().key).toBe('2026-10');
    now = Date.parse('2026-10-01T00:00:00Z');
    expect(month().key).toBe('2026-10');
  });

  it('gives the same month object while the month lasts', () => {
    let now = Date.parse('2026-11-01T00:00:00Z');
    const month = monthClock(() => now);
    const first = month();
    now = Date.parse('2026-11-30T12:00:00Z');
    expect(month()).toBe(first);
  });
});
