// PLACEHOLDER until the relay branch merges (src/gateway/limits.ts).
import type { LimitClass } from './routes.js';
export interface LimitDecision {
  allowed: boolean;
  /** RateLimit-Policy and RateLimit, plus Retry-After when refused. */
  headers: Record<string, string>;
}
export interface Limiter {
  take(customerId: string, cls: LimitClass): Promise<LimitDecision>;
}
