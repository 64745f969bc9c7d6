/**
 * The month's journal: balanced double-entry lines dated the month's last day. Each cost centre
 * and type's purchases are debited to its expense account at face value (what the customers
 * received); the commission earned (face value less wallet cost) is credited to its account, and
 * the prepaid wallet is credited with what it paid (the wallet cost); vendesk's messaging is debited
 * to the SMS expense and credited to the wallet. Adjustments of closed months are lines of their
 * own. Debits equal credits to the kobo by construction, and it is checked.
 *
 * Written as CSV in the layouts the import screens of Xero (manual journals), QuickBooks Online
 * (journal entries) and Sage Accounting (journals) document, or a plain one, through the one CSV
 * writer (formula injection neutralised).
 */
import { AppError } from '../../shared/appError';
import { writeTableCsv, type ExportColumn, type ExportResult } from '../exports';
import type { JournalFormat } from '../../shared/contract/monthEnd';
import { AccountResolver, MESSAGING_TYPE } from './accountMap';
import { UNASSIGNED_COST_CENTRE } from './costCentreOf';
import type { CentreTypeLine, MonthFigures } from './monthFigures';

export interface JournalLine {
  account: string;
  /** Null for the wallet and commission lines. */
  costCentre: string | null;
  description: string;
  debitKobo: number;
  creditKobo: number;
}

export interface Journal {
  month: string;
  /** The month's last day (Lagos): the journal's date. */
  date: string;
  lines: JournalLine[];
  debitKobo: number;
  creditKobo: number;
  /** Combinations (type / cost centre, or the wallet or commission account) the account map does not name. */
  unmapped: string[];
}

const side = (kobo: number) => (kobo >= 0 ? { debitKobo: kobo, creditKobo: 0 } : { debitKobo: 0, creditKobo: -kobo });

export function buildJournal(figures: MonthFigures, resolver: AccountResolver): Journal {
  const lines: JournalLine[] = [];
  let wallet = 0;
  let commission = 0;
  const expenseLines = (source: readonly CentreTypeLine[], what: (l: CentreTypeLine) => string) => {
    for (const l of source) {
      if (l.faceKobo === 0 && l.costKobo === 0) continue;
      lines.push({ account: resolver.expenseFor(l.type, l.costCentre), costCentre: l.costCentre, description: what(l), ...side(l.faceKobo) });
      wallet += l.costKobo;
      commission += l.faceKobo - l.costKobo;
    }
  };
  expenseLines(figures.spend, (l) => `${l.type} ${figures.month}, ${l.costCentre}: ${l.purchases} purchase${l.purchases === 1 ? '' : 's'} at face value`);
  expenseLines(figures.adjustments, (l) => `Adjustment in ${figures.month} to closed months, ${l.type}, ${l.costCentre}: ${l.purchases >= 0 ? '+' : ''}${l.purchases} purchase(s)`);
  const sms = figures.messaging.costKobo;
  if (sms !== 0) {
    lines.push({
      account: resolver.expenseFor(MESSAGING_TYPE, UNASSIGNED_COST_CENTRE),
      costCentre: UNASSIGNED_COST_CENTRE,
      description: `SMS, e-mail copies and one-time codes sent through vendesk ${figures.month}: ${figures.messaging.messages} message(s)`,
      ...side(sms),
    });
    wallet += sms;
  }
  if (commission !== 0)
    lines.push({ account: resolver.commissionAccount(), costCentre: null, description: `Commission earned ${figures.month} (face value less wallet cost)`, ...side(-commission) });
  if (wallet !== 0) lines.push({ account: resolver.walletAccount(), costCentre: null, description: `Prepaid wallet ${figures.month}: paid at wallet cost`, ...side(-wallet) });
  const debitKobo = lines.reduce((s, l) => s + l.debitKobo, 0);
  const creditKobo = lines.reduce((s, l) => s + l.creditKobo, 0);
  if (debitKobo !== creditKobo) throw new Error(`The journal of ${figures.month} does not balance: debits ${debitKobo} kobo, credits ${creditKobo} kobo`);
  return { month: figures.month, date: figures.to, lines, debitKobo, creditKobo, unmapped: [...resolver.unmapped].sort() };
}

/** Refuses a journal with an account the map does not name, listing every one. */
export function requireMapped(journal: Journal): void {
  if (journal.unmapped.length === 0) return;
  throw new AppError(
    'accounts_unmapped',
    `The journal of ${journal.month} was not written: the account map names no account for ${journal.unmapped.join('; ')}.`,
    'Map each in Settings → Account map (or vendesk accounts set …), then export again.',
    { unmapped: journal.unmapped },
  );
}

/** `2026-10-31` → `31/10/2026`: the day-first date the three import screens read for a Nigerian (or British) organisation. */
const dayFirst = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

interface Layout {
  columns: ExportColumn[];
  row(j: Journal, l: JournalLine): unknown[];
}

const text = (header: string): ExportColumn => ({ header, kind: 'text' });
const naira = (header: string): ExportColumn => ({ header, kind: 'naira' });
const orNull = (kobo: number) => (kobo === 0 ? null : kobo);
const reference = (j: Journal) => `vendesk ${j.month}`;

/** The columns each import screen documents, in its order, and what vendesk puts in them. */
export const JOURNAL_LAYOUTS: Record<JournalFormat, Layout> = {
  // Xero, Manual Journals → Import: one journal per Narration and Date; a positive Amount is a debit, a negative one a credit.
  xero: {
    columns: [text('Narration'), text('Date'), text('Description'), text('AccountCode'), text('TaxRate'), naira('Amount'), text('TrackingName1'), text('TrackingOption1')],
    row: (j, l) => [reference(j), dayFirst(j.date), l.description, l.account, 'Tax Exempt', l.debitKobo - l.creditKobo, l.costCentre === null ? null : 'Cost centre', l.costCentre],
  },
  // QuickBooks Online, Settings → Import data → Journal entries: one entry per Journal No.; Class carries the cost centre.
  quickbooks: {
    columns: [
      text('Journal No'),
      text('Journal Date'),
      text('Account Name'),
      naira('Debits'),
      naira('Credits'),
      text('Description'),
      text('Name'),
      text('Location'),
      text('Class'),
    ],
    row: (j, l) => [reference(j), dayFirst(j.date), l.account, orNull(l.debitKobo), orNull(l.creditKobo), l.description, null, null, l.costCentre],
  },
  // Sage Accounting, Journals → Import Journals: one journal per Reference; Analysis Type 1 carries the cost centre.
  sage: {
    columns: [
      text('Reference'),
      text('Date'),
      text('Description'),
      text('Ledger Account Number'),
      text('Details'),
      text('Analysis Type 1'),
      text('Analysis Type 2'),
      text('Analysis Type 3'),
      text('Tax Rate'),
      naira('Debit'),
      naira('Credit'),
    ],
    row: (j, l) => [
      reference(j),
      dayFirst(j.date),
      `vendesk purchases ${j.month}`,
      l.account,
      l.description,
      l.costCentre,
      null,
      null,
      null,
      orNull(l.debitKobo),
      orNull(l.creditKobo),
    ],
  },
  plain: {
    columns: [{ header: 'Date', kind: 'date' }, text('Account'), text('Cost centre'), text('Description'), naira('Debit'), naira('Credit')],
    row: (j, l) => [j.date, l.account, l.costCentre, l.description, orNull(l.debitKobo), orNull(l.creditKobo)],
  },
};

export async function writeJournalCsv(journal: Journal, format: JournalFormat, file: string): Promise<ExportResult> {
  requireMapped(journal);
  const layout = JOURNAL_LAYOUTS[format];
  return writeTableCsv(
    file,
    layout.columns,
    journal.lines.map((l) => layout.row(journal, l)),
  );
}
