/**
 * Events the main side pushes to the renderer (IPC `vendesk:event`, or the web shell's
 * Server-Sent Events stream). Declared once here; every shell forwards them unchanged.
 */
import type { AutoSyncView } from './logs';

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
  'bulk.settings',
  'pending',
  'purchases',
  'phonebooks',
  'templates',
  'messages',
  'reconcile',
] as const;
export type DataTopic = (typeof DATA_TOPICS)[number];

/** What a switch of connection changes: every view re-reads (`connection`), and these with it. */
export const CONNECTION_SWITCH_TOPICS = ['connection', 'balance', 'mirror', 'catalog'] as const satisfies readonly DataTopic[];

export interface EventMap {
  /** Mirror sync through /logEntries. */
  'sync.progress': Progress & { state: 'running' | 'done' | 'failed' | 'cancelled'; pages: number };
  /** The automatic sync of the open app changed state (waiting, running, paused, off). */
  'sync.auto': AutoSyncView;
  /** A spreadsheet being read. */
  'import.progress': Progress & { importId: string };
  /** A bulk job executing. */
  'job.progress': Progress & {
    jobId: string;
    state: string;
    counts: Record<string, number>;
  };
  /** Pending purchases whose requery is due now. */
  'pending.due': { count: number };
  /** A reconciliation run. */
  'reconcile.progress': Progress & { runId: string | null; stage: string };
  /** Contacts upload into a phonebook. */
  'contacts.progress': Progress & { phoneBookId: number };
  /**
   * Something changed that lists should re-read (balance, mirror, jobs, pending). `reason` names
   * the operation whose contract entry declares the topics (`invalidates`), or the background
   * work that changed them (see docs/architecture.md, "What tells the windows to re-read").
   */
  'data.changed': { topics: DataTopic[]; reason: string };
}

export type EventName = keyof EventMap;
export interface AppEvent<N extends EventName = EventName> {
  name: N;
  payload: EventMap[N];
}
