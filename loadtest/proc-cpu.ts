import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks (10 ms). */
const CLOCK_TICKS = 100;

/**
 * CPU time process `pid` has used so far, all its threads, from /proc (utime + stime), in milliseconds.
 * CPU time rather than the wall clock: on a shared machine a process waiting for a core is not charged.
 */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
