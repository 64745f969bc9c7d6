import { useCallback, useState } from 'react';
import { AppError, asAppError } from '../bridge';

/**
 * The one way a window writes (or asks the service for something on a click): `busy` while its
 * call runs (for the button's spinner) and `error` when it failed (for an ErrorNotice). The error
 * stays on screen while the user tries again and goes once a call succeeds; `run` says whether it
 * did. Buttons that share one error place name their work (`run(work, 'export')`): `running` says
 * which one spins.
 */
export function useAction<K extends string = 'run'>() {
  const [running, setRunning] = useState<K | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const run = useCallback(async (work: () => Promise<unknown>, key?: K): Promise<boolean> => {
    setRunning(key ?? ('run' as K));
    try {
      await work();
      setError(null);
      return true;
    } catch (e) {
      setError(asAppError(e));
      return false;
    } finally {
      setRunning(null);
    }
  }, []);
  return { busy: running !== null, running, error, setError, run };
}
