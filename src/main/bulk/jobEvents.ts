/**
 * What bulk work outside an operation tells the windows, one function per kind: a job's items or
 * state changed (a runner started or stopped on an error, a follow-up or the purchases settled
 * items), or a job finished sending (its items, the wallet and the log changed). Operations
 * declare what they change in the contract (`invalidates`, contract/bulk.ts) instead.
 */
import type { EventBus } from '../eventBus';

export function jobsChanged(events: EventBus): void {
  events.emit('data.changed', { topics: ['jobs'] });
}

export function jobFinished(events: EventBus): void {
  events.emit('data.changed', { topics: ['jobs', 'balance', 'mirror'] });
}
