/**
 * Reconciliation of a vendor-exported transaction log against the local mirror, vendesk's own
 * purchases and the wallet's balance snapshots; saved runs, their items, and Excel reports.
 * Amounts are integer kobo; times are UTC ISO-8601.
 */
import { z } from 'zod';
import { op } from './define';
import { fileRefSchema, type ExportedFile } from './files';
import { REQUERY_CHANGES } from './pending';
import { unreadDaysSchema } from './logs';

/** Every category a run reports, in the order the Summary shows them. */
export const RECONCILE_CATEGORIES = [
  'matched',
  'missingLocally',
  'missingInExport',
  'amountMismatch',
  'statusMismatch',
  'pending',
  'lostSubmissions',
  'duplicateCharges',
  'missingRefunds',
] as const;
export type ReconcileCategory = (typeof RECONCILE_CATEGORIES)[number];

/** Categories that need someone to look (everything but `matched`). */
export const EXCEPTION_CATEGORIES = RECONCILE_CATEGORIES.filter((c) => c !== 'matched') as Exclude<ReconcileCategory, 'matched'>[];

export const CATEGORY_LABELS: Record<ReconcileCategory, string> = {
  matched: 'Matched',
  missingLocally: 'In the export, not in the local mirror',
  missingInExport: 'In the local mirror, not in the export',
  amountMismatch: 'Amount or cost differs',
  statusMismatch: 'Status differs',
  pending: 'Pending or unresolved',
  lostSubmissions: 'Lost submissions',
  duplicateCharges: 'Duplicate charges',
  missingRefunds: 'Missing refunds',
};

/** Short names for sheets, tabs and cards. */
export const CATEGORY_SHORT_LABELS: Record<ReconcileCategory, string> = {
  matched: 'Matched',
  missingLocally: 'Missing locally',
  missingInExport: 'Missing in export',
  amountMismatch: 'Amount mismatch',
  statusMismatch: 'Status mismatch',
  pending: 'Pending',
  lostSubmissions: 'Lost submissions',
  duplicateCharges: 'Duplicate charges',
  missingRefunds: 'Missing refunds',
};

/** Which rule paired an export row with a mirror entry (or a vendesk purchase with a log entry). */
export type MatchRule = 'transaction_id' | 'id' | 'phone_amount_time';

export interface CategoryTotal {
  count: number;
  /** Sum of the amounts of the category's items, kobo. */
  amountKobo: number;
}

/**
 * The wallet for the range: opening snapshot − charges + refunds against the closing snapshot.
 * `differenceKobo` = closing − expected; what the missing refunds explain is shown apart, and
 * the rest is `unexplainedKobo` (positive: more money than expected, e.g. a top-up).
 */
export interface RollForward {
  available: boolean;
  /** Why the roll-forward could not be made (no snapshots in the range, …). */
  note: string | null;
  openingAt: string | null;
  openingKobo: number | null;
  closingAt: string | null;
  closingKobo: number | null;
  /** Cost of purchases that succeeded, debited in the window. */
  successfulSpendKobo: number;
  /** Cost of purchases still pending (debited, not settled). */
  pendingSpendKobo: number;
  /** Cost of purchases that failed, debited in the window. */
  failedDebitsKobo: number;
  /** Refunds of failed purchases expected in the window (their cost). */
  refundsKobo: number;
  /** vendesk's own SMS, email copies and one-time codes charged in the window (from its send records). */
  messagingKobo: number;
  /** How many such charges. */
  messagingCharges: number;
  /** Of those, how many are at the quoted cost: the service's answer did not say what it charged. */
  messagingAsQuoted: number;
  expectedClosingKobo: number | null;
  differenceKobo: number | null;
  /** Part of the difference explained by refunds that never showed in the balance (negative). */
  missingRefundsKobo: number;
  unexplainedKobo: number | null;
  /**
   * Movements within a second of a balance reading (or messages whose answer was lost) that the
   * clock alone could not place before or after it: placed the way that makes the figures agree.
   */
  placedByBalance: number;
  snapshots: number;
}

export interface ReconcileParameters {
  from: string;
  to: string;
  /** Phone + amount + time rule: the largest time difference accepted, minutes. */
  matchWindowMinutes: number;
  /** Same phone, amount and product charged again within this many minutes: a duplicate charge. */
  duplicateWindowMinutes: number;
  sheet: string | null;
}

export interface ReconcileInputs {
  fileName: string;
  fileFormat: 'csv' | 'xlsx';
  /** SHA-256 of the export file. */
  fileHash: string;
  exportRows: number;
  /** Export rows outside the range (left out). */
  exportRowsOutsideRange: number;
  /** Export rows that could not be read (listed in `unreadable`). */
  exportRowsUnreadable: number;
  mirrorRows: number;
  /** SHA-256 of the mirror entries considered (id, reference, amount, cost, status). */
  mirrorHash: string;
  localSubmissions: number;
  /** SHA-256 of vendesk's purchases considered. */
  localHash: string;
  snapshotsHash: string;
  /** How the mirror was read (the mirror table, or the service log when there is no mirror yet). */
  mirrorSource: string;
}

export interface UnreadableRow {
  row: number;
  message: string;
}

export type ReconcileRunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface ReconcileRunView {
  id: string;
  state: ReconcileRunState;
  createdAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  parameters: ReconcileParameters;
  inputs: ReconcileInputs | null;
  totals: Record<ReconcileCategory, CategoryTotal>;
  /** Export amounts of the matched rows split by rule. */
  matchedByRule: Record<MatchRule, number>;
  rollForward: RollForward | null;
  unreadable: UnreadableRow[];
  /** Items marked resolved, per category. */
  resolved: Partial<Record<ReconcileCategory, number>>;
  error: string | null;
}

export interface ReconcileRunListItem {
  id: string;
  state: ReconcileRunState;
  createdAt: string;
  from: string;
  to: string;
  fileName: string;
  fileHash: string;
  exportRows: number;
  matched: number;
  exceptions: number;
  exceptionsKobo: number;
  unexplainedKobo: number | null;
  resolvedCount: number;
}

export interface ReconcileItemView {
  seq: number;
  category: ReconcileCategory;
  rule: MatchRule | null;
  /** Row number in the export file (as the spreadsheet shows it). */
  exportRow: number | null;
  transactionId: string;
  logId: number | null;
  phone: string;
  type: string;
  product: string;
  network: string;
  createdAt: string | null;
  exportAmountKobo: number | null;
  mirrorAmountKobo: number | null;
  exportCostKobo: number | null;
  mirrorCostKobo: number | null;
  exportStatus: string | null;
  mirrorStatus: string | null;
  /** vendesk's own record: `bulk:<job>/<seq>` or `purchase:<id>`. */
  localRef: string | null;
  localState: string | null;
  /** The amount counted in the category total. */
  amountKobo: number;
  /** What this item means and what to do. */
  detail: string;
  resolvedAt: string | null;
  resolutionNote: string | null;
  requeryStatus: string | null;
  requeryAt: string | null;
}

export interface ReconcileItemsPage {
  total: number;
  offset: number;
  items: ReconcileItemView[];
}

export interface RequeryPendingSummary {
  queued: number;
  success: number;
  failed: number;
  stillPending: number;
  /** Could not be checked now (too early, provider unreachable, unknown reference). */
  notChecked: number;
  /** How items were checked: vendesk's pending loop for its own purchases, else a direct requery. */
  notes: string[];
}

/** A calendar day written YYYY-MM-DD (checked to exist): the range of a run or a report. */
export const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Not a real date');

export const reconcileStartSchema = z
  .object({
    file: fileRefSchema,
    from: calendarDay.optional(),
    to: calendarDay.optional(),
    sheet: z.string().min(1).optional(),
    matchWindowMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    duplicateWindowMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(10),
    /** Days of the range the mirror has not read: read them first (default), or refuse (`days_unread`). */
    unread: unreadDaysSchema.default('read'),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'The start date is after the end date; swap them', path: ['to'] });

const runId = z.string().min(1, 'Choose a reconciliation run');
const category = z.enum(RECONCILE_CATEGORIES);

export const reconcileOperations = {
  'reconcile.start': op(reconcileStartSchema, 'Reconciles a vendor export with the mirror, vendesk purchases and the wallet; saves the run', {
    invalidates: ['reconcile'],
  }).returns<ReconcileRunView>(),
  // The run it stops ends its own operation, which says what changed.
  'reconcile.cancel': op(z.object({ runId: z.string().min(1).optional() }), 'Stops the reconciliation that is running', { invalidates: [] }).returns<{ cancelled: boolean }>(),
  'reconcile.runs': op(z.object({ limit: z.number().int().min(1).max(500).default(50) }), 'Saved reconciliation runs, newest first').returns<ReconcileRunListItem[]>(),
  'reconcile.run': op(z.object({ runId }), 'One saved run: parameters, inputs, totals per category and the roll-forward').returns<ReconcileRunView>(),
  'reconcile.items': op(
    z.object({
      runId,
      category,
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
      search: z.string().trim().max(64).optional(),
    }),
    "A page of one category's items",
  ).returns<ReconcileItemsPage>(),
  'reconcile.resolve': op(
    z.object({
      runId,
      seqs: z.array(z.number().int().min(1)).min(1, 'Choose at least one item').max(10_000),
      note: z.string().trim().min(3, 'Write a short note saying why it is resolved (e.g. "refund arrived 3 Dec, ticket 1234")').max(1000),
    }),
    'Marks items of a run resolved, with a note',
    { invalidates: ['reconcile'] },
  ).returns<{ resolved: number }>(),
  'reconcile.requeryPending': op(z.object({ runId }), "Requeries every pending item of a run now (vendesk's own purchases through the pending loop)", {
    invalidates: ['reconcile', ...REQUERY_CHANGES],
  }).returns<RequeryPendingSummary>(),
  'reconcile.exportWorkbook': op(z.object({ runId }), 'The run as an Excel workbook: Summary, then one sheet per non-empty category').returns<ExportedFile>(),
  'reconcile.exportCsv': op(z.object({ runId, category }), "One category's items as CSV").returns<ExportedFile>(),
  'reconcile.sandboxExport': op(
    z.object({}),
    "The built-in sandbox's whole log in the service's export format (CSV), to try Reconcile with; refused on a LIVE connection",
  ).returns<ExportedFile>(),
} as const;

/** One line of the wallet roll-forward, as the screen and the workbook show it. */
export interface RollForwardLine {
  label: string;
  kobo: number | null;
  /** When (service clock, ISO) for the opening and closing readings. */
  at: string | null;
  /** The lines a reader adds up to: expected and actual closing, the unexplained difference. */
  total: boolean;
}

/** The roll-forward of an available run, line by line: written once for the screen and the workbook. */
export function rollForwardLines(rf: RollForward): RollForwardLine[] {
  const line = (label: string, kobo: number | null, at: string | null = null, total = false): RollForwardLine => ({ label, kobo, at, total });
  return [
    line('Opening balance (reading)', rf.openingKobo, rf.openingAt),
    line('− Successful purchases (cost)', -rf.successfulSpendKobo),
    line('− Pending purchases (cost, debited)', -rf.pendingSpendKobo),
    line('− Failed purchases (cost, debited)', -rf.failedDebitsKobo),
    line('+ Refunds of failed purchases', rf.refundsKobo),
    line(
      `− vendesk's own messaging (${rf.messagingCharges} SMS, email cop${rf.messagingCharges === 1 ? 'y' : 'ies'} or codes${rf.messagingAsQuoted ? `; ${rf.messagingAsQuoted} at the quoted cost — the service did not say what it charged` : ''})`,
      -rf.messagingKobo,
    ),
    line('= Expected closing balance', rf.expectedClosingKobo, null, true),
    line('Closing balance (reading)', rf.closingKobo, rf.closingAt, true),
    line('Difference (closing − expected)', rf.differenceKobo),
    line('of which refunds that never arrived', rf.missingRefundsKobo),
    line('Unexplained difference', rf.unexplainedKobo, null, true),
  ];
}

/** What an unexplained difference means, in words a finance officer acts on. */
export const UNEXPLAINED_MEANING =
  'Money moved that neither the vending log nor vendesk’s own messages explain: top-ups, fees, messages sent outside vendesk, or an error. Ask the vendor for a wallet statement for these dates.';
