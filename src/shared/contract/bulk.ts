/**
 * Bulk purchase jobs: airtime, data, electricity tokens and cable TV bouquets for every row of a
 * spreadsheet. A job is prepared (file
 * read, rows validated, everything written to the database), previewed, confirmed, executed in
 * batches with progress events, and its results exported. Amounts are integer kobo.
 */
import { z } from 'zod';
import { op } from './define';
import { fileRefSchema, type ExportedFile } from './files';
import { PURCHASE_CHANGES } from './events';
import { parseNairaText } from '../money';

export type BulkKind = 'airtime' | 'data' | 'electricity' | 'cable';

/**
 * - `queued`: waiting to be sent. `held`: the service said the same phone and amount is in
 *   progress; sent again once that one is final.
 * - `sending`: written before its request left; no answer yet.
 * - `accepted`: the service took it and gave a reference; the outcome follows in its log.
 * - `success` / `failed` (refunded) / `pending` (not final yet at the service).
 * - `rejected`: refused by the service; nothing was charged.
 * - `uncertain`: may or may not have been bought (timeout, vendesk stopped while sending);
 *   checked against the service log before anything is sent again.
 * - `excluded`: left out before confirmation. `cancelled`: never sent.
 */
export const BULK_ITEM_STATES = ['excluded', 'queued', 'held', 'sending', 'accepted', 'rejected', 'uncertain', 'success', 'failed', 'pending', 'cancelled'] as const;

export type BulkItemState = (typeof BULK_ITEM_STATES)[number];

/**
 * draft: prepared, waiting for confirmation. awaiting_approval: sent for a team member's approval
 * (nothing sent; confirmed from there once approved). running/paused while it executes.
 */
export const BULK_JOB_STATES = ['draft', 'awaiting_approval', 'running', 'paused', 'cancelled', 'completed', 'needs_attention'] as const;

export type BulkJobState = (typeof BULK_JOB_STATES)[number];

export interface BulkJobView {
  id: string;
  kind: BulkKind;
  state: BulkJobState;
  /** Running in this vendesk right now. */
  active: boolean;
  /** Left `running` by a vendesk that stopped: resume it to finish (nothing is sent twice). */
  interrupted: boolean;
  fileName: string;
  sheetName: string | null;
  connectionKind: 'sandbox' | 'live';
  profileId: string;
  createdAt: string;
  confirmedAt: string | null;
  finishedAt: string | null;
  /** What the user should know now (why it paused, what needs attention). */
  message: string | null;
  rowsInFile: number;
  invalidRows: number;
  counts: Record<BulkItemState, number>;
  /** Items the job is to buy (excluded rows left out). */
  items: number;
  /** Items the service has answered (accepted, pending, successful, failed, rejected). Items never sent are not counted. */
  done: number;
  /** Total (face value) of the items the job is to buy. */
  totalKobo: number;
  /** Accepted, pending and successful items: known bought (a pending one may still fail and be refunded). Never an uncertain item. */
  bought: BulkMoney;
  /** Failed items: charged, then refunded by the service. */
  refunded: BulkMoney;
  /** Never sent — the job was cancelled first, or the item was marked not bought: nothing charged. */
  notBought: BulkMoney;
  /**
   * Maybe bought: sending or uncertain items, sent with no answer yet (their money may have left
   * the wallet, so every limit counts them). Not in `bought` until the service's log settles them.
   */
  maybeBought: BulkMoney;
  /** Waiting or held: not sent yet (what a cancel leaves unbought). */
  toSend: BulkMoney;
  /** The team job this job was sent for approval as (team workspace, LIVE), else null: its preparer, approver and state are in `approvals.list`. */
  teamJobId: string | null;
}

/**
 * Money of some items of a job: their face value (the amounts of the rows: what the recipients
 * get), and what the wallet was charged for them (the service's `transaction_cost`, or the amount
 * less the commission), which is known for `costKnown` of the `count` items; `costKobo` sums
 * those only. An unknown cost is never counted as 0.
 */
export interface BulkMoney {
  count: number;
  faceKobo: number;
  costKobo: number;
  costKnown: number;
}

export interface BulkItemView {
  seq: number;
  /** Row number as the spreadsheet shows it. */
  row: number;
  phone: string;
  network: string;
  productCode: string;
  description: string;
  amountKobo: number;
  name: string;
  note: string;
  state: BulkItemState;
  reference: string | null;
  /** Why it was rejected, held, failed, or is uncertain. */
  reason: string | null;
  /** How its outcome was learned (`log`, `log: phone, amount and time`, `user: …`). */
  settledBy: string | null;
  attempts: number;
  /** Why it looks like a duplicate, when it does. */
  duplicateOf: string | null;
  /** Network in the file, and network of the number's prefix, when they disagree. */
  givenNetwork: string | null;
  prefixNetwork: string | null;
  updatedAt: string;
  /** Electricity and cable: meter or smartcard number (null for airtime and data). */
  account: string | null;
  /** Electricity: PREPAID or POSTPAID. */
  vendType: string | null;
  /** Electricity and cable: the name the service gave for the meter or smartcard when it was checked before confirming; null when not checked. */
  accountName: string | null;
  /** Electricity and cable: the purchase (receipt, Pending page) this row was bought as. */
  purchaseId: string | null;
  /** Prepaid electricity: the token and units, once successful. */
  token: string | null;
  units: number | null;
}

export interface BulkRowIssueView {
  row: number;
  field: string;
  message: string;
}

export interface BulkMappingField {
  field: string;
  label: string;
  required: boolean;
  /** Column index (0 = A); null when not mapped. */
  column: number | null;
}

export interface BulkPreview {
  job: BulkJobView;
  headers: string[];
  sheetNames: string[];
  mapping: BulkMappingField[];
  /** The mapping came from an earlier file with the same headers. */
  mappingRemembered: boolean;
  /** Included items and their total: what confirmation buys. */
  includedItems: number;
  includedKobo: number;
  walletKobo: number | null;
  /** What the wallet is expected to be charged: the face value less the expected commission (an estimate). */
  expectedCostKobo: number;
  /** How the estimate was made, in a sentence. */
  expectedCostNote: string;
  /** Wallet after the job (the balance less the expected cost: an estimate), when the balance could be read. */
  remainingKobo: number | null;
  walletProblem: string | null;
  /** Items flagged as duplicates (in the file, or bought in the last 24 hours). */
  duplicates: BulkItemView[];
  /** Airtime items whose file network disagrees with the number's prefix. */
  networkConflicts: BulkItemView[];
  capPerJobKobo: number | null;
  capPerDayKobo: number | null;
  /** Bought or maybe bought today (a Lagos day on the service's clock) on this connection, by bulk jobs and single purchases: what the daily cap counts. */
  spentTodayKobo: number;
  /** Why confirmation would be refused now (cap, nothing to buy), or null. */
  blocker: string | null;
  /** A LIVE connection: confirmation needs the total typed in. */
  live: boolean;
}

/** A valid row a job leaves out unless its duplicates are kept (the window's "Possible duplicates", not ticked). */
export interface BulkLeftOutRow {
  /** Row number as the spreadsheet shows it. */
  row: number;
  phone: string;
  /** Electricity and cable: the meter or smartcard number; null for airtime and data. */
  account: string | null;
  amountKobo: number;
  /** The earlier row of the file that buys the same thing (that one is bought), or null. */
  sameAsRow: number | null;
  /** The purchase of the last 24 hours it repeats (the latest, when several), or null. */
  boughtRecently: { at: string; reference: string | null } | null;
  /** Why, as the job's row says it (`duplicateOf`). */
  reason: string;
}

/**
 * A file checked without creating a job, counted as a draft of it is: `toBuy` rows for `totalKobo`
 * (what the window's "Buy N for ₦X" says), `duplicates` rows left out (listed in `leftOut`), and
 * the invalid rows' issues.
 */
export interface BulkValidation {
  rows: number;
  valid: number;
  invalid: number;
  /** Valid rows left out as duplicates (`leftOut.length`). */
  duplicates: number;
  /** Valid rows that would be bought: `valid` less `duplicates`. */
  toBuy: number;
  /** Face value of the rows to buy. */
  totalKobo: number;
  leftOut: BulkLeftOutRow[];
  errors: BulkRowIssueView[];
  /** What else the check says of the sheet: rows skipped as its total (docs/imports.md, "A total row"). */
  notes: string[];
}

export interface BulkSettingsView {
  /** Items per purchase request (1–100). */
  batchSize: number;
  /** Requests in flight at once (1–8). */
  concurrency: number;
  /** Largest total one job may have, in kobo; null = no cap. */
  capPerJobKobo: number | null;
  /**
   * Most that may be spent on this connection in one Lagos day (on the service's clock), in kobo;
   * null = no cap. It counts bulk jobs and single purchases, bought or maybe bought; only bulk jobs
   * are refused by it.
   */
  capPerDayKobo: number | null;
  /**
   * How long after an uncertain item was sent vendesk waits before it trusts the log's silence
   * (no matching entry) and sends the item again, in seconds.
   */
  uncertainSafeDelaySeconds: number;
  /** How long vendesk keeps checking the log for the outcome of accepted items once all are sent, in seconds. */
  outcomeWaitSeconds: number;
}

const jobId = z.string().uuid('Not a job id');
/** The kinds of spreadsheet vendesk gives a template for. */
export const TEMPLATE_KINDS = ['airtime', 'data', 'electricity', 'cable', 'contacts'] as const;

/** The header row of each kind's template: the column names vendesk reads for it. */
export const TEMPLATE_COLUMNS: Record<(typeof TEMPLATE_KINDS)[number], readonly string[]> = {
  airtime: ['Phone', 'Amount', 'Network', 'Name', 'Reference'],
  data: ['Phone', 'Product Code', 'Name', 'Reference'],
  electricity: ['Meter Number', 'Disco', 'Meter Type', 'Amount', 'Phone', 'Name', 'Reference'],
  cable: ['Smartcard Number', 'Provider', 'Bouquet Code', 'Phone', 'Name', 'Reference'],
  contacts: ['Name', 'Phone'],
};

const kind = z.enum(['airtime', 'data', 'electricity', 'cable'], { message: 'kind must be airtime, data, electricity or cable' });
const seqs = z.array(z.number().int().positive()).min(1, 'Choose at least one row');
const mapping = z.record(z.string(), z.number().int().min(0).nullable());
const page = { offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(5000).default(200) };
const koboCap = z.number().int().positive('A cap must be more than ₦0').nullable();

export const bulkOperations = {
  'bulk.inspect': op(z.object({ file: fileRefSchema }), 'The sheets of a spreadsheet before it is read')
    /** `dataSheet`: the first sheet with a header row (what is read when no sheet is named); null for a CSV or when none has one. */
    .returns<{ fileName: string; format: 'csv' | 'xlsx'; sheetNames: string[]; dataSheet: string | null }>(),
  'bulk.template': op(
    z.object({
      kind: z.enum(TEMPLATE_KINDS, { message: 'kind must be airtime, data, electricity, cable or contacts' }),
      format: z.enum(['xlsx', 'csv']).default('xlsx'),
    }),
    'A spreadsheet template for a kind of bulk job (or a contacts import): its columns and two example rows',
  ).returns<ExportedFile>(),
  'bulk.validate': op(
    z.object({ file: fileRefSchema, kind, sheet: z.string().optional(), mapping: mapping.optional() }),
    'Check every row of a spreadsheet without creating a job',
  ).returns<BulkValidation>(),
  'bulk.prepare': op(
    z.object({
      file: fileRefSchema,
      kind,
      sheet: z.string().optional(),
      /** Field → column index; omitted: detected (or remembered for these headers). */
      mapping: mapping.optional(),
      /** A draft this one replaces (the same file with another sheet or mapping). */
      replaceJobId: jobId.optional(),
      keepDuplicates: z.boolean().default(false),
    }),
    'Read and validate a spreadsheet into a draft job, ready to preview and confirm',
    { invalidates: ['jobs'] },
  ).returns<BulkPreview>(),
  'bulk.preview': op(z.object({ jobId }), 'The preview of a draft job').returns<BulkPreview>(),
  'bulk.invalidRows': op(z.object({ jobId, ...page }), 'Rows left out of a job and why').returns<{ total: number; rows: BulkRowIssueView[] }>(),
  'bulk.items': op(z.object({ jobId, ...page, states: z.array(z.string()).optional() }), 'Items of a job with their state, reference and reason').returns<{
    total: number;
    items: BulkItemView[];
  }>(),
  'bulk.setIncluded': op(z.object({ jobId, seqs, include: z.boolean() }), 'Keep or drop flagged rows of a draft job', { invalidates: ['jobs'] }).returns<BulkPreview>(),
  'bulk.setNetwork': op(z.object({ jobId, seqs, use: z.enum(['file', 'prefix']) }), "Buy airtime on the file's network or on the network of the number's prefix", {
    invalidates: ['jobs'],
  }).returns<BulkPreview>(),
  'bulk.confirm': op(
    z.object({
      jobId,
      /** On a LIVE connection: the job total typed by the user, e.g. "12,500.00". */
      typedTotal: z
        .string()
        .superRefine((text, ctx) => {
          const read = parseNairaText(text);
          if (!read.ok) ctx.addIssue({ code: 'custom', message: `The total typed to confirm, ${text}, is not an amount. ${read.reason}` });
        })
        .optional(),
      /** Refuse when the job total is above this (CLI --max-total). */
      maxTotalKobo: z.number().int().positive().optional(),
      /** Resolve when the job has finished instead of when it has started. */
      wait: z.boolean().default(false),
    }),
    'Confirm a draft job and start buying',
    { invalidates: ['jobs'] },
  ).returns<BulkJobView>(),
  'bulk.pause': op(z.object({ jobId }), 'Stop sending; items in flight finish', { invalidates: ['jobs'] }).returns<BulkJobView>(),
  'bulk.resume': op(z.object({ jobId, wait: z.boolean().default(false) }), 'Continue a paused or interrupted job; uncertain items are settled from the log first', {
    invalidates: ['jobs'],
  }).returns<BulkJobView>(),
  'bulk.cancel': op(z.object({ jobId }), 'Stop the job; items not yet sent are not bought', { invalidates: ['jobs'] }).returns<BulkJobView>(),
  'bulk.checkAgain': op(
    z.object({ jobId }),
    "Ask the service now about a job's accepted and pending items (its log, then requery) and learn the wallet cost of the items bought",
    // What it learns settles items, and the purchases of vending rows with them.
    { invalidates: [...PURCHASE_CHANGES, 'jobs'] },
  ).returns<BulkJobView>(),
  'bulk.status': op(z.object({ jobId }), 'Where a job stands').returns<BulkJobView>(),
  'bulk.list': op(z.object({ limit: z.number().int().min(1).max(500).default(50) }), 'Recent jobs of the connection in use, newest first').returns<BulkJobView[]>(),
  'bulk.resolveItems': op(
    z.object({ jobId, seqs, resolution: z.enum(['bought', 'not_bought', 'resend']), note: z.string().max(500).optional() }),
    'Settle uncertain items by hand: bought, not bought, or send again',
    { invalidates: ['jobs'] },
  ).returns<BulkJobView>(),
  'bulk.discard': op(z.object({ jobId }), 'Delete a draft job', { invalidates: ['jobs'] }).returns<{ deleted: true }>(),
  'bulk.export': op(z.object({ jobId, format: z.enum(['xlsx', 'csv']) }), 'Results of a job as a spreadsheet').returns<ExportedFile>(),
  'bulk.settings.get': op(z.object({}), 'Batch size, concurrency and spending caps of bulk jobs on the connection in use').returns<BulkSettingsView>(),
  'bulk.settings.set': op(
    z.object({
      batchSize: z.number().int().min(1).max(100).optional(),
      concurrency: z.number().int().min(1).max(8).optional(),
      capPerJobKobo: koboCap.optional(),
      capPerDayKobo: koboCap.optional(),
      uncertainSafeDelaySeconds: z.number().int().min(0).max(3600).optional(),
      outcomeWaitSeconds: z.number().int().min(0).max(3600).optional(),
    }),
    'Change batch size, concurrency and spending caps of bulk jobs on the connection in use',
    { invalidates: ['bulk.settings'] },
  ).returns<BulkSettingsView>(),
} as const;
