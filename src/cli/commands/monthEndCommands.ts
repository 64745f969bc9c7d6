/**
 * Month-end from the command line, through the same operations as the Month-end page:
 * `vendesk close YYYY-MM` (the close pack; `--mark` closes the month first), `vendesk month
 * list|close|reopen`, `vendesk journal YYYY-MM --format …` and `vendesk accounts list|set|remove`.
 * Amounts in the JSON are Naira.
 */
import path from 'node:path';
import { z } from 'zod';
import { JOURNAL_FORMATS, type AccountMapping, type JournalFormat, type MonthSummary } from '../../shared/contract/monthEnd';
import { formatNaira } from '../../shared/money';
import { isMonth } from '../../shared/months';
import { command, requireOption, stringOption, UsageError, type ParsedArgs } from '../cliCommand';
import { naira, nairaOrNull } from '../jsonShape';
import { FORCE_OPTION, outTarget, writeExportTo } from '../outFile';
import { lines, textTable, tt } from '../terminal';
import { periodLines } from './logsCommands';
import { OFFLINE_OPTION, periodJson, periodShape } from './readDaysFirst';

const toNaira = (kobo: number) => kobo / 100;

/** Days of the month the mirror has not read: read first, or refused with --offline. */
const unreadOf = (args: ParsedArgs) => (args.options.offline === true ? ('refuse' as const) : ('read' as const));

function monthArg(args: ParsedArgs, usage: string): string {
  const month = args.positionals[0];
  if (!month) throw new UsageError(`Name the month: ${usage}`);
  if (!isMonth(month)) throw new UsageError(`"${month}" is not a month; give it as YYYY-MM, e.g. 2026-10`);
  if (args.positionals.length > 1) throw new UsageError(`Unexpected "${args.positionals[1]}": ${usage}`);
  return month;
}

const totalsShape = z.strictObject({ purchases: z.number(), faceValue: naira, walletCost: naira, commission: naira });
const totalsJson = (t: { purchases: number; faceKobo: number; costKobo: number; commissionKobo: number }) => ({
  purchases: t.purchases,
  faceValue: toNaira(t.faceKobo),
  walletCost: toNaira(t.costKobo),
  commission: toNaira(t.commissionKobo),
});

const summaryShape = z.strictObject({
  month: z.string(),
  from: z.string().describe('first Lagos day'),
  to: z.string().describe('last Lagos day, the journal’s date'),
  closed: z.strictObject({ at: z.string(), by: z.string() }).nullable().describe('null: open'),
  purchases: totalsShape.describe('successful and pending purchases of the month'),
  byType: z.array(totalsShape.extend({ type: z.string() })),
  byCostCentre: z.array(totalsShape.extend({ costCentre: z.string(), type: z.string() })),
  pending: z.strictObject({ count: z.number(), walletCost: naira }).describe('still pending at month end (at the close, when closed)'),
  refunds: z.strictObject({ count: z.number(), walletCost: naira }).describe('failed purchases of the month, refunded'),
  adjustments: totalsShape.extend({ entries: z.number() }).describe('changes to entries of closed months counted in this month (net)'),
  sms: z.strictObject({ messages: z.number(), cost: naira }),
  wallet: z.strictObject({ opening: nairaOrNull, closing: nairaOrNull, unexplained: nairaOrNull, note: z.string().nullable() }),
});

function summaryJson(s: MonthSummary): z.infer<typeof summaryShape> {
  const money = (k: number | null) => (k === null ? null : toNaira(k));
  return {
    month: s.month,
    from: s.from,
    to: s.to,
    closed: s.closed ? { at: s.closed.closedAt, by: s.closed.closedBy } : null,
    purchases: totalsJson(s.purchases),
    byType: s.byType.map((t) => ({ type: t.type, ...totalsJson(t) })),
    byCostCentre: s.byCostCentre.map((t) => ({ costCentre: t.costCentre, type: t.type, ...totalsJson(t) })),
    pending: { count: s.pending.count, walletCost: toNaira(s.pending.costKobo) },
    refunds: { count: s.refunds.count, walletCost: toNaira(s.refunds.costKobo) },
    adjustments: { entries: s.adjustments.entries, ...totalsJson(s.adjustments) },
    sms: { messages: s.messaging.messages, cost: toNaira(s.messaging.costKobo) },
    wallet: { opening: money(s.wallet.openingKobo), closing: money(s.wallet.closingKobo), unexplained: money(s.wallet.unexplainedKobo), note: s.wallet.note },
  };
}

function summaryLines(s: MonthSummary) {
  return [
    tt`${s.month} (${s.from} to ${s.to}, Lagos days): ${s.closed ? `closed by ${s.closed.closedBy}` : 'open'}`,
    `Purchases: ${s.purchases.purchases}, face value ${formatNaira(s.purchases.faceKobo)}, wallet cost ${formatNaira(s.purchases.costKobo)}, commission ${formatNaira(s.purchases.commissionKobo)}`,
    `Still pending at month end: ${s.pending.count} (${formatNaira(s.pending.costKobo)}); refunds: ${s.refunds.count} (${formatNaira(s.refunds.costKobo)}); SMS: ${formatNaira(s.messaging.costKobo)}`,
    ...(s.adjustments.entries > 0 ? [`Adjustments of closed months: ${s.adjustments.entries} entries, net wallet cost ${formatNaira(s.adjustments.costKobo)}`] : []),
    s.wallet.available && s.wallet.openingKobo !== null && s.wallet.closingKobo !== null && s.wallet.unexplainedKobo !== null
      ? `Wallet: opening ${formatNaira(s.wallet.openingKobo)}, closing ${formatNaira(s.wallet.closingKobo)}, unexplained ${formatNaira(s.wallet.unexplainedKobo)}`
      : tt`Wallet: ${s.wallet.note ?? 'not rolled forward'}`,
  ];
}

export const closeCommand = command({
  path: ['close'],
  summary: "A month's close pack as one Excel workbook (summary, spend by cost centre × type, reconciliation, pending, refunds, adjustments); --mark closes the month first",
  usage: 'vendesk close YYYY-MM [--export VENDOR.csv] [--out FILE.xlsx] [--mark] [--offline]',
  options: [
    { name: 'export', kind: 'string', description: "The vendor's export of the month (CSV or XLSX): reconciled into the pack" },
    { name: 'out', kind: 'string', description: 'Write the workbook here (.xlsx)' },
    { name: 'mark', kind: 'boolean', description: 'Close the month first (refused for a month not over, or already closed); its pack is then what the close kept' },
    FORCE_OPTION,
    OFFLINE_OPTION,
  ],
  output: z.strictObject({
    workbook: z.string(),
    sheets: z.array(z.string()),
    closedNow: z.boolean(),
    reconciliationRunId: z.string().nullable(),
    summary: summaryShape,
    period: periodShape.nullable(),
  }),
  async run(ctx) {
    const month = monthArg(ctx.args, 'vendesk close YYYY-MM');
    const out = stringOption(ctx.args, 'out');
    if (out !== undefined && path.extname(out).toLowerCase() !== '.xlsx') throw new UsageError(`--out must end in .xlsx, got "${out}"`);
    const target = out === undefined ? null : outTarget(ctx.args, out, `close pack ${month}.xlsx`);
    const exportFile = stringOption(ctx.args, 'export');
    const mark = ctx.args.options.mark === true;
    // The days of the month are read first (or refused with --offline) by the operations themselves, on the service's clock.
    const unread = unreadOf(ctx.args);
    if (mark) await ctx.call('monthEnd.close', { month, unread });
    const written = await ctx.call('monthEnd.closePack', { month, unread, ...(exportFile ? { exportFile: { path: path.resolve(exportFile) } } : {}) });
    const file = target ? writeExportTo(written.path, target, ctx.args) : written.path;
    return {
      json: {
        workbook: file,
        sheets: written.sheets,
        closedNow: mark,
        reconciliationRunId: written.reconciliationRunId,
        summary: summaryJson(written.summary),
        period: written.coverage ? periodJson(written.coverage) : null,
      },
      text: lines([...(mark ? [tt`Closed ${month}.`] : []), tt`Close pack: ${file}`, ...summaryLines(written.summary), ...(written.coverage ? periodLines(written.coverage) : [])]),
    };
  },
});

const monthListCommand = command({
  path: ['month', 'list'],
  summary: 'Months and whether each is closed, with every close and reopen',
  usage: 'vendesk month list [--offline] [--json]',
  options: [
    { name: 'offline', kind: 'boolean', description: "Never ask the service: the current month is this computer's (else the service's clock says which month is current)" },
  ],
  output: z.strictObject({
    months: z.array(z.strictObject({ month: z.string(), state: z.enum(['open', 'closed', 'reopened']), closedAt: z.string().nullable(), closedBy: z.string().nullable() })),
    events: z.array(
      z.strictObject({ month: z.string(), action: z.enum(['close', 'reopen']), at: z.string(), serviceAt: z.string(), by: z.string(), reason: z.string().nullable() }),
    ),
  }),
  async run(ctx) {
    const r = await ctx.call('monthEnd.months', { ask: ctx.args.options.offline !== true });
    return {
      json: { months: r.months, events: r.events },
      text: lines([textTable([['Month', 'State', 'Closed by'], ...r.months.map((m) => [m.month, m.state, m.closedBy ?? ''])])]),
    };
  },
});

const monthCloseCommand = command({
  path: ['month', 'close'],
  summary: 'Closes a month: its figures stay as they are; later changes are adjustments of the next open month',
  usage: 'vendesk month close YYYY-MM [--offline] [--json]',
  options: [OFFLINE_OPTION],
  output: z.strictObject({ month: z.string(), summary: summaryShape }),
  async run(ctx) {
    const month = monthArg(ctx.args, 'vendesk month close YYYY-MM');
    const r = await ctx.call('monthEnd.close', { month, unread: unreadOf(ctx.args) });
    return { json: { month, summary: summaryJson(r.summary) }, text: lines([tt`Closed ${month}.`, ...summaryLines(r.summary)]) };
  },
});

const monthReopenCommand = command({
  path: ['month', 'reopen'],
  summary: 'Reopens a closed month (audited, with the reason)',
  usage: 'vendesk month reopen YYYY-MM --reason TEXT [--json]',
  options: [{ name: 'reason', kind: 'string', description: 'Why it is reopened, e.g. "late vendor credit note, ticket 1234"' }],
  output: z.strictObject({ month: z.string(), reason: z.string() }),
  async run(ctx) {
    const month = monthArg(ctx.args, 'vendesk month reopen YYYY-MM --reason TEXT');
    const reason = requireOption(ctx.args, 'reason');
    await ctx.call('monthEnd.reopen', { month, reason });
    return { json: { month, reason }, text: tt`Reopened ${month}: ${reason}` };
  },
});

export const journalCommand = command({
  path: ['journal'],
  summary: "The month's balanced journal as CSV for Xero (manual journals), QuickBooks Online (journal entries), Sage (journals) or plain",
  usage: 'vendesk journal YYYY-MM --format xero|quickbooks|sage|plain --out FILE.csv [--offline]',
  options: [
    { name: 'format', kind: 'string', description: 'xero, quickbooks, sage or plain (Date, Account, Cost centre, Description, Debit, Credit)' },
    { name: 'out', kind: 'string', description: 'Write the journal here (.csv)' },
    FORCE_OPTION,
    OFFLINE_OPTION,
  ],
  output: z.strictObject({ file: z.string(), format: z.enum(JOURNAL_FORMATS), date: z.string(), lines: z.number(), debits: naira, credits: naira }),
  exitCodes: { 1: 'Not written: an account the map does not name (each listed), days not read, or the file could not be written' },
  async run(ctx) {
    const month = monthArg(ctx.args, 'vendesk journal YYYY-MM --format xero|quickbooks|sage|plain --out FILE.csv');
    const format = (stringOption(ctx.args, 'format') ?? 'plain') as JournalFormat;
    if (!(JOURNAL_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${JOURNAL_FORMATS.join(', ')}, got "${format}"`);
    const out = stringOption(ctx.args, 'out');
    if (out !== undefined && path.extname(out).toLowerCase() !== '.csv') throw new UsageError(`--out must end in .csv, got "${out}"`);
    const target = out === undefined ? null : outTarget(ctx.args, out, `journal ${month}.csv`);
    const j = await ctx.call('monthEnd.journal', { month, format, unread: unreadOf(ctx.args) });
    const file = target ? writeExportTo(j.path, target, ctx.args) : j.path;
    return {
      json: { file, format, date: j.date, lines: j.lines, debits: toNaira(j.debitKobo), credits: toNaira(j.creditKobo) },
      text: tt`Journal of ${month} (${format}, dated ${j.date}): ${file}\n${String(j.lines)} lines; debits ${formatNaira(j.debitKobo)} = credits ${formatNaira(j.creditKobo)}`,
    };
  },
});

const mappingShape = z.strictObject({ kind: z.enum(['expense', 'wallet', 'commission']), type: z.string(), costCentre: z.string(), account: z.string() });

/** `wallet CODE`, `commission CODE` or `TYPE COSTCENTRE CODE` (a cost centre of * is every one of the type). */
function mappingArgs(args: ParsedArgs, withAccount: boolean): AccountMapping {
  const p = args.positionals;
  const usage = withAccount
    ? 'vendesk accounts set wallet|commission CODE, or vendesk accounts set TYPE COSTCENTRE CODE'
    : 'vendesk accounts remove wallet|commission, or TYPE COSTCENTRE';
  const want = (n: number) => {
    if (p.length !== n) throw new UsageError(`Give ${n} value${n === 1 ? '' : 's'}: ${usage}`);
  };
  if (p[0] === 'wallet' || p[0] === 'commission') {
    want(withAccount ? 2 : 1);
    return { kind: p[0], type: '', costCentre: '', account: withAccount ? p[1] : '' };
  }
  want(withAccount ? 3 : 2);
  return { kind: 'expense', type: p[0], costCentre: p[1], account: withAccount ? p[2] : '' };
}

const accountsListCommand = command({
  path: ['accounts', 'list'],
  summary: 'The ledger account map the journal posts by',
  usage: 'vendesk accounts list [--json]',
  options: [],
  output: z.array(mappingShape),
  async run(ctx) {
    const list = await ctx.call('accounts.list', {});
    return {
      json: list,
      text:
        list.length === 0
          ? tt`No accounts mapped yet: vendesk accounts set wallet CODE, then one per type and cost centre.`
          : lines([textTable([['For', 'Cost centre', 'Account'], ...list.map((m) => [m.kind === 'expense' ? m.type : m.kind, m.costCentre, m.account])])]),
    };
  },
});

const accountsSetCommand = command({
  path: ['accounts', 'set'],
  summary: 'Maps a type and cost centre (* for every cost centre of it) to an expense account, or sets the wallet or commission account',
  usage: 'vendesk accounts set TYPE COSTCENTRE CODE | vendesk accounts set wallet|commission CODE',
  options: [],
  output: mappingShape,
  async run(ctx) {
    const saved = await ctx.call('accounts.set', mappingArgs(ctx.args, true));
    return { json: saved, text: tt`${saved.kind === 'expense' ? `${saved.type} / ${saved.costCentre}` : saved.kind} → ${saved.account}` };
  },
});

const accountsRemoveCommand = command({
  path: ['accounts', 'remove'],
  summary: 'Removes one account of the map',
  usage: 'vendesk accounts remove TYPE COSTCENTRE | vendesk accounts remove wallet|commission',
  options: [],
  output: z.strictObject({ removed: z.boolean() }),
  async run(ctx) {
    const { kind, type, costCentre } = mappingArgs(ctx.args, false);
    const r = await ctx.call('accounts.remove', { kind, type, costCentre });
    return { json: r, text: r.removed ? tt`Removed.` : tt`Nothing was mapped there.` };
  },
});

export const MONTH_END_COMMANDS = [
  closeCommand,
  monthListCommand,
  monthCloseCommand,
  monthReopenCommand,
  journalCommand,
  accountsListCommand,
  accountsSetCommand,
  accountsRemoveCommand,
];
