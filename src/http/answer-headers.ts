/** The head every answer of both roles writes: status texts, and headers no answer goes without. */

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Headers on every answer of both roles (API, pages, errors, files): no browser guesses a type other than
 * the one given (an SVG or JSON answer is never run as HTML or script).
 */
export const ALWAYS_HEADERS: readonly (readonly [string, string])[] = [['X-Content-Type-Options', 'nosniff']];

/** Strict-Transport-Security on the site's answers when its public URL is https: a year, subdomains too. */
export const HSTS: readonly [string, string] = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'];
