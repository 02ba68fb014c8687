/** A calendar month in UTC, as the store keys metering: `2026-11`. */
export type MonthKey = string;

export interface Month {
  key: MonthKey;
  /** The first instant of the next month: when a monthly quota starts again. */
  resetsAt: Date;
}

/** The UTC calendar month of an instant. */
export function monthOf(at: Date): Month {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return { key: `${y}-${String(m + 1).padStart(2, '0')}`, resetsAt: new Date(Date.UTC(y, m + 1, 1)) };
}

/**
 * The month of "now", recomputed only when the month turns: the usage counter asks on every request,
 * and formatting a date each time would be most of its cost.
 */
export function monthClock(clock: () => number = Date.now): () => Month {
  let current = monthOf(new Date(clock()));
  let startsAt = Date.UTC(current.resetsAt.getUTCFullYear(), current.resetsAt.getUTCMonth() - 1, 1);
  return () => {
    const now = clock();
    if (now >= current.resetsAt.getTime() || now < startsAt) {
      current = monthOf(new Date(now));
      startsAt = Date.UTC(current.resetsAt.getUTCFullYear(), current.resetsAt.getUTCMonth() - 1, 1);
    }
    return current;
  };
}
