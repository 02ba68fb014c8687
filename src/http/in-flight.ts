/** Requests accepted and not yet answered, and a wait for none to be left. */
export class InFlight {
  private count = 0;
  private waiter: (() => void) | undefined;

  /** `gauge`: the metric that shows the count (qrfarm_http_requests_in_flight). */
  constructor(private readonly gauge: { inc(): void; dec(): void }) {}

  begin(): void {
    this.count++;
    this.gauge.inc();
  }

  end(): void {
    this.gauge.dec();
    if (--this.count === 0) this.waiter?.();
  }

  /** Waits `atLeastMs`, then until none is in flight or `atMostMs` have passed; resolves with how many are left. */
  async settled(atLeastMs: number, atMostMs: number): Promise<number> {
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, atLeastMs));
    if (this.count > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        timer = setTimeout(resolve, Math.max(0, atMostMs - (performance.now() - started)));
      });
      clearTimeout(timer);
      this.waiter = undefined;
    }
    return this.count;
  }
}
