/**
 * When a request body is late. uWS closes the connection of a body that arrives at under 16 KB/s, without
 * an answer: it allows 10 s, and starts over each time another 160 KB has come in. So a body is answered
 * before that happens: late once 8 s pass without another 160 KB (the count uWS keeps), or once the whole
 * body has taken longer than `timeoutMs` (QR_BODY_TIMEOUT_MS), however fast it comes.
 */
const UWS_WINDOW_BYTES = 16 * 1024 * 10;
const STALL_MS = 8_000;

export class BodyDeadline {
  private readonly started = Date.now();
  private windowStart = this.started;
  private windowBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `onLate` gets the reason, for the 408's message. */
  constructor(
    private readonly timeoutMs: number,
    private readonly onLate: (message: string) => void,
  ) {
    this.arm();
  }

  received(bytes: number): void {
    this.windowBytes += bytes;
    if (this.windowBytes < UWS_WINDOW_BYTES) return;
    this.windowBytes = 0;
    this.windowStart = Date.now();
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    const whole = this.started + this.timeoutMs;
    const stalled = this.windowStart + STALL_MS;
    this.timer = setTimeout(
      () =>
        this.onLate(
          whole <= stalled
            ? `The request body did not arrive whole within ${this.timeoutMs / 1000} s.`
            : `The request body arrived too slowly: less than ${UWS_WINDOW_BYTES / 1024} KB in ${STALL_MS / 1000} s.`,
        ),
      Math.min(whole, stalled) - Date.now(),
    );
  }
}
