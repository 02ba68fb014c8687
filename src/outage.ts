/**
 * Reports a repeated background task's failures once per outage: the first failure is logged, the ones
 * after it are not until the task has succeeded again, so a store or Redis that is down for an hour
 * writes one line, not one per retry. An optional line marks the end of the outage.
 */
export class OutageLog {
  private down = false;

  constructor(
    private readonly log: (line: string) => void,
    /** Logged when the task succeeds after an outage; nothing when undefined. */
    private readonly recoveredLine?: string,
  ) {}

  /** The task failed: `line()` is logged if this is the outage's first failure. */
  failed(line: () => string): void {
    if (this.down) return;
    this.down = true;
    this.log(line());
  }

  /** The task succeeded: the next failure starts a new outage. */
  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    if (this.recoveredLine !== undefined) this.log(this.recoveredLine);
  }

  /** Runs `task`, reporting its failure with `line(error)`; never rejects. */
  async run(task: () => Promise<unknown>, line: (e: Error) => string): Promise<void> {
    try {
      await task();
    } catch (e) {
      this.failed(() => line(e as Error));
      return;
    }
    this.succeeded();
  }
}
