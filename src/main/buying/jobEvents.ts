/**
 * What bulk work outside an operation tells the windows, one function per kind: a job's items or
 * state changed (a runner started or stopped on an error, a follow-up or the purchases settled
 * items), or a job finished sending (its items, the wallet and the log changed). Operations
 * declare what they change in the contract (`invalidates`, contract/bulk.ts) instead. Both go
 * through `App.invalidate`, the one place that emits `data.changed`.
 */
import type { DataTopic } from '../../shared/contract/events';

export type Invalidate = (topics: readonly DataTopic[], reason: string) => void;

export function jobsChanged(invalidate: Invalidate, reason = 'a bulk job changed'): void {
  invalidate(['jobs'], reason);
}

export function jobFinished(invalidate: Invalidate): void {
  invalidate(['jobs', 'balance', 'mirror'], 'a bulk job finished sending');
}
