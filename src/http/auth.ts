import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { ReplayMemory } from '../relay/replay.js';
import { isRelayed, type RelayIdentity, verifyRelay } from '../relay/signature.js';
import type { Route } from './router.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Compares a presented secret with the expected one in constant time. Both are hashed first so the
 * comparison takes the same time whatever their lengths, and the length of the secret does not leak.
 */
export function makeSecretCheck(secret: string): (presented: string | undefined) => boolean {
  const expected = digest(secret);
  return (presented) => presented !== undefined && timingSafeEqual(digest(presented), expected);
}

export interface RequestAuth {
  /**
   * Decides from the headers alone: lets a marketplace request through or refuses it (UNAUTHORIZED,
   * INVALID_INTERNAL_SIGNATURE on a relay-only route), and returns true for a request that carries the
   * relay headers, which `verifyRelayed` must check once its body (which the signature covers) is read.
   */
  admit(route: Route, headers: Readonly<Record<string, string>>): boolean;
  verifyRelayed(
    request: { method: string; pathWithQuery: string; headers: Readonly<Record<string, string>> },
    body: Uint8Array,
  ): Promise<RelayIdentity>;
}

/**
 * The engine's two ways in: the marketplace proxy secret (QR_PROXY_SECRET; none configured leaves the
 * service open on loopback) and the consumer site's signed relay (QR_INTERNAL_SECRET; none configured
 * refuses every relay). A request that carries relay headers is judged by its signature alone.
 */
export function makeRequestAuth(config: Config, replay: ReplayMemory): RequestAuth {
  const checkSecret = config.proxySecret === undefined ? undefined : makeSecretCheck(config.proxySecret);
  return {
    admit(route, headers) {
      if (isRelayed(headers)) return true;
      if (route.auth === 'relay')
        throw new ApiError('INVALID_INTERNAL_SIGNATURE', {
          message: 'This endpoint accepts only requests relayed by the consumer site.',
        });
      if (route.auth !== 'public' && checkSecret && !checkSecret(headers[config.proxySecretHeader]))
        throw new ApiError('UNAUTHORIZED');
      return false;
    },
    verifyRelayed: ({ method, pathWithQuery, headers }, body) =>
      verifyRelay({ secrets: config.internalSecrets, method, pathWithQuery, body, headers, replay }),
  };
}
