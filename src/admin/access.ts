import { ApiError } from '../errors.js';
import { isLoopbackAddress } from '../http/address.js';
import { makeSecretCheck } from '../http/auth.js';
// The modules themselves rather than the store's index: the CLI reads the token without loading the drivers.
import { isMemoryDataDir, readDataDirSecret, replaceSecret } from '../store/data-dir.js';
import { ACCOUNTS_PGLITE, announceAdminPort, MARKETPLACE_PGLITE } from '../store/data-dir-lock.js';

/** Whose admin API: its token's file in the data directory (mode 0600), and the PGlite directory it holds. */
export interface AdminApiFiles {
  tokenFile: string;
  database: string;
}

/** The site's admin API: the account store's commands. */
export const SITE_ADMIN: AdminApiFiles = { tokenFile: 'admin-token', database: ACCOUNTS_PGLITE };
/** The engine's admin API: the usage export of its metering store. */
export const ENGINE_ADMIN: AdminApiFiles = { tokenFile: 'engine-admin-token', database: MARKETPLACE_PGLITE };

export { isLoopbackAddress };

export interface AdminRequestOrigin {
  /** The client's address as the server saw it (uWS: `res.getRemoteAddressAsText()`). */
  remoteAddress: string;
  /** The Authorization header: `Bearer <token>`. */
  authorization: string | undefined;
}

export interface AdminAccess {
  /** Throws admin_loopback_only (403) or invalid_admin_token (401) unless the request may use the admin API. */
  check(origin: AdminRequestOrigin): void;
}

/**
 * Opens the admin API of a server (a site, or an engine) that listens on `port`: a fresh token for this
 * run is written to the data directory (mode 0600; only who can read that directory can use the API),
 * then the port is recorded in the lock of the PGlite directory it holds, so the CLI goes through this
 * server rather than opening the directory. Call it once the server listens. With a memory:// data
 * directory there is nowhere to keep a token: closed.
 *
 * Loopback is a second fence, not the guard: a reverse proxy on the same host makes every request
 * loopback, so it should not forward /admin/.
 */
export function openAdminAccess(dataDir: string, port: number, files: AdminApiFiles = SITE_ADMIN): AdminAccess {
  if (isMemoryDataDir(dataDir)) return { check: () => refuseToken() };
  const tokenMatches = makeSecretCheck(replaceSecret(dataDir, files.tokenFile));
  announceAdminPort(dataDir, port, files.database);
  return {
    check({ remoteAddress, authorization }) {
      if (!isLoopbackAddress(remoteAddress)) throw new ApiError('admin_loopback_only');
      const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
      if (!tokenMatches(token)) refuseToken();
    },
  };
}

function refuseToken(): never {
  throw new ApiError('invalid_admin_token', { headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** The running server's admin token, for the CLI. */
export const readAdminToken = (dataDir: string, files: AdminApiFiles = SITE_ADMIN): string =>
  readDataDirSecret(dataDir, files.tokenFile);
