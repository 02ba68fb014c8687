import { useState } from 'preact/hooks';
import { type ApiFailure, asFailure } from './api.js';

/**
 * A form's submission: `busy` while `action` runs, the site's refusal kept in `failure` (cleared at each
 * new try). `submit` is the form's onSubmit.
 */
export function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiFailure>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (err) {
      setFailure(asFailure(err));
    }
    setBusy(false);
  };
  return { busy, failure, submit };
}
