import { useCallback, useState } from 'react';
import { AppError, asAppError } from '../bridge';

/**
 * What a button does with the service: `busy` while its call runs (for the button's spinner) and
 * `error` when it failed (for an ErrorNotice). The error stays on screen while the user tries
 * again and goes once a call succeeds; `run` says whether it did.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const run = useCallback(async (work: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    try {
      await work();
      setError(null);
      return true;
    } catch (e) {
      setError(asAppError(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
