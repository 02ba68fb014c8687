/** The value of each cookie in a Cookie header (RFC 6265 §5.4); the first of a repeated name wins. */
export function readCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name !== '' && !out.has(name)) out.set(name, pair.slice(eq + 1).trim());
  }
  return out;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  /** Over TLS: `Secure`, and the name carries the `__Host-` prefix (set by the caller). */
  secure: boolean;
}

/**
 * A Set-Cookie value the page's scripts cannot read (HttpOnly), sent with same-site requests and top-level
 * navigations only (SameSite=Lax), for the whole site and no other host (Path=/, no Domain).
 */
export const setCookie = (name: string, value: string, { maxAge, secure }: CookieOptions): string =>
  `${name}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
