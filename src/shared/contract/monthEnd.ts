/**
 * Month-end: the close pack of a month (an Excel workbook), its journal (CSV for Xero, QuickBooks
 * Online, Sage or a plain layout), closing and reopening a month, and the ledger account map the
 * journal posts by. A month is `YYYY-MM` of Lagos days. Money is integer kobo.
 */
import { z } from 'zod';
import { op } from './define';
import { fileRefSchema, type ExportedFile } from './files';
import { unreadDaysSchema, type MirrorCoverage } from './logs';
import type { RollForward } from './reconcile';
import { MONTH_PATTERN } from '../months';

export const JOURNAL_FORMATS = ['xero', 'quickbooks', 'sage', 'plain'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

export const ACCOUNT_KINDS = ['expense', 'wallet', 'commission'] as const;

/** One line of the account map: an expense account for a type and cost centre (`*`: every cost centre of it), or the wallet's or commission's account. */
export interface AccountMapping {
  kind: (typeof ACCOUNT_KINDS)[number];
  /** AIRTIME, DATA, ELECTRICITY, CABLETV or SMS for an expense; empty otherwise. */
  type: string;
  costCentre: string;
  account: string;
}

const month = z.string().regex(MONTH_PATTERN, 'Give the month as YYYY-MM, e.g. 2026-10');

export interface MonthTotals {
  purchases: number;
  faceKobo: number;
  costKobo: number;
  commissionKobo: number;
}

/** What a close pack says of its month, for the window and the CLI. */
export interface MonthSummary {
  month: string;
  from: string;
  to: string;
  closed: { closedAt: string; serviceClosedAt: string; closedBy: string } | null;
  purchases: MonthTotals;
  byType: (MonthTotals & { type: string })[];
  byCostCentre: (MonthTotals & { costCentre: string; type: string })[];
  pending: { count: number; costKobo: number };
  refunds: { count: number; costKobo: number };
  adjustments: MonthTotals & { entries: number; lines: (MonthTotals & { costCentre: string; type: string })[] };
  messaging: { messages: number; costKobo: number };
  wallet: RollForward;
}

export interface MonthStatus {
  month: string;
  state: 'open' | 'closed' | 'reopened';
  closedAt: string | null;
  closedBy: string | null;
}

export interface MonthCloseEventView {
  month: string;
  action: 'close' | 'reopen';
  at: string;
  serviceAt: string;
  by: string;
  reason: string | null;
}

const accountText = z.string().trim().min(1, 'Type the account code').max(64, 'An account code is at most 64 characters');

export const monthEndOperations = {
  'monthEnd.summary': op(
    z.object({ month, unread: unreadDaysSchema.default('read') }),
    "A month's figures: spend by type and cost centre, pending, refunds, adjustments, SMS and the wallet",
  ).returns<{
    summary: MonthSummary;
    coverage: MirrorCoverage | null;
  }>(),
  'monthEnd.closePack': op(
    z.object({
      month,
      /** The vendor's export of the month, to reconcile against (a CSV or XLSX the vendor sent). */
      exportFile: fileRefSchema.optional(),
      unread: unreadDaysSchema.default('read'),
    }),
    'The close pack of a month as one Excel workbook: summary, spend by cost centre and type, the reconciliation when an export is given, pending, refunds, adjustments, approvals',
    // With an export, its reconciliation is saved as a run (Reconcile lists it).
    { invalidates: ['reconcile'] },
  ).returns<ExportedFile & { sheets: string[]; summary: MonthSummary; coverage: MirrorCoverage | null; reconciliationRunId: string | null }>(),
  'monthEnd.journal': op(
    z.object({ month, format: z.enum(JOURNAL_FORMATS).default('plain'), unread: unreadDaysSchema.default('read') }),
    "The month's journal as CSV in the layout of Xero's, QuickBooks Online's or Sage's import screen, or plain; refused naming every combination the account map lacks",
  ).returns<ExportedFile & { format: JournalFormat; date: string; debitKobo: number; creditKobo: number; lines: number }>(),
  'monthEnd.months': op(
    z.object({
      /** Ask the service its time first when this process has not heard it yet (a fresh command that may go online): the current month is the service's. */
      ask: z.boolean().default(false),
    }),
    'Months with entries or a close, newest first, with their state, and every close and reopen',
  ).returns<{
    months: MonthStatus[];
    events: MonthCloseEventView[];
    team: boolean;
  }>(),
  'monthEnd.close': op(
    z.object({ month, unread: unreadDaysSchema.default('read') }),
    'Closes a month: its figures are kept as they are; later changes are adjustments of the next open month',
    {
      invalidates: ['monthEnd'],
    },
  ).returns<{ month: string; summary: MonthSummary }>(),
  'monthEnd.reopen': op(z.object({ month, reason: z.string().trim().min(3, 'Say why the month is reopened').max(500) }), 'Reopens a closed month (audited, with the reason)', {
    invalidates: ['monthEnd'],
  }).returns<{ month: string }>(),
  'accounts.list': op(z.object({}), 'The ledger account map: type and cost centre → expense account; the wallet and commission accounts').returns<AccountMapping[]>(),
  'accounts.check': op(
    z.object({ month, unread: unreadDaysSchema.default('read') }),
    "Checks the account map against a month's journal before export: every combination (type / cost centre, the wallet, commission) it names no account for",
  ).returns<{ month: string; lines: number; unmapped: string[] }>(),
  'accounts.set': op(
    z.object({ kind: z.enum(ACCOUNT_KINDS), type: z.string().trim().max(20).default(''), costCentre: z.string().trim().max(100).default(''), account: accountText }),
    'Sets one account of the map',
    { invalidates: ['monthEnd'] },
  ).returns<AccountMapping>(),
  'accounts.remove': op(
    z.object({ kind: z.enum(ACCOUNT_KINDS), type: z.string().trim().max(20).default(''), costCentre: z.string().trim().max(100).default('') }),
    'Removes one account of the map',
    {
      invalidates: ['monthEnd'],
    },
  ).returns<{ removed: boolean }>(),
} as const;
