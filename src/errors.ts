/**
 * The one table of error codes: code → HTTP status → default message.
 *
 * Every error the service answers with is an `ApiError` built from this table, so a code has exactly one
 * status everywhere. Statuses the contract (docs/contract.md) leaves open are decided here; every code is
 * documented in the README's error table (test/errors.test.ts holds the three together).
 */
export const ERRORS = {
  // Validation (400)
  INVALID_JSON: [400, 'Request body is not valid JSON.'],
  MISSING_REQUIRED_FIELD: [400, 'A required field is missing or empty.'],
  CONTENT_TOO_LONG: [400, 'The content does not fit in a QR code at the chosen error-correction level.'],
  INVALID_HEX: [400, 'Colors must be #RGB, #RRGGBB or #RRGGBBAA.'],
  INVALID_FIELD_VALUE: [400, 'A field has an invalid value.'],
  VALUE_OUT_OF_RANGE: [400, 'A numeric field is outside its bounds.'],
  LOW_CONTRAST: [400, 'Foreground and background contrast is below 4:1 and cannot be corrected.'],
  LOGO_TOO_LARGE: [400, 'logoSizePercent above 25 needs eccLevel H.'],
  FILE_TOO_LARGE: [400, 'An uploaded file is larger than 10 MB.'],
  MULTIPART_CONFIG_MISSING: [400, 'The multipart form has no "config" field.'],
  INVALID_MULTIPART: [400, 'The multipart body could not be parsed.'],

  // Authentication (401)
  UNAUTHORIZED: [401, 'Missing or invalid proxy secret.'],
  INVALID_INTERNAL_SIGNATURE: [401, 'Internal request signature is invalid.'],
  INTERNAL_TS_EXPIRED: [401, 'Internal request timestamp is outside the allowed window.'],
  LLM_API_KEY_INVALID: [401, 'The LLM provider rejected the API key.'],

  // Routing and transport
  NOT_FOUND: [404, 'No such endpoint.'],
  TEMPLATE_NOT_FOUND: [404, 'No template with that id.'],
  BATCH_NOT_FOUND: [404, 'No bulk job with that id for this caller.'],
  BATCH_NOT_FINISHED: [409, 'The bulk job has not finished; its result is ready once it has.'],
  METHOD_NOT_ALLOWED: [405, 'This endpoint does not accept that method.'],
  PAYLOAD_TOO_LARGE: [413, 'Request body is larger than 10 MB.'],
  REQUEST_TIMEOUT: [408, 'The request body did not arrive in time.'],
  HEADERS_TOO_LARGE: [431, 'Request headers are too large.'],
  BAD_REQUEST: [400, 'Malformed HTTP request.'],

  // Rendering outcome
  QR_UNSCANNABLE: [422, 'The QR code could not be made scannable.'],
  OUTPUT_TOO_COMPLEX: [422, 'The output would exceed its size budget.'],

  // AI
  AI_GENERATION_FAILED: [502, 'The LLM returned no usable design.'],
  AI_CONFIG_INVALID: [422, 'The LLM returned a design the engine rejected; retry with lower creativity.'],
  AI_REQUEST_TIMEOUT: [503, 'No AI provider answered in time.'],
  AI_QUOTA_EXCEEDED: [503, 'Every AI provider refused for quota or spend cap.'],
  INVALID_LLM_PROVIDER: [400, 'llmProvider is not one of the supported providers.'],
  INVALID_LLM_MODEL: [400, 'llmModel must be letters, digits and . _ : / - (at most 100 characters).'],
  MANAGED_AI_QUOTA_EXCEEDED: [429, "The plan's managed-AI designs for this month are used up."],
  CALL_QUOTA_EXCEEDED: [429, "The plan's calls for this month are used up; it has no overage."],

  // Server
  INTERNAL_ERROR: [500, 'Unexpected internal error.'],
  QR_GENERATION_FAILED: [500, 'The rendering engine failed.'],
  SERVER_BUSY: [503, 'Too many concurrent renders; retry shortly.'],

  // Consumer gateway ({consumer_url}/api/v1 and the site's direct endpoints): lower case, same envelope.
  invalid_body: [400, 'The request body is not what this endpoint accepts.'],
  missing_api_key: [401, 'Send your API key in the X-API-Key header.'],
  invalid_api_key: [401, 'The API key is not recognised, revoked or malformed.'],
  studio_required: [402, 'An active Studio pack is required to use the API.'],
  out_of_api_credits: [402, 'No AI credits left; buy a Studio pack or a top-up.'],
  idempotency_in_progress: [409, 'A request with this Idempotency-Key is still running; retry shortly.'],
  payload_too_large: [413, 'Request body is larger than 1 MiB.'],
  request_timeout: [408, 'The request body did not arrive in time.'],
  output_too_large: [413, 'The rendered file is larger than 10 MB; request PNG or a smaller outputWidth.'],
  multipart_not_supported: [415, 'The gateway accepts JSON only; send images as logoBase64 or backgroundImageBase64.'],
  idempotency_key_reused: [422, 'This Idempotency-Key was used with a different request.'],
  rate_limited: [429, 'Too many requests this minute; retry after Retry-After seconds.'],
  store_unavailable: [503, 'The account store is unavailable; retry shortly.'],
  engine_unavailable: [503, 'No rendering engine is reachable; retry shortly.'],
  engine_timeout: [504, 'The rendering engine did not answer in time.'],

  // The site's pages: people signing in, their sessions and the forms they send.
  invalid_credentials: [401, 'The e-mail address or the password is wrong.'],
  session_required: [401, 'Sign in first: this needs a session.'],
  csrf_failed: [403, 'The X-CSRF-Token header is missing or does not match this browser; reload the page.'],
  email_unverified: [
    403,
    'Verify your e-mail address first: open the link sent to it, or ask for a new one (POST /api/session/verify-email/resend).',
  ],
  wrong_password: [403, 'The current password is wrong.'],
  invalid_token: [400, 'This link is invalid, already used or expired; ask for a new one.'],

  // The site's admin API (loopback only) and the operator CLI.
  customer_not_found: [404, 'No customer with that id.'],
  pack_not_found: [404, 'No pack with that id.'],
  api_key_not_found: [404, 'No API key with that id.'],
  customer_exists: [409, 'A customer with that e-mail address already exists.'],
  key_limit_reached: [409, 'This account holds the most live API keys it may (25); revoke one first.'],
  design_not_found: [404, 'No saved design with that id in this account.'],
  design_limit_reached: [409, 'This account holds the most saved designs it may (50); delete one first.'],
  design_too_large: [413, 'A saved design is at most 512 KiB of JSON; use logoUrl instead of an embedded logo.'],
  invoice_not_found: [404, 'No invoice for that order in this account: it is not yours, or not paid.'],
  admin_loopback_only: [403, 'The admin API answers loopback clients only.'],
  invalid_admin_token: [401, 'Missing or invalid admin token.'],

  // The site's checkout.
  withdrawal_waiver_required: [400, 'Both boxes of the waiver of the right of withdrawal must be ticked.'],
  checkout_unavailable: [503, 'Checkout is not available on this site.'],
  server_ai_unavailable: [409, 'AI credits are not sold here: this site has no server AI provider configured.'],
  studio_pack_needed: [409, 'AI credits top up a Studio pack: buy the Studio pack first.'],
  invalid_webhook_signature: [
    400,
    'The webhook signature does not verify: not from the payment provider, altered, or too old.',
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
  field?: string;
  /** The gateway's 402 answers: where to read about and buy a Studio pack. */
  docs?: string;
  pricing?: string;
  /** MANAGED_AI_QUOTA_EXCEEDED, CALL_QUOTA_EXCEEDED: when the monthly quota starts again (ISO 8601, UTC). */
  resetAt?: string;
  /** A human sentence beside an `error` that is itself a code (withdrawal_waiver_required: docs/contract.md). */
  message?: string;
  /** QR_UNSCANNABLE: the decoder families that did not read the code. */
  failedDecoders?: string[];
}

export interface ApiErrorOptions {
  /** Overrides the table's default message; says what was wrong and, where there is one, the remedy. */
  message?: string;
  /** The request field at fault, in dotted form. */
  field?: string;
  /** Extra response headers, e.g. Retry-After on SERVER_BUSY. */
  headers?: Record<string, string>;
  cause?: unknown;
  /** Fields added to the envelope, e.g. the docs and pricing links of a 402. */
  extra?: Pick<ErrorBody, 'docs' | 'pricing' | 'resetAt' | 'message' | 'failedDecoders'>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;
  readonly extra: ApiErrorOptions['extra'];

  constructor(code: ErrorCode, { message, field, headers = {}, cause, extra }: ApiErrorOptions = {}) {
    super(message ?? ERRORS[code][1], cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code][0];
    this.field = field;
    this.headers = headers;
    this.extra = extra;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { success: false, error: this.message, code: this.code };
    if (this.field !== undefined) body.field = this.field;
    return this.extra === undefined ? body : { ...body, ...this.extra };
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** CONTENT_TOO_LONG with the figures, from the main thread's capacity check and from the encoder alike. */
export const contentTooLong = (bitsNeeded: number, bitsAvailable: number, ecc: string): ApiError =>
  new ApiError('CONTENT_TOO_LONG', {
    message: `The content needs ${bitsNeeded} bits, more than a QR code holds at ECC ${ecc} (${bitsAvailable}). Shorten it or use a lower eccLevel.`,
    field: 'content',
  });
