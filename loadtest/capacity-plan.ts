import type { Mix } from './mix.js';

/*
 * `npm run capacity`'s arithmetic: from what one core sustained for each request class, how many cores,
 * engines and sites a mix at a rate needs. Kept apart from the measuring (capacity.ts) so that it is
 * checked on its own (test/loadtest/capacity-plan.test.ts).
 */

/** The classes measured besides the render kinds of mix.ts (RENDER_KINDS). */
export const GATEWAY_RELAY = 'gateway relay';
export const SERVER_AI = 'server ai';

/** One concurrency step of one class: a closed loop of `concurrency` clients for `seconds`. */
export interface Step {
  concurrency: number;
  seconds: number;
  ok: number;
  /** Answers other than 200, by status or error code. */
  failed: number;
  rate: number;
  p50: number;
  p99: number;
  /** CPU time per answered request of the engine's process (its render worker included) and the site's. */
  engineCpuMs: number;
  siteCpuMs: number;
}

/** What one class was measured at, and what one core sustains of it. */
export interface ClassMeasure {
  kind: string;
  steps: Step[];
  /**
   * The step the class is planned by: the highest concurrency whose p99 met the target; when none did,
   * the lowest (and `metTarget` false).
   */
  chosen: number;
  metTarget: boolean;
  /** The CPU ms a request of the class is charged on each role (measureOf). */
  engineCpuMs: number;
  siteCpuMs: number;
  /** Requests a second one core sustains: 1000 ms over the CPU ms a request is charged, engine and site. */
  perCore: number;
}

/**
 * Picks a class's step and what one core sustains of it. A class is charged the CPU of the processes it
 * is for: a render sent straight to the engine the engine's (the site idles meanwhile), the gateway's relay
 * the site's (its engine side is the render it carries, a class of its own), server AI both.
 */
export function measureOf(kind: string, steps: Step[], targetP99Ms: number): ClassMeasure {
  if (steps.length === 0) throw new Error(`${kind}: no step measured`);
  let chosen = -1;
  steps.forEach((s, i) => {
    if (s.ok > 0 && s.failed === 0 && s.p99 <= targetP99Ms) chosen = i;
  });
  const metTarget = chosen >= 0;
  if (!metTarget) chosen = 0;
  const s = steps[chosen]!;
  const engineCpuMs = kind === GATEWAY_RELAY ? 0 : s.engineCpuMs;
  const siteCpuMs = kind === GATEWAY_RELAY || kind === SERVER_AI ? s.siteCpuMs : 0;
  return { kind, steps, chosen, metTarget, engineCpuMs, siteCpuMs, perCore: 1000 / (engineCpuMs + siteCpuMs) };
}

export interface PlanOptions {
  /** Requests a second: render requests of the mix, server-AI calls added at the mix's serverAi per 100. */
  rate: number;
  /** The share of a core planned busy, so that the p99 holds under arrivals that bunch (0–1). */
  utilisation: number;
  coresPerEngine: number;
  coresPerSite: number;
}

/** One line of a plan: a class's rate in the mix and the cores it takes on each role. */
export interface PlanLine {
  kind: string;
  rate: number;
  engineCores: number;
  siteCores: number;
}

export interface Plan extends PlanOptions {
  lines: PlanLine[];
  /** Cores busy at the rate, and those planned (busy ÷ utilisation). */
  engineCoresBusy: number;
  siteCoresBusy: number;
  engineCores: number;
  siteCores: number;
  engines: number;
  sites: number;
  /** Requests a second of this mix one core sustains, engine and site work together. */
  mixPerCore: number;
}

/** How many cores, engines and sites `mix` at `options.rate` needs, from the classes measured. */
export function plan(measures: readonly ClassMeasure[], mix: Mix, options: PlanOptions): Plan {
  if (!(options.rate > 0)) throw new Error('the rate must be > 0');
  if (!(options.utilisation > 0 && options.utilisation <= 1)) throw new Error('the utilisation must be in (0, 1]');
  const measured = (kind: string): ClassMeasure => {
    const m = measures.find((c) => c.kind === kind);
    if (m === undefined) throw new Error(`the mix names "${kind}", which was not measured`);
    return m;
  };
  const total = mix.requests.reduce((s, r) => s + r.share, 0);
  const lines: PlanLine[] = mix.requests
    .filter((r) => r.share > 0)
    .map(({ kind, share }) => {
      const rate = (options.rate * share) / total;
      return { kind, rate, engineCores: (rate * measured(kind).engineCpuMs) / 1000, siteCores: 0 };
    });
  const relayed = (options.rate * mix.throughGateway) / 100;
  // A relay's engine side is the render it carries, counted above; the site's is the relay itself.
  if (relayed > 0)
    lines.push({
      kind: GATEWAY_RELAY,
      rate: relayed,
      engineCores: 0,
      siteCores: (relayed * measured(GATEWAY_RELAY).siteCpuMs) / 1000,
    });
  const ai = (options.rate * mix.serverAi) / 100;
  if (ai > 0) {
    const m = measured(SERVER_AI);
    lines.push({
      kind: SERVER_AI,
      rate: ai,
      engineCores: (ai * m.engineCpuMs) / 1000,
      siteCores: (ai * m.siteCpuMs) / 1000,
    });
  }
  const engineCoresBusy = lines.reduce((s, l) => s + l.engineCores, 0);
  const siteCoresBusy = lines.reduce((s, l) => s + l.siteCores, 0);
  const engineCores = engineCoresBusy / options.utilisation;
  const siteCores = siteCoresBusy / options.utilisation;
  const requests = options.rate + ai;
  return {
    ...options,
    lines,
    engineCoresBusy,
    siteCoresBusy,
    engineCores,
    siteCores,
    // At least one of each: the site also serves the pages, and an engine the marketplace.
    engines: Math.max(1, Math.ceil(engineCores / options.coresPerEngine)),
    sites: Math.max(1, Math.ceil(siteCores / options.coresPerSite)),
    mixPerCore: requests / (engineCoresBusy + siteCoresBusy),
  };
}
