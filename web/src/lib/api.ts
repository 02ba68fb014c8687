/**
 * The pages' one way to the site: JSON in and out, the error envelope turned into an ApiFailure that
 * keeps `code` and `field`, and the CSRF token of GET /api/session sent with every POST.
 */
import type { SessionJson } from '../../../src/wire/site.js';

export interface ErrorEnvelope {
  success: false;
  error: string;
  code: string;
  field?: string;
  /** A sentence beside an `error` that is itself a code (the checkout's withdrawal_waiver_required). */
  message?: string;
  docs?: string;
  pricing?: string;
}

export class ApiFailure extends Error {
  readonly code: string;
  readonly field: string | undefined;
  readonly status: number;
  readonly envelope: ErrorEnvelope;

  constructor(status: number, envelope: ErrorEnvelope) {
    super(envelope.message ?? envelope.error);
    this.status = status;
    this.code = envelope.code;
    this.field = envelope.field;
    this.envelope = envelope;
  }
}

/**
 * Any error of a request as the failure a page shows: the site's refusal as it is; anything else means
 * no answer the page could read came back (offline, a dropped connection), said once for every page.
 */
export const asFailure = (e: unknown): ApiFailure =>
  e instanceof ApiFailure
    ? e
    : new ApiFailure(0, { success: false, error: 'The site could not be reached.', code: 'offline' });

let csrfToken: string | undefined;

/** Reads an answer: the JSON on success, an ApiFailure otherwise (also when the body is not an envelope). */
async function read<T>(res: Response): Promise<T> {
  const type = res.headers.get('content-type') ?? '';
  const body = type.includes('json') ? await res.json() : undefined;
  if (res.ok) return body as T;
  const envelope: ErrorEnvelope =
    body && typeof body === 'object' && 'code' in body
      ? (body as ErrorEnvelope)
      : { success: false, error: `The site answered ${res.status}.`, code: `http_${res.status}` };
  throw new ApiFailure(res.status, envelope);
}

/** Who is signed in; remembers the CSRF token for later POSTs. */
export async function loadSession(): Promise<SessionJson> {
  const s = await read<SessionJson>(await fetch('/api/session', { credentials: 'same-origin' }));
  csrfToken = s.csrfToken;
  return s;
}

/** A new CSRF token comes with every sign-in or sign-up. */
export const rememberCsrfToken = (token: string): void => {
  csrfToken = token;
};

/** The CSRF token of this browser, for a request the helpers here do not make (a CSV body, a DELETE). */
export async function currentCsrfToken(): Promise<string> {
  if (csrfToken === undefined) await loadSession();
  return csrfToken ?? '';
}

/** Reads an answer as the helpers here do: the JSON on success, an ApiFailure otherwise. */
export const readAnswer = <T>(res: Response): Promise<T> => read<T>(res);

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return read<T>(await fetch(path, { credentials: 'same-origin', signal }));
}

export interface PostOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** How often a POST refused for a busy moment is sent again, and the longest wait before each. */
const BUSY_RETRIES = 4;
const BUSY_WAIT_MAX_S = 5;

/** Waits `ms`, or until `signal` aborts (then rejects with its reason). */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * A POST, sent again after the Retry-After it names when the answer is 503 SERVER_BUSY: the render workers
 * were all taken and nothing was done, as happens when a preview, a picker and a download meet.
 */
async function post(path: string, body: unknown, { signal, headers = {} }: PostOptions): Promise<Response> {
  if (csrfToken === undefined) await loadSession();
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken ?? '', ...headers },
      body: JSON.stringify(body ?? {}),
      signal,
    });
    if (res.status !== 503 || attempt === BUSY_RETRIES) return res;
    const code = await res
      .clone()
      .json()
      .then((b: ErrorEnvelope) => b.code)
      .catch(() => undefined);
    if (code !== 'SERVER_BUSY') return res;
    const seconds = Math.min(BUSY_WAIT_MAX_S, Number(res.headers.get('retry-after') ?? 1) || 1);
    await pause(seconds * 1000, signal);
  }
}

export async function postJson<T>(path: string, body?: unknown, options: PostOptions = {}): Promise<T> {
  return read<T>(await post(path, body, options));
}

/** A PATCH or DELETE of the signed-in account's things, with the CSRF token every change carries. */
export async function changeJson<T>(method: 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  if (csrfToken === undefined) await loadSession();
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      'x-csrf-token': csrfToken ?? '',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return read<T>(res);
}

/** A POST whose success is a file (a download): its bytes and headers. */
export async function postForFile(path: string, body: unknown, options: PostOptions = {}): Promise<Response> {
  const res = await post(path, body, options);
  if (!res.ok) await read(res);
  return res;
}

/** Whether an error is the abort of a request superseded by a newer one. */
export const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';
