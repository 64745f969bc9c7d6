import { useCallback, useEffect, useRef, useState } from 'react';
import type { OperationInput, OperationName, OperationOutput } from '../../../shared/contract';
import type { DataTopic } from '../../../shared/contract/events';
import { readTopicsOf } from '../../../shared/contract/readTopics';
import { AppError, asAppError, bridge } from '../bridge';

export interface OperationState<T> {
  data: T | undefined;
  error: AppError | null;
  loading: boolean;
  reload: () => Promise<void>;
}

/**
 * Calls an operation when the component shows and whenever `input` changes (compared as JSON);
 * keeps the last data while reloading so tables do not flash empty. An operation the contract
 * says shows something that changes (`READ_TOPICS`, shared/contract/readTopics.ts) is read again
 * when the main side says one of its topics changed, and when the connection changed.
 */
export function useOperation<N extends OperationName>(name: N, input: OperationInput<N>, options: { enabled?: boolean } = {}): OperationState<OperationOutput<N>> {
  const [data, setData] = useState<OperationOutput<N> | undefined>(undefined);
  const [error, setError] = useState<AppError | null>(null);
  const [loading, setLoading] = useState(false);
  const key = JSON.stringify(input);
  const seq = useRef(0);
  const enabled = options.enabled ?? true;

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const value = await bridge.call(name, JSON.parse(key) as OperationInput<N>);
      if (mine === seq.current) {
        setData(value);
        setError(null);
      }
    } catch (e) {
      if (mine === seq.current) setError(asAppError(e));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [name, key]);

  useEffect(() => {
    if (enabled) void reload();
  }, [reload, enabled]);

  useEffect(() => {
    const topics = readTopicsOf(name);
    if (!topics || !enabled) return undefined;
    const wanted = new Set<string>([...topics, 'connection']);
    return bridge.on('data.changed', (p) => {
      if (p.topics.some((t) => wanted.has(t))) void reload();
    });
  }, [name, reload, enabled]);

  return { data, error, loading, reload };
}

/**
 * Re-runs `fn` whenever the main side says one of `topics` changed, and always when the
 * connection changed: nothing of one connection stays on screen under another.
 */
export function useDataChanged(topics: DataTopic[], fn: () => void): void {
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const key = topics.join(',');
  useEffect(() => {
    const wanted = new Set<string>([...key.split(','), 'connection']);
    return bridge.on('data.changed', (p) => {
      if (p.topics.some((t) => wanted.has(t))) fnRef.current();
    });
  }, [key]);
}
