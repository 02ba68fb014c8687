import { createContext } from 'preact';
import { useContext, useMemo } from 'preact/hooks';
import type { SessionJson } from '../../../src/wire/site.js';
import { loadSession } from './api.js';
import { useLoad } from './load.js';

/** Loading, then who is signed in, or the error when the site could not be asked. */
export type SessionState =
  | { state: 'loading' }
  | { state: 'ready'; session: SessionJson }
  | { state: 'failed'; error: string };

export const SessionContext = createContext<SessionState>({ state: 'loading' });

export function useLoadedSession(): SessionState {
  const { data, error } = useLoad(loadSession, []);
  return useMemo(
    () =>
      error !== undefined
        ? { state: 'failed', error: error.message }
        : data !== undefined
          ? { state: 'ready', session: data }
          : { state: 'loading' },
    [data, error],
  );
}

export const useSession = (): SessionState => useContext(SessionContext);
