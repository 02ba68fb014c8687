import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { isAbsolute } from 'node:path';

/**
 * Longest path a Unix socket address holds on Linux: sun_path is 108 bytes with its terminating zero. uWS
 * copies the path into it unchecked, so a longer one must never reach it.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

/** How an engine reached through a Unix socket is named (QR_ENGINE_URL): `unix:/run/qrfarm/engine.sock`. */
export const UNIX_SCHEME = 'unix:';

/** The socket path of a `unix:` engine address; undefined for an http(s) origin. */
export const socketPathOf = (address: string): string | undefined =>
  address.startsWith(UNIX_SCHEME) ? address.slice(UNIX_SCHEME.length) : undefined;

/** Why `path` cannot name a Unix socket to listen on or connect to; undefined when it can. */
export function socketPathProblem(path: string): string | undefined {
  if (!isAbsolute(path)) return `a Unix socket path must be absolute, got "${path}"`;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES)
    return `a Unix socket path holds at most ${MAX_SOCKET_PATH_BYTES} bytes, "${path}" has ${Buffer.byteLength(path)}`;
  return undefined;
}

/**
 * Whether a process listens on the socket at `path`: a refused connection says nobody does; anything else
 * (a socket of another user's that this one may not connect to, say) is not taken as a no.
 */
function listenedOn(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNREFUSED' ? resolve(false) : reject(new Error(`${path} cannot be checked: ${e.code}`)),
    );
  });
}

/**
 * Makes `path` free for a listening socket. uWS unlinks whatever is there before it binds, so this is
 * where a mistake is caught: a file that is not a socket is refused, and so is a socket another process
 * still listens on; a socket left by a process that ended without closing it is removed.
 */
export async function freeSocketPath(path: string): Promise<void> {
  const problem = socketPathProblem(path);
  if (problem !== undefined) throw new Error(problem);
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (!isSocket) throw new Error(`${path} exists and is not a Unix socket: refusing to replace it`);
  if (await listenedOn(path)) throw new Error(`${path} is in use: another process listens on it`);
  unlinkSync(path);
}

/**
 * A socket file just bound: readable and writable by this user only (the site of the same process tree
 * runs as the same user; anyone else on the host has no business on it), whatever the umask made it.
 */
export const restrictSocket = (path: string): void => chmodSync(path, 0o600);

/** Removes the socket file at close; one already gone is no error. */
export function removeSocket(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
