/**
 * The local mirror of the vending log: sync from the service and the Transactions table (a window
 * of rows for a filter and a sort, totals, one row, export). Money is integer kobo; times are UTC
 * ISO-8601; the days of a filter are Lagos days (src/shared/localDates.ts). The catalogs are in `catalog.ts`, the Dashboard in `dashboard.ts`.
 */
import { z } from 'zod';
import { op } from './define';
import type { ExportedFile } from './files';

export type MirrorStatus = 'SUCCESS' | 'FAILED' | 'PENDING';
export type MirrorType = 'AIRTIME' | 'DATA' | 'ELECTRICITY' | 'CABLETV';

export interface MirrorRow {
  /** Local key of the row (stable; used for the detail panel). */
  rowid: number;
  id: number;
  transactionId: string;
  partnerReference: string;
  phoneNumber: string;
  amountKobo: number;
  costKobo: number;
  commissionKobo: number;
  type: MirrorType;
  network: string;
  operator: string;
  region: string;
  description: string;
  dataPlan: string;
  status: MirrorStatus;
  time: string;
  createdAt: string;
  updatedAt: string;
  syncedAt: string;
}

/** A row as the Transactions table and its detail show it: with the cost centre it is charged to (docs/cost-centres.md). */
export interface LogRowView extends MirrorRow {
  costCentre: string;
  /** `purchase`: kept on vendesk's own purchase; `recipient`: the recipients list; `unassigned`: neither. */
  costCentreSource: 'purchase' | 'recipient' | 'unassigned';
  /** vendesk bought it (its cost centre can be changed: `costCentres.change`). */
  vendeskPurchase: boolean;
}

/**
 * The figures of a filter. Spend is what left the wallet: face value, wallet cost and commission
 * count successful and pending purchases; FAILED ones were refunded and are stated apart.
 */
export interface LogTotals {
  /** Every matching row (the table's length), refunded purchases included. */
  count: number;
  amountKobo: number;
  costKobo: number;
  commissionKobo: number;
  /** The FAILED purchases among them: `costKobo` is what the wallet got back (the log's cost). */
  refunded: { count: number; amountKobo: number; costKobo: number };
}

/** The filter choices present in a connection's mirror. */
export interface LogFacets {
  /** Per type present (in the order airtime, data, electricity, cable TV): its networks or providers as the log writes them (MTN, IKEDC, SHOWMAX), sorted. */
  networks: { type: MirrorType; networks: string[] }[];
  statuses: MirrorStatus[];
}

export interface SyncResult {
  fetched: number;
  inserted: number;
  updated: number;
  pages: number;
  /** Records the service reported for the range when the run started. */
  totalRecords: number | null;
  startdate: string | null;
  enddate: string | null;
  /** The run continued one that a crash or a cancel had left half-way. */
  resumed: boolean;
  balanceKobo: number | null;
  finishedAt: string;
}

/** How the open app syncs by itself (the header shows it). */
export interface AutoSyncView {
  /**
   * `off`: the setting is 0 (or this shell does not sync by itself, the CLI); `waiting`: the next
   * sync is at `nextAt`; `running`: a sync runs (started by the schedule or by hand);
   * `paused`: the service did not answer — tried again at `nextAt`, or as soon as it answers.
   */
  state: 'off' | 'waiting' | 'running' | 'paused';
  everyMinutes: number;
  nextAt: string | null;
  /** When the last sync (by the schedule or by hand) finished. */
  lastAt: string | null;
  /** Why it is paused (the service's error, in a sentence). */
  reason: string | null;
  /** The last sync failed after `lastAt` (by the schedule, by hand or from the CLI): the header says so, not "Synced". */
  lastFailure: SyncFailure | null;
}

/** Settings of the sync (Settings → Sync). */
export interface SyncSettingsView {
  /** The open app syncs the recent days this often; 0 = never by itself. */
  autoSyncMinutes: number;
  /** Pages of the log requested at once. */
  concurrency: number;
  /** Requests a second at most. */
  maxRequestsPerSecond: number;
}

/** A sync that failed after the last one that finished (whoever ran it: a window, the automatic sync, the CLI). */
export interface SyncFailure {
  /** When it stopped (this computer's clock, as `lastFinishedAt`). */
  at: string;
  message: string;
  hint?: string;
}

export interface SyncStatus {
  running: boolean;
  progress: { done: number; total: number | null; pages: number } | null;
  lastFinishedAt: string | null;
  lastResult: SyncResult | null;
  /** A run was left half-way (crash or cancel); the next sync continues it. */
  interrupted: boolean;
  lastError: { message: string; hint?: string } | null;
  /** The last sync failed, after `lastFinishedAt`: what the mirror shows was read up to then. */
  lastFailure: SyncFailure | null;
  entries: number;
  auto: AutoSyncView;
}

/** Lagos days `from`…`to`, both included. */
export interface DayRange {
  from: string;
  to: string;
  days: number;
}

/**
 * What the mirror holds of a range of Lagos days (src/main/transactions/logCoverage.ts). A day
 * before today is read when every page of both UTC dates it overlaps was read after it ended;
 * today is still growing: it counts as read once a sync read it after it began, up to
 * `todayReadThrough`. Days after today (on the service's clock) have not come yet: nothing is
 * missing from them, and nothing can be read.
 */
export interface MirrorCoverage {
  /** The first Lagos day asked about; null: from the start of the log. */
  from: string | null;
  /** The last Lagos day asked about (today when none was given). */
  to: string;
  /** Today, a Lagos day on the service's clock. */
  today: string;
  /** Nothing is missing: every day of the range up to today is read (today: up to `todayReadThrough`). */
  complete: boolean;
  /** The days up to today that were never read completely, in order. */
  missing: DayRange[];
  /** No start was given and the log was never read from its beginning (a first sync over a range only). */
  wholeLogUnread: boolean;
  /** When the range holds today: the instant up to which today is in the mirror (service clock), or null. */
  todayReadThrough: string | null;
  /** The days of the range after today, if any. */
  notYet: DayRange | null;
  /** What reading first reads (a `sync.run` input): from the first missing day to the last (`{}`: the whole log); null: nothing is missing. */
  read: { from?: string; to?: string } | null;
  /** The command that reads the missing days: `vendesk sync --from … --to …` (or `vendesk sync` for the whole log); null when none are. */
  syncCommand: string | null;
}

/**
 * What a report, listing or export over a range does about days the mirror has not read:
 * `read` them from the service first (and today, which is still growing), or `refuse`
 * (`days_unread`, naming the days and the sync that reads them). It never counts a range silently
 * short.
 */
export const unreadDaysSchema = z.enum(['read', 'refuse']);
export type UnreadDays = z.infer<typeof unreadDaysSchema>;

/** What the days are read for: it names what was not done in a refusal ("The spend report was not written: …"). */
export const readPurposeSchema = z.enum(['report', 'listing', 'export', 'reconciliation', 'closePack', 'journal', 'close']);
export type ReadPurpose = z.infer<typeof readPurposeSchema>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Write dates as YYYY-MM-DD');

const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** What a From date after the To date is told, in the window, the CLI and the contract alike. */
export function reversedDatesMessage(from: string, to: string): string {
  const label = (d: string) => (Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ? d : dayLabel.format(new Date(`${d}T00:00:00Z`)));
  return `The From date ${label(from)} is after the To date ${label(to)}. Swap them, or change one of them.`;
}

export const logFilterSchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    status: z.enum(['SUCCESS', 'FAILED', 'PENDING']).optional(),
    type: z.enum(['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV']).optional(),
    network: z.string().trim().max(40).optional(),
    search: z.string().trim().max(60).optional(),
    /** A cost centre as Transactions shows it (`Unassigned`: entries charged to none): docs/cost-centres.md. */
    costCentre: z.string().trim().min(1).max(100).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.from && f.to && f.from > f.to) ctx.addIssue({ code: 'custom', message: reversedDatesMessage(f.from, f.to), path: ['from'] });
  });
export type LogFilter = z.infer<typeof logFilterSchema>;

export const logSortSchema = z.enum(['time_desc', 'time_asc', 'amount_desc', 'amount_asc']);
export type LogSort = z.infer<typeof logSortSchema>;

/**
 * A sync is background work however it starts (these operations, the automatic sync): the sync
 * itself says what it wrote when it stops (`mirror`, and `balance` once done), so the operations
 * that start, wait for or stop one declare nothing of their own.
 */
export const logsOperations = {
  'sync.start': op(
    z.object({ from: day.optional(), to: day.optional() }),
    'Start syncing the vending log into the mirror (runs in the background; progress as sync.progress events)',
    { invalidates: [] },
  ).returns<{ started: boolean; running: boolean }>(),
  'sync.run': op(z.object({ from: day.optional(), to: day.optional() }), 'Sync the vending log into the mirror and wait for the result', { invalidates: [] }).returns<SyncResult>(),
  'sync.cancel': op(z.object({}), 'Stop the sync in progress; the next sync continues where it stopped', { invalidates: [] }).returns<{ cancelled: boolean }>(),
  'sync.status': op(z.object({}), 'Whether a sync runs, its progress, the last result and the automatic sync').returns<SyncStatus>(),
  'sync.settings.get': op(z.object({}), 'How often the open app syncs by itself, and how many pages a sync requests at once').returns<SyncSettingsView>(),
  'sync.settings.set': op(
    z.object({
      autoSyncMinutes: z.number().int().min(0).max(1440).optional(),
      concurrency: z.number().int().min(1).max(32).optional(),
      maxRequestsPerSecond: z.number().int().min(1).max(1000).optional(),
    }),
    'Change how often the open app syncs by itself (0: never) and the pace of a sync',
    // The automatic sync announces its new schedule itself (`sync.auto`).
    { invalidates: [] },
  ).returns<SyncSettingsView>(),
  'logs.query': op(
    z.object({
      filter: logFilterSchema.default({}),
      sort: logSortSchema.default('time_desc'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(100),
    }),
    'A window of mirror rows for a filter and a sort',
  ).returns<{ offset: number; rows: LogRowView[] }>(),
  'logs.totals': op(z.object({ filter: logFilterSchema.default({}) }), 'Count and sums (amount, cost, commission) of the mirror rows for a filter').returns<LogTotals>(),
  'logs.facets': op(z.object({}), 'The filter choices present in the mirror of this connection: networks and providers per type, and statuses').returns<LogFacets>(),
  'logs.get': op(z.object({ rowid: z.number().int().positive() }), 'One mirror row').returns<LogRowView>(),
  'logs.export': op(
    z.object({
      filter: logFilterSchema.default({}),
      sort: logSortSchema.default('time_desc'),
      format: z.enum(['xlsx', 'csv']),
      /** A filter with From or To: read the days the mirror lacks first (default), or refuse. */
      unread: unreadDaysSchema.default('read'),
    }),
    'Write the filtered mirror rows to an XLSX or CSV file (over days the mirror has not read: read them first, or refuse)',
  ).returns<ExportedFile & { totals: LogTotals; coverage: MirrorCoverage | null }>(),
  'logs.coverage': op(
    z
      .object({
        from: day.optional(),
        to: day.optional(),
        /** Ask the service its time first when this process has not heard it yet (a fresh command that may go online). */
        ask: z.boolean().default(false),
      })
      .superRefine((r, ctx) => {
        if (r.from && r.to && r.from > r.to) ctx.addIssue({ code: 'custom', message: reversedDatesMessage(r.from, r.to), path: ['from'] });
      }),
    'Which Lagos days of a range the mirror has read from the service, which it has not, and how far today is read',
  ).returns<MirrorCoverage>(),
  'logs.readMissing': op(
    z.object({ from: day.optional(), to: day.optional(), unread: unreadDaysSchema.default('read'), for: readPurposeSchema.default('listing') }).superRefine((r, ctx) => {
      if (r.from && r.to && r.from > r.to) ctx.addIssue({ code: 'custom', message: reversedDatesMessage(r.from, r.to), path: ['from'] });
    }),
    'Read the days of a range the mirror has not read (and today), or refuse naming them: what a report does first',
    // A sync announces what it wrote itself.
    { invalidates: [] },
  ).returns<MirrorCoverage>(),
} as const;
