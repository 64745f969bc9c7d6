import { useEffect, useRef, useState } from 'react';
import type { OperationName, OperationOutput } from '../../../shared/contract';
import { useAction } from './useAction';
import { useOperation } from './useOperation';

type NoInputOperation = { [N in OperationName]: Record<string, never> extends Parameters<typeof useOperation<N>>[1] ? N : never }[OperationName];

/**
 * A settings form: reads the settings in use with `read` (again when what it shows changes:
 * READ_TOPICS), fills the
 * fields with `fill`, saves through useAction and keeps what was saved (for the "Saved." line).
 * `error` is the read's or the save's.
 */
export function useSettingsForm<R extends NoInputOperation, S>(read: R, fill: (settings: OperationOutput<R>) => void) {
  const current = useOperation(read, {} as Parameters<typeof useOperation<R>>[1]);
  const [saved, setSaved] = useState<S | null>(null);
  const { busy, error, run } = useAction();
  const fillRef = useRef(fill);
  fillRef.current = fill;
  useEffect(() => {
    if (current.data) fillRef.current(current.data);
  }, [current.data]);
  const save = (write: () => Promise<S>) => run(async () => setSaved(await write()));
  return { saved, busy, error: error ?? current.error, save };
}
