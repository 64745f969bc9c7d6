/**
 * The team workspace (optional): this desktop joined to a PostgreSQL database the team shares,
 * where bulk jobs wait for approval by another member, items are claimed before they are sent,
 * and every money-moving or approving action is appended to a hash-chained audit trail.
 * Money is integer kobo; times are ISO 8601.
 */
import { z } from 'zod';
import { op } from './define';
import type { ExportedFile } from './files';
import { reversedDatesMessage } from './logs';
import { PURCHASE_CHANGES } from './topics';
import type { PurchaseView, TopUpView } from './purchases';

export type TeamRole = 'preparer' | 'approver' | 'admin';

export interface TeamStatusView {
  joined: boolean;
  /** The database's address without any password: postgres://user@host:port/database. */
  url: string | null;
  user: string | null;
  database: string | null;
  desktopId: string | null;
  desktopName: string | null;
  /** The team roles the signed-in user holds (from PostgreSQL's grants). */
  roles: TeamRole[];
  schemaVersion: number | null;
  /** Single purchases above this need approval (null: none do). */
  approvalThresholdKobo: number | null;
  /** Jobs above this need two approvers, neither the preparer (null: one approver for any amount). */
  dualApprovalAboveKobo: number | null;
  /** Nothing more is sent under an approval older than this many minutes (null: no limit). */
  approvalValidMinutes: number | null;
  /** Why the database could not be read just now (joined, but unreachable or refusing); null when fine. */
  problem: string | null;
  /** Audit rows of this desktop's actions (profile, cap, reconcile) not yet written to the team database. */
  auditQueued: number;
  /** Whether the database's setup is finished: no login but a superuser can forge (null when it could not be read). */
  setup: TeamSetupCheck | null;
}

/** A login role that could forge an approval, and what removes that power. */
export interface TeamSetupProblem {
  role: string;
  /**
   * createrole: may create roles; owner: can become vendesk_owner; superuser: can become one; owner_login: vendesk_owner may sign in;
   * public_connect: any login on the server may connect to the team database (role `PUBLIC`).
   */
  kind: 'createrole' | 'owner' | 'superuser' | 'owner_login' | 'public_connect';
  message: string;
  /** The SQL that removes the power (run by the role itself for NOCREATEROLE, else by a superuser). */
  fix: string;
}

export interface TeamSetupCheck {
  /** True when no non-superuser login role may create roles, become vendesk_owner or a superuser. */
  finished: boolean;
  problems: TeamSetupProblem[];
}

/** The team's approval policy (admin settings, enforced by the team database). */
export type TeamPolicyView = Pick<TeamStatusView, 'approvalThresholdKobo' | 'dualApprovalAboveKobo' | 'approvalValidMinutes'>;

export interface TeamJoinResult extends TeamStatusView {
  /** Schema steps this join applied (empty when the database was already current). */
  migrated: number[];
  /**
   * Joined with the setup role (it may create roles and holds no team role): the schema is ready,
   * and this desktop is NOT joined — the team's roles are created next, and each person joins with their own.
   */
  setupRole: boolean;
}

export type TeamJobState = 'awaiting_approval' | 'approved' | 'rejected' | 'running' | 'finished' | 'cancelled';

export type SinglePurchaseKind = 'airtime' | 'data' | 'electricity' | 'cable';

/** A single purchase held for approval, as the approver sees it. */
export interface SinglePurchaseSummary {
  kind: SinglePurchaseKind;
  /** Who receives it: the phone number (airtime, data), the meter or the smartcard. */
  account: string;
  /** The customer's phone number (for airtime and data the same as `account`). */
  phone: string;
  amountKobo: number;
  /** "MTN airtime", the data plan, "IKEDC PREPAID electricity", "DSTV Compact". */
  description: string;
  /** The name the service gave for the meter or smartcard (null for airtime and data). */
  customerName: string | null;
}

/** What the approver sees: the preparer's preview of a job (rows, total, wallet after). */
export interface TeamJobPreview {
  kind: string;
  rows: { row: number; phone: string; network: string | null; product: string; amountKobo: number }[];
  /** Rows not shown in `rows` (a preview keeps the first 500). */
  moreRows: number;
  /** A single purchase's details (team jobs of kind `single`). */
  purchase?: SinglePurchaseSummary;
}

export interface TeamJobView {
  id: string;
  kind: 'bulk' | 'single';
  state: TeamJobState;
  fileName: string | null;
  fileSha256: string | null;
  itemCount: number;
  totalKobo: number;
  /** The wallet when it was prepared, and after the job if every item succeeds. */
  walletKobo: number | null;
  walletAfterKobo: number | null;
  preparedBy: string;
  preparedAt: string;
  preparedOn: string;
  decidedBy: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  /** Who approved it, in order (two above the dual-approval amount). */
  approvedBy: string[];
  /** Approvals it needs under the team's policy now (1, or 2 above the dual-approval amount). */
  approvalsNeeded: number;
  /** SHA-256 (hex) of the job's rows, computed by the team database when it was prepared; each desktop checks it before it sends. */
  itemsDigest: string | null;
  /** Other jobs from the same spreadsheet (by content), oldest first. */
  sameFileJobs: string[];
  preview: TeamJobPreview;
  /**
   * What each item buys, as a desktop that runs the job sends it: a bulk job's kind from its run
   * spec, a single purchase's kind; null when the database does not say. It decides which of a
   * row's fields are sent (an airtime row's meter or smartcard field is not), so what an approver
   * reads is laid out from it, never from the preview's free text.
   */
  buys: SinglePurchaseKind | null;
  /** A single purchase (kind `single`): what, for whom, how much; null for a bulk job. */
  purchase: SinglePurchaseSummary | null;
  /** Prepared on this desktop: once approved, it is bought here (`purchases.resume` for a single purchase). */
  preparedHere: boolean;
}

/** One row of a team job as the team database stores it: what is bought. */
export interface TeamJobRowView {
  /** The spreadsheet row (1 for a single purchase). */
  row: number;
  phone: string | null;
  /** Meter or smartcard number (electricity, cable TV). */
  account: string | null;
  network: string | null;
  /** The product code or plan (or the kind of purchase). */
  product: string;
  amountKobo: number;
}

export interface TeamJobRowsView {
  job: TeamJobView;
  page: number;
  pageSize: number;
  pages: number;
  rows: TeamJobRowView[];
}

/** What `purchases.resume` bought (or had bought already): the receipt of the one purchase. */
export interface ApprovedPurchaseView {
  teamJobId: string;
  /** Electricity or cable TV. */
  purchase: PurchaseView | null;
  /** Airtime or data. */
  topUp: TopUpView | null;
}

/**
 * The details of an `awaiting_approval` error: the team job that waits, and how it goes on once
 * approved — a single purchase bought by its preparer, a bulk job resumed on the desktop that
 * prepared it (`jobId`), or a team job run on this desktop.
 */
export type AwaitingApprovalDetails = { teamJobId: string } & ({ next: 'purchase' } | { next: 'bulk'; jobId: string } | { next: 'adopt' });

const THEN: Record<AwaitingApprovalDetails['next'], string> = {
  purchase: 'then buy it there (Approved tab, Buy now), or ask for the same purchase again here',
  bulk: 'then open the job under Purchases → Bulk purchases and press Buy now',
  adopt: 'then run it from the Approved tab (Run here)',
};

/** What happens to something waiting for approval next, in the window's words (the CLI says it with its commands: `cli/cliHints.ts`). */
export function awaitingApprovalHint(next: AwaitingApprovalDetails['next']): string {
  return `Another team member approves it on the Approvals page; ${THEN[next]}.`;
}

export interface AuditBreakView {
  seq: number;
  kind: 'altered' | 'relinked' | 'missing' | 'head_missing';
  message: string;
}

/**
 * A state of the team database (an approval, a claim, a settlement, a job's state or adoption) with no audit row of its own,
 * or a send row the team's rules forbid (`send_after_expiry`: written after its approval expired).
 */
export interface AuditUnrecordedView {
  code: 'approval_unrecorded' | 'claim_unrecorded' | 'settle_unrecorded' | 'job_unrecorded' | 'state_unrecorded' | 'send_after_expiry';
  jobId: string | null;
  /** The spreadsheet row of a claim or settlement. */
  item: number | null;
  message: string;
}

export interface AuditVerifyView {
  /** The chain is intact and every approval, claim, settlement and job state has its audit row. */
  intact: boolean;
  rows: number;
  head: { seq: number; hash: string } | null;
  breaks: AuditBreakView[];
  /** States the trail does not record (written around vendesk's functions). */
  unrecorded: AuditUnrecordedView[];
}

export interface AuditExportView extends ExportedFile {
  verification: AuditVerifyView;
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Write dates as YYYY-MM-DD');

export const teamJoinInputSchema = z.object({
  url: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'Give the database address as postgres://USER@HOST:PORT/DATABASE'),
  password: z.string().min(1, 'Give the password of your database role'),
  desktopName: z.string().trim().min(1).max(80).optional(),
});

export const approvalStateFilter = z.enum(['waiting', 'approved', 'rejected', 'all']);
export type ApprovalStateFilter = z.infer<typeof approvalStateFilter>;

export const teamOperations = {
  'team.status': op(z.object({}), 'Whether this desktop is joined to a team database, as whom, with which roles').returns<TeamStatusView>(),
  'team.join': op(teamJoinInputSchema, 'Joins this desktop to a team database (creating or migrating its schema where the role may)', {
    invalidates: ['team', 'jobs'],
  }).returns<TeamJoinResult>(),
  'team.leave': op(z.object({}), 'Forgets the team database on this desktop (the database keeps everything)', { invalidates: ['team', 'jobs'] }).returns<TeamStatusView>(),
  'approvals.list': op(
    z.object({
      state: approvalStateFilter.default('waiting'),
      /** Only these team jobs (the jobs list asks for the ones its bulk jobs were sent as). */
      jobIds: z.array(z.string().uuid('Not a team job id')).max(500).optional(),
    }),
    'Team jobs waiting for approval, approved or rejected',
  ).returns<TeamJobView[]>(),
  'approvals.decide': op(
    z
      .object({ jobId: z.string().uuid('Not a team job id'), decision: z.enum(['approve', 'reject']), note: z.string().trim().max(500).default('') })
      .refine((d) => d.decision === 'approve' || d.note.length > 0, { message: 'Say why the job is rejected (a note)', path: ['note'] }),
    'Approves or rejects a team job prepared by someone else',
    { invalidates: ['jobs'] },
  ).returns<TeamJobView>(),
  'approvals.rows': op(
    z.object({
      jobId: z.string().uuid('Not a team job id'),
      page: z.number().int('A page is a whole number').min(1, 'Pages start at 1').default(1),
      pageSize: z.number().int().min(1).max(500).default(50),
    }),
    "One page of a team job's rows as the team database stores them (recipient, product, amount): what is bought",
  ).returns<TeamJobRowsView>(),
  'team.setPolicy': op(
    z
      .object({
        dualApprovalAboveKobo: z.number().int('Amounts are whole kobo').min(0, 'The amount cannot be below ₦0').nullable().optional(),
        approvalValidMinutes: z.number().int('Minutes are whole').min(1, 'An approval is valid for 1 minute or more').max(5_256_000, 'At most 10 years').nullable().optional(),
      })
      .refine((p) => p.dualApprovalAboveKobo !== undefined || p.approvalValidMinutes !== undefined, {
        message: 'Give the dual-approval amount, the minutes an approval is valid, or both',
      }),
    'Sets the approval policy (admins only): the amount above which two approvers are needed, and for how many minutes an approval lets anything be sent (null: none)',
    { invalidates: ['team'] },
  ).returns<TeamStatusView>(),
  'team.setThreshold': op(
    z.object({ thresholdKobo: z.number().int('Amounts are whole kobo').min(0, 'The threshold cannot be below ₦0').nullable() }),
    'Sets the amount above which a single LIVE purchase needs approval by another member (admins only; null: none needs it)',
    { invalidates: ['team'] },
  ).returns<TeamStatusView>(),
  'purchases.resume': op(
    z.object({ teamJobId: z.string().uuid('Not a team job id') }),
    'Buys an approved single purchase prepared on this desktop, exactly once (again: its receipt, nothing more is bought)',
    // A top-up is bought as a one-item bulk job, so the jobs list changes too.
    { invalidates: [...PURCHASE_CHANGES, 'jobs'] },
  ).returns<ApprovedPurchaseView>(),
  'audit.verify': op(z.object({}), "Checks the team audit trail's hash chain row by row").returns<AuditVerifyView>(),
  'audit.export': op(
    z.object({ from: day.optional(), to: day.optional() }).superRefine((f, ctx) => {
      if (f.from && f.to && f.from > f.to) ctx.addIssue({ code: 'custom', message: reversedDatesMessage(f.from, f.to), path: ['from'] });
    }),
    'The audit trail of a range of Lagos days (both included) as an Excel workbook for an auditor',
  ).returns<AuditExportView>(),
} as const;
