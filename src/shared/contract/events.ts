/**
 * Events the main side pushes to the renderer (IPC `vendesk:event`, or the web shell's
 * Server-Sent Events stream). Declared once here, in {@link events}: the payload type of each
 * event, the list of event names ({@link EVENT_NAMES}) and the typed emit/subscribe of main's
 * event bus and of the renderer's bridge all come from that one table. Every shell forwards them
 * unchanged.
 */
import type { BulkItemState, BulkJobState } from './bulk';
import type { AutoSyncView } from './logs';
import type { JobMessageState, MessageJobState } from './messaging';

export interface Progress {
  done: number;
  total: number | null;
  message?: string;
}

/**
 * What a `data.changed` event says changed, so the views that show it re-read. `connection`
 * means everything: a view of one connection's data never stays on screen under another.
 */
export const DATA_TOPICS = [
  'connection',
  'balance',
  'mirror',
  'catalog',
  'jobs',
  /** The team workspace's status and policy (Settings → Team, the policy line of Approvals). */
  'team',
  'bulk.settings',
  'pending',
  'purchases',
  'phonebooks',
  'templates',
  'messages',
  'reconcile',
  /** Standing orders and their occurrences (issue 40). */
  'standing',
  /** Closed months and the ledger account map (Month-end, Settings → Account map). */
  'monthEnd',
] as const;
export type DataTopic = (typeof DATA_TOPICS)[number];

/** What a switch of connection changes: every view re-reads (`connection`), and these with it. */
export const CONNECTION_SWITCH_TOPICS = ['connection', 'balance', 'mirror', 'catalog'] as const satisfies readonly DataTopic[];

/**
 * What buying anything changes (an electricity token, a cable bouquet, a top-up, a bulk row): the purchase (receipts, Pending
 * page), the wallet, and the log entry mirrored by its reference (Dashboard, Transactions). A bulk
 * job's purchases are background work and say the same through `app.invalidate`.
 */
export const PURCHASE_CHANGES = ['purchases', 'pending', 'balance', 'mirror'] as const satisfies readonly DataTopic[];

/** How an event is declared: what it means; its payload type rides along (phantom, like an operation's output). */
export interface EventDef<P> {
  readonly summary: string;
  /** Phantom: carries the payload type only. */
  readonly __payload?: P;
}

function event<P>(summary: string): EventDef<P> {
  return { summary };
}

/** Every event, by name, with its exact payload. */
export const events = {
  'sync.progress': event<Progress & { state: 'running' | 'done' | 'failed' | 'cancelled'; pages: number }>('Mirror sync through /logEntries.'),
  'sync.auto': event<AutoSyncView>('The automatic sync of the open app changed state (waiting, running, paused, off).'),
  'import.progress': event<Progress & { importId: string }>('A spreadsheet being read.'),
  'job.progress': event<Progress & { jobId: string; state: BulkJobState | 'pausing' | 'cancelling'; counts: Record<BulkItemState, number> }>(
    'A bulk job executing (pausing/cancelling: asked to stop, items in flight still finishing).',
  ),
  'pending.due': event<{ count: number }>('Pending purchases whose requery is due now.'),
  'reconcile.progress': event<Progress & { runId: string | null; stage: string }>('A reconciliation run.'),
  'contacts.progress': event<Progress & { phoneBookId: number }>('Contacts upload into a phonebook.'),
  'messaging.job.progress': event<Progress & { jobId: number; state: MessageJobState | 'pausing' | 'cancelling'; counts: Record<JobMessageState, number> }>(
    'A job of personalised messages sending (pausing/cancelling: asked to stop, the message in flight still finishing).',
  ),
  'standing.occurrence': event<{ orderId: string; orderName: string; scheduledDay: string; outcome: string; jobId: string | null; message: string }>(
    "A standing order's occurrence was bought, started, or waits (and why): what a window or the operating system may tell a person.",
  ),
  'data.changed': event<{ topics: DataTopic[]; reason: string }>(
    'Something changed that views should re-read (the topics say what). `reason` names the operation whose contract entry declares the topics (`invalidates`), or the background work that changed them (docs/architecture.md, "What tells the windows to re-read").',
  ),
} as const;

type PayloadOf<D> = D extends EventDef<infer P> ? P : never;

export type EventName = keyof typeof events;
export type EventMap = { [N in EventName]: PayloadOf<(typeof events)[N]> };

/** The names of every event, from the table above. */
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

/**
 * One event: its name and that event's payload. `AppEvent` alone is the union of every event, so
 * checking `event.name` narrows `event.payload` to that event's payload, with no cast.
 */
export type AppEvent<N extends EventName = EventName> = { [K in N]: { name: K; payload: EventMap[K] } }[N];
