import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { ApiFailure, loadSession, type SessionInfo } from './api.js';

/** undefined while loading; the error when the site could not be asked. */
export type SessionState =
  | { state: 'loading' }
  | { state: 'ready'; session: SessionInfo }
  | { state: 'failed'; error: string };

export const SessionContext = createContext<SessionState>({ state: 'loading' });

export function useLoadedSession(): SessionState {
  const [state, setState] = useState<SessionState>({ state: 'loading' });
  useEffect(() => {
    loadSession()
      .then((session) => setState({ state: 'ready', session }))
      .catch((e: unknown) =>
        setState({ state: 'failed', error: e instanceof ApiFailure ? e.message : 'The site could not be reached.' }),
      );
  }, []);
  return state;
}

export const useSession = (): SessionState => useContext(SessionContext);
