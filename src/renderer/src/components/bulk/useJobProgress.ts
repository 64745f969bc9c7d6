import { useEffect, useRef } from 'react';
import { bridge } from '../../bridge';

/**
 * Calls `fn` while a bulk job reports progress (`job.progress`): for one job, or for any when
 * `jobId` is null; at most once every `everyMs`, a last time after the last event. A view that
 * shows a job this way follows it without a manual refresh.
 */
export function useJobProgress(jobId: string | null, everyMs: number, fn: () => void): void {
  const fnRef = useRef(fn);
  fnRef.current = fn;
  useEffect(() => {
    let timer: number | null = null;
    const off = bridge.on('job.progress', (p) => {
      if ((jobId !== null && p.jobId !== jobId) || timer !== null) return;
      timer = window.setTimeout(() => {
        timer = null;
        fnRef.current();
      }, everyMs);
    });
    return () => {
      off();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, [jobId, everyMs]);
}
