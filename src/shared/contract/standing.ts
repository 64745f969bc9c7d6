/**
 * Standing orders (issue 40): the same rows bought on a schedule — a monthly allowance, a cable
 * subscription, a meter's top-up — once per occurrence, under the order's confirmation (alone) or
 * the team's approval. An order has versions (who changed what, when); each occurrence (the order
 * and its scheduled Lagos day) becomes exactly one bulk job. Amounts are integer kobo; days are
 * Lagos days `YYYY-MM-DD`; times ISO 8601.
 *
 * What a page shows is here: the next date, the last runs with their jobs, what waits and why,
 * and the versions (`standing.list`, `standing.show`); and what it asks: prepare and confirm an
 * order, pause, resume, end, run a waiting occurrence now or skip it, a team's standing approval.
 */
import { z } from 'zod';
import { op } from './define';
import { fileRefSchema } from './files';
import { PURCHASE_CHANGES } from './events';
import type { BulkJobState, BulkKind, BulkLeftOutRow, BulkRowIssueView } from './bulk';
import { parseNairaText } from '../money';

/** An order's own state: `draft` until its creator confirms it; `ended` buys nothing more (its history stays). */
export const STANDING_ORDER_STATES = ['draft', 'active', 'paused', 'ended'] as const;
export type StandingOrderState = (typeof STANDING_ORDER_STATES)[number];

/**
 * An occurrence's state (the occurrence state table, standing/occurrenceMoves.ts):
 * - `waiting`: not bought yet, and why (`reasonCode`): run again within its grace period, or by a person;
 * - `started`: it became its one bulk job (`jobId`): final, the job says how it went;
 * - `skipped`: a person skipped it (or the order was paused on its day): final, nothing bought.
 */
export const OCCURRENCE_STATES = ['waiting', 'started', 'skipped'] as const;
export type OccurrenceState = (typeof OCCURRENCE_STATES)[number];

/**
 * Why an occurrence waits:
 * - `missed`: nobody ran it within its grace period; a person runs it now or skips it;
 * - `another_due`: a later occurrence of the same order ran in the same run (two would be bought at once);
 * - `wallet_short`: the wallet holds less than the estimated cost (`missingKobo` says how much);
 * - `wallet_unknown`: the wallet could not be read, so the run was not started;
 * - `limits`: the spending caps of bulk jobs refuse it today;
 * - `rows`: none of its rows can be bought today (each says why in `waitingRows`);
 * - `team`: the team database could not be reached or refused it;
 * - `connection`: vendesk is connected to another service than the order's;
 * - `error`: something else stopped it (the reason says what).
 */
export const WAITING_REASONS = ['missed', 'another_due', 'wallet_short', 'wallet_unknown', 'limits', 'rows', 'team', 'connection', 'error'] as const;
export type WaitingReason = (typeof WAITING_REASONS)[number];

/**
 * How an occurrence went, as a person reads it: `waiting` and `skipped` as its state; once started,
 * its job's: `awaiting_approval` (team), `running`, `paused`, `needs_attention`, `interrupted` (left
 * running by a vendesk that stopped: the next run resumes it), `bought` (every row it sent succeeded,
 * or is pending at the service), `failed` (a row failed, was refused or is uncertain), `cancelled`;
 * `elsewhere`: another team desktop claimed it (its job is the team job).
 */
export const OCCURRENCE_OUTCOMES = [
  'waiting',
  'skipped',
  'awaiting_approval',
  'running',
  'paused',
  'needs_attention',
  'interrupted',
  'bought',
  'failed',
  'cancelled',
  'elsewhere',
] as const;
export type OccurrenceOutcome = (typeof OCCURRENCE_OUTCOMES)[number];

export type StandingRecurrence = { kind: 'monthly'; day: number } | { kind: 'last_working_day' } | { kind: 'weekly'; weekday: Weekday };
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAY_NAMES)[number];
export type WeekendMove = 'next' | 'previous' | 'none';

/** One row of an order: what each occurrence buys. */
export interface StandingRowView {
  /** Row number as the spreadsheet (or the job it was taken from) shows it. */
  row: number;
  phone: string;
  /** Electricity and cable: the meter or smartcard number. */
  account: string | null;
  /** Network, disco or cable provider. */
  network: string;
  productCode: string;
  description: string;
  amountKobo: number;
  name: string;
}

/** A row an occurrence did not buy, and why (a plan gone or repriced, a repeat of the last 24 hours, a row the catalog no longer takes). */
export interface WaitingRowView {
  row: number;
  phone: string;
  account: string | null;
  amountKobo: number;
  reason: string;
}

/** Where an occurrence's job stands, for its line in a list (its link: `jobId`). */
export interface OccurrenceJobView {
  state: BulkJobState;
  interrupted: boolean;
  items: number;
  success: number;
  failed: number;
  pending: number;
  rejected: number;
  uncertain: number;
  notSent: number;
  /** Face value of what was bought (success, pending, accepted). */
  boughtKobo: number;
  message: string | null;
}

export interface OccurrenceView {
  orderId: string;
  orderName: string;
  /** The rule's day: the occurrence's key. */
  scheduledDay: string;
  /** The day it is due (after a weekend move). */
  dueDay: string;
  state: OccurrenceState;
  outcome: OccurrenceOutcome;
  /** Why it waits or was skipped, as a code and in words (null once started). */
  reasonCode: WaitingReason | 'skipped' | null;
  reason: string | null;
  /** The order's version it ran (or would run) with. */
  version: number | null;
  /** Its one bulk job on this desktop (Purchases → Bulk jobs), once started here. */
  jobId: string | null;
  /** Team workspace: its team job (Approvals). */
  teamJobId: string | null;
  job: OccurrenceJobView | null;
  waitingRows: WaitingRowView[];
  /** Wallet short: how much more it needs (the estimated cost less the wallet). */
  missingKobo: number | null;
  /** Who ran it by hand or skipped it. */
  decidedBy: string | null;
  updatedAt: string;
  /** What a person may do now: run it (`run`), skip it (`skip`). */
  actions: ('run' | 'skip')[];
}

export interface StandingVersionView {
  version: number;
  /** The recurrence in words. */
  schedule: string;
  /** The RFC 5545 rule as stored. */
  rule: string;
  weekend: WeekendMove;
  graceDays: number;
  /** Its dates are its own from this Lagos day on (the day it was confirmed, or its start). */
  effectiveFrom: string;
  items: number;
  totalKobo: number;
  /** Team workspace: the rows' digest the team database computed (a standing approval binds it). */
  rowsDigest: string | null;
  /** Where its rows came from ("payroll.xlsx, sheet March"; "bulk job 7c1e…"). */
  source: string;
  /** What changed, in words ("rows: 3 changed, 1 added"; "created"). */
  change: string;
  changedBy: string;
  changedAt: string;
  confirmedBy: string | null;
  confirmedAt: string | null;
}

/** A team's standing approval of an order's version (team workspace). */
export interface StandingApprovalView {
  id: string;
  version: number;
  rowsDigest: string;
  ceilingKobo: number;
  runs: number | null;
  until: string | null;
  /** `pending`: it needs another approver (its ceiling is above the team's two-approver amount). */
  state: 'pending' | 'granted';
  approvedBy: string[];
  approvalsNeeded: number;
  runsUsed: number;
  /** Why it no longer lets an occurrence through (used up, expired, another version), or null. */
  stops: string | null;
}

export interface StandingOrderSummary {
  id: string;
  name: string;
  kind: BulkKind;
  state: StandingOrderState;
  connectionKind: 'sandbox' | 'live';
  /** Shared with the team workspace (LIVE, joined): its occurrences are claimed in the team database. */
  team: boolean;
  version: number | null;
  schedule: string;
  graceDays: number;
  weekend: WeekendMove;
  items: number;
  /** The face value each occurrence buys. */
  perRunKobo: number;
  /** The next occurrence, or null (ended, paused, or the rule has no more dates). */
  next: { scheduledDay: string; dueDay: string } | null;
  lastRun: OccurrenceView | null;
  /** Occurrences that wait (for a person, money, approval…). */
  waiting: number;
  standingApproval: StandingApprovalView | null;
  createdBy: string;
  createdAt: string;
}

export interface StandingOrderView extends StandingOrderSummary {
  versions: StandingVersionView[];
  /** A version prepared and not confirmed yet (`standing.confirm` makes it the order's). */
  pendingVersion: StandingVersionView | null;
  /** The recent occurrences, newest first (every started, skipped and waiting one of the last 24). */
  occurrences: OccurrenceView[];
  /** The next few occurrences. */
  upcoming: { scheduledDay: string; dueDay: string }[];
  /** The first 200 rows of the version in force (or the pending one of a draft). */
  rows: StandingRowView[];
  rowCount: number;
  /** Who paused or ended it, and when. */
  stateBy: string | null;
  stateAt: string | null;
}

/** An order (or a new version of one) checked and written, waiting for its confirmation. */
export interface StandingDraftView {
  order: StandingOrderView;
  /** The rows the file or job had that are not in the order, with why: invalid, or repeats of an earlier row. */
  invalid: BulkRowIssueView[];
  leftOut: BulkLeftOutRow[];
  /** LIVE, alone: confirming needs the per-run total typed. */
  live: boolean;
  /** Team workspace: each occurrence waits for approval, or a standing approval. */
  team: boolean;
}

/** What one run of the due occurrences did. */
export interface RunDueReport {
  /** Today, on the service's clock (what the Dashboard calls today). */
  today: string;
  dryRun: boolean;
  /** Occurrences started (or resumed) by this run: with their job. With `dryRun`, those that would be. */
  ran: OccurrenceView[];
  /** Occurrences that wait, and why. */
  waiting: OccurrenceView[];
  /** Occurrences another runner claimed first (another process, another desktop of the team). */
  elsewhere: OccurrenceView[];
  /** When the next occurrence of an active order is due (its day's start in Lagos), or null. */
  nextDueAt: string | null;
}

const orderId = z.string().uuid('Not a standing order id');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is written YYYY-MM-DD');
const kind = z.enum(['airtime', 'data', 'electricity', 'cable'], { message: 'kind must be airtime, data, electricity or cable' });
const recurrence = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('monthly'), day: z.number().int().min(1, 'A monthly day is 1 to 31').max(31, 'A monthly day is 1 to 31') }),
  z.object({ kind: z.literal('last_working_day') }),
  z.object({ kind: z.literal('weekly'), weekday: z.enum(WEEKDAY_NAMES, { message: 'The weekday is monday to sunday' }) }),
]);
const typedTotal = z
  .string()
  .superRefine((text, ctx) => {
    const read = parseNairaText(text);
    if (!read.ok) ctx.addIssue({ code: 'custom', message: `The total typed to confirm, ${text}, is not an amount. ${read.reason}` });
  })
  .optional();

/** What an order's schedule is made of (a new order's, or a new version's: what is not given is kept). */
const scheduleFields = {
  recurrence: recurrence.optional(),
  /** The first Lagos day it may fall on (default: today). */
  start: day.optional(),
  /** The last Lagos day it may fall on (null: none). */
  end: day.nullable().optional(),
  /** How many occurrences in all (null: no limit). */
  runs: z.number().int().min(1).max(1000).nullable().optional(),
  graceDays: z.number().int().min(0).max(60).optional(),
  weekend: z.enum(['next', 'previous', 'none']).optional(),
};

export const standingOperations = {
  'standing.prepare': op(
    z
      .object({
        /** A new version of this order (its rows, schedule or name); omitted: a new order. */
        orderId: orderId.optional(),
        name: z.string().trim().min(1, 'Give the order a name').max(120).optional(),
        kind: kind.optional(),
        /** Its rows from a spreadsheet… */
        file: fileRefSchema.optional(),
        sheet: z.string().optional(),
        mapping: z.record(z.string(), z.number().int().min(0).nullable()).optional(),
        /** …or from a finished bulk job's rows. */
        fromJobId: z.string().uuid('Not a job id').optional(),
        /** Keep rows that repeat an earlier row of the file (left out otherwise). */
        keepDuplicates: z.boolean().default(false),
        /** Keep the valid rows when some are invalid (refused otherwise). */
        skipInvalid: z.boolean().default(false),
        ...scheduleFields,
      })
      .superRefine((v, ctx) => {
        if (v.file && v.fromJobId) ctx.addIssue({ code: 'custom', message: 'Take the rows from a file or from a job, not both' });
        if (!v.orderId && !v.file && !v.fromJobId) ctx.addIssue({ code: 'custom', message: 'A new order takes its rows from a file or from a job' });
        if (!v.orderId && !v.recurrence) ctx.addIssue({ code: 'custom', message: 'A new order needs its recurrence' });
        if (!v.orderId && !v.name) ctx.addIssue({ code: 'custom', message: 'Give the order a name' });
        if (v.file && !v.kind && !v.orderId) ctx.addIssue({ code: 'custom', message: 'Say what the file buys: airtime, data, electricity or cable' });
        if (v.end && v.runs) ctx.addIssue({ code: 'custom', message: 'Give an end date or a number of runs, not both' });
      }),
    'Check the rows and schedule of a standing order (or of a new version of one) and write it, waiting for its confirmation; nothing is bought',
    { invalidates: ['standing'] },
  ).returns<StandingDraftView>(),
  'standing.confirm': op(
    z.object({ orderId, typedTotal }),
    'Confirm a standing order (or its new version) as its creator: its rows and per-run total are bought on each occurrence from then on (on a LIVE connection, the per-run total typed). In a team, the order is shared and each occurrence waits for approval or a standing approval',
    { invalidates: ['standing'] },
  ).returns<StandingOrderView>(),
  'standing.discard': op(z.object({ orderId }), 'Forget a standing order never confirmed, or the unconfirmed new version of one', { invalidates: ['standing'] }).returns<{
    discarded: 'order' | 'version';
  }>(),
  'standing.list': op(z.object({ states: z.array(z.enum(STANDING_ORDER_STATES)).optional() }), 'The standing orders of the connection in use').returns<StandingOrderSummary[]>(),
  'standing.show': op(z.object({ orderId }), 'A standing order: its versions, its recent and next occurrences, what waits and why').returns<StandingOrderView>(),
  'standing.pause': op(z.object({ orderId }), 'Pause a standing order: nothing is bought until it is resumed', { invalidates: ['standing'] }).returns<StandingOrderView>(),
  'standing.resume': op(z.object({ orderId }), 'Resume a paused standing order: occurrences due while it was paused are skipped', {
    invalidates: ['standing'],
  }).returns<StandingOrderView>(),
  'standing.end': op(z.object({ orderId }), 'End a standing order: nothing more is bought; its history is kept', { invalidates: ['standing'] }).returns<StandingOrderView>(),
  'standing.runDue': op(
    z.object({ dryRun: z.boolean().default(false), wait: z.boolean().default(false) }),
    'Run every occurrence due now on the connection in use (each once, whoever else runs them); with dryRun, say what would run and buy nothing',
    // What it buys and settles tells as a bulk job does; the orders' pages re-read.
    { invalidates: ['standing', 'jobs', ...PURCHASE_CHANGES] },
  ).returns<RunDueReport>(),
  'standing.runOccurrence': op(
    z.object({ orderId, occurrence: day, wait: z.boolean().default(false) }),
    'Run a waiting occurrence now (Run now): missed beyond its grace period, or waiting for money; bought once, whoever else runs it',
    { invalidates: ['standing', 'jobs', ...PURCHASE_CHANGES] },
  ).returns<OccurrenceView>(),
  'standing.skip': op(z.object({ orderId, occurrence: day }), 'Skip an occurrence (Skip): nothing is bought for it; the next one is unchanged', {
    invalidates: ['standing'],
  }).returns<OccurrenceView>(),
  'standing.approve': op(
    z
      .object({
        orderId,
        /** The most one occurrence may buy under it. */
        ceilingKobo: z.number().int().positive('A ceiling is more than ₦0'),
        runs: z.number().int().min(1).max(1000).nullable().default(null),
        until: day.nullable().default(null),
        note: z.string().max(500).optional(),
      })
      .superRefine((v, ctx) => {
        if ((v.runs === null) === (v.until === null)) ctx.addIssue({ code: 'custom', message: 'A standing approval has a number of runs or an end date (one of them)' });
      }),
    "Team workspace: approve a standing order's version once for its next occurrences (a ceiling per run, a number of runs or an end date); above the team's two-approver amount it needs a second approver",
    { invalidates: ['standing'] },
  ).returns<StandingApprovalView>(),
} as const;
