/**
 * What a window showing a read operation's answer waits for: the `data.changed` topics that
 * change it (the writes' side is each operation's `invalidates`, beside it in the contract). The
 * renderer's `useOperation` reads an operation named here again when one of its topics changes,
 * and always when the connection changes (`[]`: only then); one not named here is read when it is
 * shown. Kept apart from the operations' table so the windows take it without zod.
 */
import type { DataTopic } from './topics';
import type { OperationName } from './index';

export const READ_TOPICS = {
  'account.balance': ['balance'],
  'dashboard.summary': ['mirror', 'balance', 'pending', 'jobs'],
  'dashboard.costCentres': ['mirror', 'jobs'],
  'sync.status': ['mirror'],
  'sync.settings.get': [],
  'bulk.list': ['jobs'],
  'bulk.settings.get': ['bulk.settings'],
  'purchases.recent': ['purchases', 'pending'],
  'purchases.recentTopUps': ['jobs'],
  'reconcile.runs': ['reconcile'],
  'monthEnd.months': ['monthEnd', 'mirror'],
  'monthEnd.summary': ['monthEnd', 'mirror'],
  'accounts.list': ['monthEnd'],
  'accounts.check': ['monthEnd', 'mirror'],
  'costCentres.inUse': ['mirror', 'jobs'],
  'costCentres.purchase': ['mirror', 'jobs', 'monthEnd'],
  'logs.totals': ['mirror'],
  'logs.facets': ['mirror'],
  'logs.coverage': ['mirror'],
  'pending.list': ['pending', 'purchases'],
  'pending.count': ['pending', 'purchases'],
  'team.status': ['team'],
  'approvals.list': ['jobs'],
  'messaging.senderIds': [],
  'messaging.templates.list': ['templates'],
  'messaging.phonebooks.list': ['phonebooks'],
  'messaging.phonebooks.get': ['phonebooks'],
  'messaging.history': ['messages'],
  // An order's last runs show their jobs' progress: a job moving changes them too.
  'standing.list': ['standing', 'jobs'],
  'standing.show': ['standing', 'jobs'],
  'messaging.jobs.list': ['messages'],
  'messaging.jobs.get': ['messages'],
} as const satisfies { readonly [N in OperationName]?: readonly DataTopic[] };

/** The topics a window showing `name` re-reads on, or null when it reads it once. */
export function readTopicsOf(name: OperationName): readonly DataTopic[] | null {
  return (READ_TOPICS as { readonly [N in OperationName]?: readonly DataTopic[] })[name] ?? null;
}
