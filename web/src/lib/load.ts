import { type Inputs, useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiFailure, asFailure } from './api.js';

export interface Loaded<T> {
  /** The last answer, kept while a reload runs so that a list does not blink away. */
  data: T | undefined;
  /** Why the last load failed; cleared by the next answer. */
  error: ApiFailure | undefined;
  loading: boolean;
  /** Asks again, as a change of `deps` does. */
  reload: () => void;
}

/**
 * Data a component shows, asked for when it mounts and again whenever `deps` change or `reload` is
 * called. A load still running when the next begins (or the component goes) is aborted, so an older
 * answer never overwrites a newer one.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: Inputs): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, error: asFailure(e), loading: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
