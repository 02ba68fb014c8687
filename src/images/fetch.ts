import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { ApiError } from '../errors.js';
import type { RenderAssets } from '../model/render-config.js';
import { isAllowedAddress } from './address.js';
import { sniffImageType, MAX_IMAGE_BYTES } from './sniff.js';

export interface FetchPolicy {
  /** Test setting (QR_FETCH_ALLOW_LOOPBACK): admits 127/8 and ::1, and no other refused address. */
  allowLoopback: boolean;
  /** For the whole fetch: name resolution, every redirect, the body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const FETCH_POLICY: FetchPolicy = {
  allowLoopback: false,
  timeoutMs: 5000,
  maxBytes: MAX_IMAGE_BYTES,
  maxRedirects: 3,
};

/** A refusal whose message is safe to show the client: it names no address and no internal error. */
class Refused extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Rejects when the signal aborts: the system resolver cannot be cancelled, only stopped waiting for. */
const whenAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    signal.throwIfAborted();
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/**
 * The addresses a host name stands for, every one of them allowed. A name with any refused address is
 * refused whole: which one a connection would pick is not ours to predict.
 */
async function vettedAddresses(
  hostname: string,
  policy: FetchPolicy,
  signal: AbortSignal,
): Promise<dns.LookupAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: dns.LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await Promise.race([dns.promises.lookup(host, { all: true, verbatim: true }), whenAborted(signal)]);
    } catch (e) {
      if (signal.aborted) throw e;
      throw new Refused('the host name does not resolve');
    }
  }
  if (addresses.length === 0 || !addresses.every((a) => isAllowedAddress(a.address, policy.allowLoopback))) {
    throw new Refused('its address is private, loopback, link-local or reserved');
  }
  return addresses;
}

/** Answers the connection's own name lookup with the addresses already vetted, so a DNS rebind cannot swap them. */
const pinnedLookup =
  (addresses: dns.LookupAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };

type Hop = { redirect: URL } | { bytes: Uint8Array };

/** One request: vetted and pinned address, no redirect followed, the body read up to maxBytes. */
async function hop(url: URL, policy: FetchPolicy, signal: AbortSignal): Promise<Hop> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused('only http and https URLs are fetched');
  if (url.username || url.password) throw new Refused('URLs with credentials are not fetched');
  const addresses = await vettedAddresses(url.hostname, policy, signal);
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses) } });
  try {
    const res = await request(url, {
      dispatcher: agent,
      signal,
      headers: { accept: 'image/*', 'user-agent': 'qrfarm-image-fetch' },
    });
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string') return { redirect: new URL(location, url) };
    if (res.statusCode !== 200) throw new Refused(`the server answered HTTP ${res.statusCode}`);
    const tooLarge = () => new Refused(`the file is larger than ${policy.maxBytes / 1048576} MB`);
    if (Number(res.headers['content-length']) > policy.maxBytes) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > policy.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(Buffer.concat(chunks));
    if (!sniffImageType(bytes)) throw new Refused('it is not a PNG, JPG, GIF, BMP or WebP image');
    return { bytes };
  } finally {
    // Closes the socket whatever state the body is in; the next hop gets its own pinned agent.
    await agent.destroy();
  }
}

/**
 * Fetches a logo or background image on the main thread, before the render is queued. Every hop (at most
 * `maxRedirects` redirects) is re-checked: http(s) only, every address of the host public (isAllowedAddress),
 * the connection pinned to the vetted addresses. The whole fetch has `timeoutMs`; the body is cut off past
 * `maxBytes`; the bytes must be an accepted image type. Any failure is INVALID_FIELD_VALUE naming `field`.
 */
export async function fetchImage(
  url: string,
  field: string,
  policy: FetchPolicy,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const fail = (why: string) =>
    new ApiError('INVALID_FIELD_VALUE', { message: `${field} could not be fetched: ${why}.`, field });
  try {
    let target = new URL(url);
    for (let redirects = 0; ; redirects++) {
      const next = await hop(target, policy, abort);
      if ('bytes' in next) return next.bytes;
      if (redirects === policy.maxRedirects) throw new Refused(`more than ${policy.maxRedirects} redirects`);
      target = next.redirect;
    }
  } catch (e) {
    if (e instanceof Refused) throw fail(e.message);
    if (timeout.aborted) throw fail(`no complete answer within ${policy.timeoutMs / 1000} s`);
    throw fail('the server could not be reached or broke off');
  }
}

/** URL fields and the assets they fill; the same image may come from one source only. */
const URL_FIELDS = { logo: 'logoUrl', background: 'backgroundImageUrl' } as const;

/**
 * Fetches `logoUrl` and `backgroundImageUrl` of a validated body into `assets`, both at once; when one
 * fails the other is abandoned.
 */
export async function addRemoteAssets(
  fields: Record<string, unknown>,
  assets: RenderAssets,
  policy: FetchPolicy,
  signal?: AbortSignal,
): Promise<RenderAssets> {
  // Most requests name no image: they skip the signals below, which cost microseconds each.
  if (Object.values(URL_FIELDS).every((field) => typeof fields[field] !== 'string')) return assets;
  const controller = new AbortController();
  const abort = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  await Promise.all(
    (Object.entries(URL_FIELDS) as [keyof typeof URL_FIELDS, string][]).map(async ([file, field]) => {
      const url = fields[field];
      if (typeof url !== 'string') return;
      if (assets[file])
        throw new ApiError('INVALID_FIELD_VALUE', {
          message: `Send the ${file} once: as a file, as base64 or as ${field}.`,
          field,
        });
      try {
        assets[file] = await fetchImage(url, field, policy, abort);
        assets.fields = { ...assets.fields, [file]: field };
      } catch (e) {
        controller.abort();
        throw e;
      }
    }),
  );
  return assets;
}
