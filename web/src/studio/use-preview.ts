import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type ApiFailure, asFailure, isAbort, postForFile } from '../lib/api.js';
import { type Design, type Pace, requestBody } from './design.js';
import type { Rendered } from './rendered.js';

/** The preview is drawn at most this wide: enough to judge, cheap to redo on every change. */
const PREVIEW_MAX_PX = 640;
/** The pause after the last of a run of changes (keys typed, a colour or slider dragged). */
export const TYPING_PAUSE_MS = 150;
/** The Studio's calls of a minute kept back from previews, for downloads, content helpers and the print check. */
const RESERVED_CALLS = 5;
/** Below this many calls left in the minute (beyond the reserve), previews are spread over what is left. */
const SPREAD_BELOW = 10;

export interface Budget {
  remaining: number;
  resetSec: number;
}

/** The site's `RateLimit: "studio";r=12;t=40`: the Studio's calls left, and seconds until the window ends. */
export function budgetOf(header: string | null): Budget | undefined {
  const r = /;r=(\d+)/.exec(header ?? '');
  const t = /;t=(\d+)/.exec(header ?? '');
  return r && t ? { remaining: Number(r[1]), resetSec: Number(t[1]) } : undefined;
}

/**
 * How long a change waits before its preview is asked for: nothing for a choice made in one go, a short
 * pause for typing or dragging. Once few of the minute's calls are left, the rest of the minute is spread
 * over them (a few kept for a download), so the preview slows down rather than being refused.
 */
export function waitFor(pace: Pace, budget: Budget | undefined): number {
  const own = pace === 'now' ? 0 : TYPING_PAUSE_MS;
  if (budget === undefined) return own;
  const spare = budget.remaining - RESERVED_CALLS;
  if (spare >= SPREAD_BELOW) return own;
  return Math.max(own, Math.round((budget.resetSec * 1000) / Math.max(1, spare)));
}

export interface PreviewState {
  rendered: Rendered | undefined;
  /** The design the shown preview is of. */
  renderedDesign: Design | undefined;
  error: ApiFailure | undefined;
  busy: boolean;
  /** Seconds the preview is held back to stay within the Studio's calls per minute. */
  heldSec: number | undefined;
}

/**
 * The live preview: the engine renders and verifies the design as soon as a change is worth it (`waitFor`).
 * A newer change aborts the request still running, so its render stops on the engine (the pool raises the
 * render's stop flag, src/render/pool.ts) and leaves the Studio's share of the workers to the new one,
 * and only the latest design is ever shown.
 */
export function usePreview(
  content: string | undefined,
  design: Design,
  blocked: string | undefined,
  pace: Pace,
  onFieldError: (field: string | undefined, message: string | undefined) => void,
): PreviewState {
  const [state, setState] = useState<PreviewState>({
    rendered: undefined,
    renderedDesign: undefined,
    error: undefined,
    busy: false,
    heldSec: undefined,
  });
  const budget = useRef<Budget>(undefined);

  // A layout effect: a choice's request leaves as the change is drawn, not a frame later.
  useLayoutEffect(() => {
    if (content === undefined || blocked !== undefined) {
      setState((s) => ({ ...s, busy: false, heldSec: undefined }));
      return;
    }
    const controller = new AbortController();
    const wait = waitFor(pace, budget.current);
    setState((s) => ({ ...s, busy: true, heldSec: wait >= 1000 ? Math.ceil(wait / 1000) : undefined }));
    const width = Math.min((design.outputWidth as number | undefined) ?? 800, PREVIEW_MAX_PX);
    const body = requestBody(content, design, { fileFormat: 'png', outputWidth: width, responseType: 'base64' });
    const send = async () => {
      try {
        const res = await postForFile('/api/studio/render', body, { signal: controller.signal });
        budget.current = budgetOf(res.headers.get('ratelimit'));
        const rendered = (await res.json()) as Rendered;
        setState({ rendered, renderedDesign: design, error: undefined, busy: false, heldSec: undefined });
        onFieldError(undefined, undefined);
      } catch (e) {
        if (isAbort(e)) return;
        const failure = asFailure(e);
        setState((s) => ({ ...s, error: failure, busy: false, heldSec: undefined }));
        onFieldError(failure.field, failure.message);
      }
    };
    const timer = wait === 0 ? undefined : setTimeout(send, wait);
    if (timer === undefined) void send();
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, design, blocked]);

  return state;
}
