/** Requests accepted and not yet answered, and a wait for none to be left. */
export class InFlight {
  private counted = 0;
  private waiter: (() => void) | undefined;

  /** How many are in flight (read by the metrics at a scrape: observe/metrics.ts watchInFlight). */
  get count(): number {
    return this.counted;
  }

  begin(): void {
    this.counted++;
  }

  end(): void {
    if (--this.counted === 0) this.waiter?.();
  }

  /** Waits `atLeastMs`, then until none is in flight or `atMostMs` have passed; resolves with how many are left. */
  async settled(atLeastMs: number, atMostMs: number): Promise<number> {
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, atLeastMs));
    if (this.counted > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        timer = setTimeout(resolve, Math.max(0, atMostMs - (performance.now() - started)));
      });
      clearTimeout(timer);
      this.waiter = undefined;
    }
    return this.counted;
  }
}
