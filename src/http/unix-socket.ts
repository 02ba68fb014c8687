import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { socketPathProblem } from '../config.js';

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
