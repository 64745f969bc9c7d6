/**
 * `vendesk reconcile FILE [--from] [--to] [--out report.xlsx]`: a vendor export reconciled
 * against the mirror, vendesk's purchases and the wallet, through the same operations as the
 * Reconcile page. stdout is one JSON document (amounts in Naira); a readable summary goes to
 * stderr. Also `vendesk reconcile runs` and `vendesk report spend`.
 *
 * Longer than 400 lines on purpose: one declaration per command — its options, its JSON and what
 * it prints — in the order `vendesk --help` lists them; each is short, and the area reads as one.
 */
import { formatDateTime } from '../../shared/localDates';
import path from 'node:path';
import { z } from 'zod';
import {
  CATEGORY_LABELS,
  EXCEPTION_CATEGORIES,
  RECONCILE_CATEGORIES,
  type ReconcileCategory,
  type ReconcileItemView,
  type ReconcileRunView,
} from '../../shared/contract/reconcile';
import { formatNaira } from '../../shared/money';
import { faceAndCostText, messagingText, purchasesText, refundedText } from '../../shared/spendText';
import { cliText } from '../cliHints';
import { command, dateOption, dateRangeOptions, numberOption, requireOption, requirePositional, stringOption, UsageError } from '../cliCommand';
import { errorDocument, isoTime, naira, nairaOrNull } from '../jsonShape';
import { FORCE_OPTION, outTarget, writeExportTo } from '../outFile';
import { jsonText, lines, quoted, tableLines, tt, type TerminalText } from '../terminal';
import type { CostCentreSpend } from '../../shared/contract/reports';
import { periodLines } from './logsCommands';
import { OFFLINE_OPTION, periodJson, periodShape, readDaysFirst, syncProgressLine } from './readDaysFirst';

const toNaira = (kobo: number) => kobo / 100;

const toNairaOrNull = (kobo: number | null | undefined) => (kobo === null || kobo === undefined ? null : toNaira(kobo));

const rollForwardShape = z.strictObject({
  available: z.boolean(),
  note: z.string().nullable().describe('why it could not be made'),
  openingAt: isoTime.nullable(),
  closingAt: isoTime.nullable(),
  opening: nairaOrNull,
  successfulSpend: nairaOrNull,
  pendingSpend: nairaOrNull,
  failedDebits: nairaOrNull,
  refunds: nairaOrNull,
  messagingCharges: nairaOrNull,
  expectedClosing: nairaOrNull,
  closing: nairaOrNull,
  difference: nairaOrNull,
  missingRefunds: nairaOrNull,
  unexplained: nairaOrNull,
  balanceReadings: z.number(),
});

const categoryShape = z.strictObject({ count: z.number(), amount: naira });

/** The wallet roll-forward in Naira; every figure null when none could be made ("unknown" is never 0). */
export function rollForwardJson(rf: ReconcileRunView['rollForward']): z.infer<typeof rollForwardShape> {
  const made = rf?.available === true;
  const line = (kobo: number | undefined) => (made ? toNaira(kobo ?? 0) : null);
  return {
    available: made,
    note: cliText(rf?.note ?? (rf ? null : 'No roll-forward was made for this run.')),
    openingAt: rf?.openingAt ?? null,
    closingAt: rf?.closingAt ?? null,
    opening: toNairaOrNull(rf?.openingKobo),
    successfulSpend: line(rf?.successfulSpendKobo),
    pendingSpend: line(rf?.pendingSpendKobo),
    failedDebits: line(rf?.failedDebitsKobo),
    refunds: line(rf?.refundsKobo),
    messagingCharges: line(rf?.messagingKobo),
    expectedClosing: toNairaOrNull(rf?.expectedClosingKobo),
    closing: toNairaOrNull(rf?.closingKobo),
    difference: toNairaOrNull(rf?.differenceKobo),
    missingRefunds: line(rf?.missingRefundsKobo),
    unexplained: made ? toNairaOrNull(rf?.unexplainedKobo) : null,
    balanceReadings: rf?.snapshots ?? 0,
  };
}

const reconcileShape = z.strictObject({
  runId: z.string(),
  ...(Object.fromEntries(RECONCILE_CATEGORIES.map((c) => [c, categoryShape])) as Record<ReconcileCategory, typeof categoryShape>),
  unexplainedBalance: nairaOrNull.describe('Naira; null: no roll-forward'),
  rollForward: rollForwardShape,
});

/** The JSON of the issue: each category `{ count, amount }` in Naira, `unexplainedBalance` in Naira (null: no roll-forward). */
export function reconcileJson(run: ReconcileRunView): z.infer<typeof reconcileShape> {
  const c = (name: (typeof RECONCILE_CATEGORIES)[number]) => ({ count: run.totals[name].count, amount: toNaira(run.totals[name].amountKobo) });
  return {
    runId: run.id,
    matched: c('matched'),
    missingLocally: c('missingLocally'),
    missingInExport: c('missingInExport'),
    amountMismatch: c('amountMismatch'),
    statusMismatch: c('statusMismatch'),
    pending: c('pending'),
    lostSubmissions: c('lostSubmissions'),
    duplicateCharges: c('duplicateCharges'),
    missingRefunds: c('missingRefunds'),
    unexplainedBalance: run.rollForward?.available ? toNairaOrNull(run.rollForward.unexplainedKobo) : null,
    rollForward: rollForwardJson(run.rollForward),
  };
}

function summaryText(run: ReconcileRunView, out: string | null): TerminalText {
  const said = [tt`Reconciliation ${run.id}: ${run.parameters.from} to ${run.parameters.to}, ${quoted(run.inputs?.fileName ?? '')} (${run.inputs?.exportRows ?? 0} rows)`];
  for (const name of RECONCILE_CATEGORIES) {
    const t = run.totals[name];
    said.push(tt`  ${CATEGORY_LABELS[name].padEnd(40)} ${String(t.count).padStart(9)}  ${formatNaira(t.amountKobo)}`);
  }
  const rf = run.rollForward;
  said.push(
    rf?.available
      ? tt`  Wallet: opening ${formatNaira(rf.openingKobo ?? 0)}, purchases ${formatNaira(rf.successfulSpendKobo + rf.pendingSpendKobo + rf.failedDebitsKobo)}, refunds ${formatNaira(rf.refundsKobo)}, vendesk messaging ${formatNaira(rf.messagingKobo)}, expected closing ${formatNaira(rf.expectedClosingKobo ?? 0)}, closing ${formatNaira(rf.closingKobo ?? 0)}; unexplained ${formatNaira(rf.unexplainedKobo ?? 0)}`
      : tt`  Wallet roll-forward not available: ${rf?.note ?? ''}`,
  );
  if (out) said.push(tt`  Workbook: ${out}`);
  return lines(said);
}

export const reconcileCommand = command({
  path: ['reconcile'],
  summary: 'Reconcile a vendor-exported transaction log with the mirror, vendesk purchases and the wallet',
  usage: 'vendesk reconcile FILE [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out report.xlsx] [--sheet NAME] [--window MINUTES] [--offline]',
  options: [
    { name: 'from', kind: 'string', description: 'First day of the range, a Lagos day (default: the export’s first day)' },
    { name: 'to', kind: 'string', description: 'Last day of the range, a Lagos day, inclusive (default: the export’s last day)' },
    { name: 'out', kind: 'string', description: 'Also write the Excel workbook here' },
    FORCE_OPTION,
    { name: 'sheet', kind: 'string', description: 'Worksheet of an XLSX export (default: the first)' },
    { name: 'window', kind: 'string', description: 'Minutes apart the phone + amount + time rule accepts (default 15)' },
    OFFLINE_OPTION,
  ],
  output: reconcileShape,
  async run(ctx) {
    const file = requirePositional(ctx.args, 0, 'Name the vendor export: vendesk reconcile FILE');
    const { from, to } = dateRangeOptions(ctx.args, '--from is after --to; swap them');
    const out = stringOption(ctx.args, 'out');
    if (out) outTarget(ctx.args, out, 'reconciliation.xlsx');
    const sheet = stringOption(ctx.args, 'sheet');
    const window = numberOption(ctx.args, 'window');
    const app = await ctx.app();
    let last = 0;
    const unsubscribe = app.events.on('reconcile.progress', (p) => {
      const now = Date.now();
      if (now - last < 1000 && !p.stage.startsWith('Reading the days')) return;
      last = now;
      ctx.progress(p.stage);
    });
    // Days of the range the mirror has not read are read first (its progress here), or refused with --offline.
    const unsubscribeSync = app.events.on('sync.progress', (p) => {
      if (p.state === 'running' && p.pages > 0) ctx.progress(syncProgressLine(p));
    });
    let run: ReconcileRunView;
    try {
      run = await ctx.call('reconcile.start', {
        file: { path: path.resolve(file) },
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(sheet ? { sheet } : {}),
        ...(window !== undefined ? { matchWindowMinutes: window } : {}),
        unread: ctx.args.options.offline === true ? 'refuse' : 'read',
      });
    } finally {
      unsubscribe();
      unsubscribeSync();
    }
    let outPath: string | null = null;
    if (out) {
      const written = await ctx.call('reconcile.exportWorkbook', { runId: run.id });
      outPath = writeExportTo(written.path, out, ctx.args);
    }
    const json = reconcileJson(run);
    ctx.progress(summaryText(run, outPath));
    return { json, text: jsonText(json) };
  },
});

export const reconcileRunsCommand = command({
  path: ['reconcile', 'runs'],
  summary: 'List saved reconciliation runs, newest first',
  usage: 'vendesk reconcile runs [--json]',
  options: [],
  output: z.array(
    z.strictObject({
      runId: z.string(),
      state: z.enum(['running', 'done', 'failed', 'cancelled']),
      createdAt: isoTime,
      from: z.string(),
      to: z.string(),
      file: z.string(),
      matched: z.number(),
      exceptions: z.number(),
      exceptionsAmount: naira,
      unexplainedBalance: nairaOrNull,
    }),
  ),
  async run(ctx) {
    const runs = await ctx.call('reconcile.runs', { limit: 50 });
    const json = runs.map((r) => ({
      runId: r.id,
      state: r.state,
      createdAt: r.createdAt,
      from: r.from,
      to: r.to,
      file: r.fileName,
      matched: r.matched,
      exceptions: r.exceptions,
      exceptionsAmount: toNaira(r.exceptionsKobo),
      unexplainedBalance: r.unexplainedKobo === null ? null : toNaira(r.unexplainedKobo),
    }));
    const text =
      runs.length === 0
        ? tt`No reconciliation runs yet.`
        : lines(
            runs.map(
              (r) =>
                tt`${r.id}  ${formatDateTime(r.createdAt)}  ${r.from}..${r.to}  ${r.state}  ${r.matched} matched, ${r.exceptions} to look at (${formatNaira(r.exceptionsKobo)})  ${r.fileName}`,
            ),
          );
    return { json, text };
  },
});

const itemShape = z.strictObject({
  seq: z.number().describe('the number `reconcile resolve` takes'),
  category: z.enum(RECONCILE_CATEGORIES),
  rule: z.enum(['transaction_id', 'id', 'phone_amount_time']).nullable(),
  exportRow: z.number().nullable(),
  transactionId: z.string(),
  logId: z.number().nullable(),
  phone: z.string(),
  type: z.string(),
  product: z.string(),
  network: z.string(),
  createdAt: isoTime.nullable(),
  exportAmount: nairaOrNull,
  mirrorAmount: nairaOrNull,
  exportCost: nairaOrNull,
  mirrorCost: nairaOrNull,
  exportStatus: z.string().nullable(),
  mirrorStatus: z.string().nullable(),
  localRef: z.string().nullable(),
  localState: z.string().nullable(),
  amount: naira,
  detail: z.string(),
  resolvedAt: isoTime.nullable(),
  resolutionNote: z.string().nullable(),
  requeryStatus: z.string().nullable(),
  requeryAt: isoTime.nullable(),
});

function itemJson(i: ReconcileItemView): z.infer<typeof itemShape> {
  return {
    seq: i.seq,
    category: i.category,
    rule: i.rule,
    exportRow: i.exportRow,
    transactionId: i.transactionId,
    logId: i.logId,
    phone: i.phone,
    type: i.type,
    product: i.product,
    network: i.network,
    createdAt: i.createdAt,
    exportAmount: toNairaOrNull(i.exportAmountKobo),
    mirrorAmount: toNairaOrNull(i.mirrorAmountKobo),
    exportCost: toNairaOrNull(i.exportCostKobo),
    mirrorCost: toNairaOrNull(i.mirrorCostKobo),
    exportStatus: i.exportStatus,
    mirrorStatus: i.mirrorStatus,
    localRef: i.localRef,
    localState: i.localState,
    amount: toNaira(i.amountKobo),
    detail: cliText(i.detail),
    resolvedAt: i.resolvedAt,
    resolutionNote: i.resolutionNote,
    requeryStatus: i.requeryStatus,
    requeryAt: i.requeryAt,
  };
}

/** `--category missingLocally` (or missing-locally, missing_locally, MISSINGLOCALLY). */
function categoryOption(text: string): ReconcileCategory {
  const key = (s: string) => s.replace(/[-_\s]/g, '').toLowerCase();
  const found = RECONCILE_CATEGORIES.find((c) => key(c) === key(text));
  if (!found) throw new UsageError(`--category must be one of ${RECONCILE_CATEGORIES.join(', ')}; got "${text}"`);
  return found;
}

function runIdArg(args: Parameters<typeof requirePositional>[0]): string {
  return requirePositional(args, 0, 'Name the run: vendesk reconcile … RUN_ID (vendesk reconcile runs lists them)');
}

export const reconcileItemsCommand = command({
  path: ['reconcile', 'items'],
  summary: "A run's items to look at (every exception category, or one --category), with the seq numbers `reconcile resolve` takes",
  usage: 'vendesk reconcile items RUN_ID [--category NAME] [--search TEXT] [--limit N] [--offset N] [--json]',
  options: [
    { name: 'category', kind: 'string', description: `One category: ${RECONCILE_CATEGORIES.join(', ')} (default: every category but matched)` },
    { name: 'search', kind: 'string', description: 'Part of a phone number or transaction id' },
    { name: 'limit', kind: 'string', description: 'Items per category (1–1000, default 200)' },
    { name: 'offset', kind: 'string', description: 'Items of each category to skip first (default 0)' },
  ],
  output: z.strictObject({ runId: z.string(), total: z.number().describe('items of the categories listed, on all pages'), items: z.array(itemShape) }),
  async run(ctx) {
    const runId = runIdArg(ctx.args);
    const categoryText = stringOption(ctx.args, 'category');
    const categories = categoryText === undefined ? EXCEPTION_CATEGORIES : [categoryOption(categoryText)];
    const limit = numberOption(ctx.args, 'limit') ?? 200;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000, got "${limit}"`);
    const offset = numberOption(ctx.args, 'offset') ?? 0;
    if (!Number.isInteger(offset)) throw new UsageError(`--offset must be a whole number, got "${offset}"`);
    const search = stringOption(ctx.args, 'search');
    let total = 0;
    const items: ReconcileItemView[] = [];
    for (const category of categories) {
      const page = await ctx.call('reconcile.items', { runId, category, offset, limit, ...(search ? { search } : {}) });
      total += page.total;
      items.push(...page.items);
    }
    const text =
      items.length === 0
        ? tt`No items to look at in run ${runId}${categoryText ? ` (${categories[0]})` : ''}.`
        : lines([
            ...items.map(
              (i) =>
                tt`${String(i.seq).padStart(6)}  ${i.category.padEnd(16)} ${(i.phone || '—').padEnd(11)}  ${formatNaira(i.amountKobo).padStart(12)}  ${i.transactionId || '—'}${i.resolvedAt ? '  RESOLVED' : ''}\n        ${cliText(i.detail)}`,
            ),
            `${items.length} shown of ${total}. Resolve with: vendesk reconcile resolve ${runId} SEQ --note TEXT`,
          ]);
    return { json: { runId, total, items: items.map(itemJson) }, text };
  },
});

export const reconcileRequeryCommand = command({
  path: ['reconcile', 'requery'],
  summary: "Ask the service now about every pending item of a run (vendesk's own purchases through the pending loop, others by transaction id)",
  usage: 'vendesk reconcile requery RUN_ID [--json]',
  options: [],
  output: z.strictObject({
    runId: z.string(),
    queued: z.number(),
    success: z.number(),
    failed: z.number(),
    stillPending: z.number(),
    notChecked: z.number().describe('too early, provider unreachable or no reference'),
    notes: z.array(z.string()),
  }),
  async run(ctx) {
    const runId = runIdArg(ctx.args);
    const r = await ctx.call('reconcile.requeryPending', { runId });
    const text =
      r.queued === 0
        ? tt`Run ${runId} has no pending items to check.`
        : lines([`Checked ${r.queued} pending item(s): ${r.success} succeeded, ${r.failed} failed, ${r.stillPending} still pending, ${r.notChecked} not checked.`, ...r.notes]);
    return { json: { runId, ...r }, text };
  },
});

export const reconcileResolveCommand = command({
  path: ['reconcile', 'resolve'],
  summary: 'Mark items of a run resolved, with a note saying why (the seq numbers come from `reconcile items`)',
  usage: 'vendesk reconcile resolve RUN_ID SEQ [SEQ …] --note TEXT [--json]',
  options: [{ name: 'note', kind: 'string', description: 'Why it is resolved, e.g. "refund arrived 3 Dec, ticket 1234"' }],
  output: z.strictObject({ runId: z.string(), resolved: z.number(), seqs: z.array(z.number()) }),
  async run(ctx) {
    const runId = runIdArg(ctx.args);
    const seqTexts = ctx.args.positionals.slice(1);
    if (seqTexts.length === 0) throw new UsageError('Name the items: vendesk reconcile resolve RUN_ID SEQ [SEQ …] (vendesk reconcile items RUN_ID lists them)');
    const seqs = seqTexts.map((t) => {
      if (!/^[1-9]\d*$/.test(t)) throw new UsageError(`"${t}" is not an item number; item numbers are whole numbers from 1 (the seq of vendesk reconcile items)`);
      return Number(t);
    });
    const note = requireOption(ctx.args, 'note');
    const r = await ctx.call('reconcile.resolve', { runId, seqs, note });
    return { json: { runId, resolved: r.resolved, seqs }, text: tt`Resolved ${r.resolved} item(s) of run ${runId}: ${note}` };
  },
});

const spendFigures = z.strictObject({ purchases: z.number(), faceValue: naira, walletCost: naira, commission: naira });

interface CentreSpend {
  costCentre: string;
  total: Omit<CostCentreSpend, 'costCentre' | 'type'>;
  types: CostCentreSpend[];
}

/** The report's cost centre × type lines grouped by cost centre (in its order: Unassigned last), with each one's total, in kobo. */
function byCentre(lines: readonly CostCentreSpend[]): CentreSpend[] {
  const out: CentreSpend[] = [];
  for (const l of lines) {
    let centre = out[out.length - 1];
    if (centre?.costCentre !== l.costCentre) out.push((centre = { costCentre: l.costCentre, total: { purchases: 0, faceKobo: 0, costKobo: 0, commissionKobo: 0 }, types: [] }));
    centre.total.purchases += l.purchases;
    centre.total.faceKobo += l.faceKobo;
    centre.total.costKobo += l.costKobo;
    centre.total.commissionKobo += l.commissionKobo;
    centre.types.push(l);
  }
  return out;
}

const inNaira = (f: Omit<CostCentreSpend, 'costCentre' | 'type'>) => ({
  purchases: f.purchases,
  faceValue: f.faceKobo / 100,
  walletCost: f.costKobo / 100,
  commission: f.commissionKobo / 100,
});

function byCostCentreJson(lines: readonly CostCentreSpend[]) {
  return byCentre(lines).map((c) => ({ costCentre: c.costCentre, ...inNaira(c.total), types: c.types.map((t) => ({ type: t.type, ...inNaira(t) })) }));
}

/** The cost centre × type table of `report spend --by cost-centre`: each cost centre's types, then its total. */
function costCentreTable(lines: readonly CostCentreSpend[]): TerminalText[] {
  const figures = (f: Omit<CostCentreSpend, 'costCentre' | 'type'>) => [f.purchases, formatNaira(f.faceKobo), formatNaira(f.costKobo), formatNaira(f.commissionKobo)];
  const rows: (string | number)[][] = [['Cost centre', 'Type', 'Purchases', 'Face value', 'Wallet cost', 'Commission']];
  for (const c of byCentre(lines)) {
    for (const t of c.types) rows.push([c.costCentre, t.type, ...figures(t)]);
    if (c.types.length > 1) rows.push([c.costCentre, 'all types', ...figures(c.total)]);
  }
  return rows.length > 1 ? tableLines(rows) : [tt`No purchases in the range to split by cost centre.`];
}

export const spendReportCommand = command({
  path: ['report', 'spend'],
  summary: 'Spend by day, type, network and cost centre as an Excel workbook with a chart image beside it',
  usage: 'vendesk report spend --from YYYY-MM-DD --to YYYY-MM-DD [--by cost-centre] [--out spend.xlsx] [--offline]',
  options: [
    { name: 'from', kind: 'string', description: 'First day (a Lagos day)' },
    { name: 'to', kind: 'string', description: 'Last day (a Lagos day), inclusive' },
    { name: 'out', kind: 'string', description: 'Write the workbook here (the chart goes beside it)' },
    { name: 'by', kind: 'string', description: 'cost-centre: also show the spend of each cost centre and type (the workbook always has it)' },
    FORCE_OPTION,
    OFFLINE_OPTION,
  ],
  output: z.strictObject({
    workbook: z.string(),
    chart: z.string().nullable(),
    days: z.number(),
    purchases: z.number().describe('successful and pending purchases: what left the wallet'),
    faceValue: naira,
    walletCost: naira,
    commission: naira,
    refunded: z.strictObject({ count: z.number(), cost: naira.describe('what the wallet got back') }).describe('failed purchases, refunded: not counted above'),
    messaging: z
      .strictObject({
        sends: z.number(),
        messages: z.number().describe('one per recipient'),
        cost: naira.describe('Naira: what they cost the wallet'),
        uncertain: z.strictObject({ sends: z.number(), quotedCost: naira }).describe('sends whose answer was lost: not counted (they may not have been charged)'),
      })
      .describe('SMS, e-mail copies and one-time codes sent through vendesk, on their own line'),
    leftTheWallet: naira.describe('Naira: walletCost and messaging.cost together'),
    byCostCentre: z
      .array(spendFigures.extend({ costCentre: z.string(), types: z.array(spendFigures.extend({ type: z.string() })) }))
      .optional()
      .describe('with --by cost-centre: successful and pending purchases of each cost centre (Unassigned last) and of its types'),
    period: periodShape,
  }),
  async run(ctx) {
    const from = dateOption(ctx.args, 'from');
    const to = dateOption(ctx.args, 'to');
    if (!from || !to) throw new UsageError('--from and --to are required');
    const by = stringOption(ctx.args, 'by');
    if (by !== undefined && by !== 'cost-centre') throw new UsageError(`--by takes cost-centre, got "${by}"`);
    const out = stringOption(ctx.args, 'out');
    // The workbook and the chart beside it: both names are checked before the report is made.
    const workbookOut = out ? outTarget(ctx.args, out, 'spend.xlsx') : null;
    const chartOut = workbookOut ? outTarget(ctx.args, `${workbookOut.replace(/\.xlsx$/i, '')} chart.svg`, 'spend chart.svg') : null;
    // Never a total silently short: the days the mirror has not read are read first (or refused), then the report checks again.
    await readDaysFirst(ctx, { from, to }, 'report');
    const written = await ctx.call('reports.spend', { from, to, unread: 'refuse' });
    let file = written.path;
    let chart = written.chart?.path ?? null;
    if (workbookOut && chartOut) {
      file = writeExportTo(written.path, workbookOut, ctx.args);
      if (chart) chart = writeExportTo(chart, chartOut, ctx.args);
    }
    const t = written.totals;
    return {
      json: {
        workbook: file,
        chart,
        days: written.chart?.rows ?? 0,
        purchases: t.purchases,
        faceValue: t.faceKobo / 100,
        walletCost: t.costKobo / 100,
        commission: t.commissionKobo / 100,
        refunded: { count: t.refunded?.count ?? 0, cost: (t.refunded?.costKobo ?? 0) / 100 },
        messaging: {
          sends: t.messaging.sends,
          messages: t.messaging.messages,
          cost: t.messaging.costKobo / 100,
          uncertain: { sends: t.messaging.uncertain.sends, quotedCost: t.messaging.uncertain.quotedKobo / 100 },
        },
        leftTheWallet: t.walletKobo / 100,
        ...(by ? { byCostCentre: byCostCentreJson(written.byCostCentre) } : {}),
        period: periodJson(written.coverage),
      },
      text: lines([
        tt`Spend report: ${file}`,
        ...(chart ? [tt`Chart: ${chart}`] : []),
        `${purchasesText(t.purchases)}, successful and pending (Lagos days): ${faceAndCostText(t.faceKobo, t.costKobo)}${t.refunded?.count ? `; ${refundedText(t.refunded)}, not counted` : ''}`,
        messagingText(t.messaging),
        `Left the wallet: ${formatNaira(t.walletKobo)}`,
        ...(by ? [tt`Spend by cost centre (successful and pending purchases):`, ...costCentreTable(written.byCostCentre)] : []),
        ...periodLines(written.coverage),
      ]),
    };
  },
});

export const sandboxExportCommand = command({
  path: ['sandbox', 'export'],
  summary: "The built-in sandbox's log as a vendor export (the service's CSV export format), to try vendesk reconcile with",
  usage: 'vendesk sandbox export [--out FILE.csv] [--json]',
  options: [{ name: 'out', kind: 'string', description: 'Write the export here (.csv); without it, it stays in the exports folder' }, FORCE_OPTION],
  // On a LIVE connection it is refused (not_sandbox): that connection's export comes from the vendor.
  output: z.union([z.strictObject({ path: z.string(), rows: z.number(), bytes: z.number() }), errorDocument]),
  async run(ctx) {
    const out = stringOption(ctx.args, 'out');
    if (out !== undefined && path.extname(out).toLowerCase() !== '.csv') throw new UsageError(`--out must end in .csv, got "${out}"`);
    if (out !== undefined) outTarget(ctx.args, out, 'vendor export.csv');
    const written = await ctx.call('reconcile.sandboxExport', {});
    const file = out === undefined ? written.path : writeExportTo(written.path, out, ctx.args);
    return {
      json: { path: file, rows: written.rows, bytes: written.bytes },
      text: tt`Wrote the sandbox's log (${written.rows} transactions) as a vendor export to ${file}.\nReconcile it: vendesk reconcile "${file}"`,
    };
  },
});

export const RECONCILE_COMMANDS = [
  reconcileCommand,
  reconcileRunsCommand,
  reconcileItemsCommand,
  reconcileRequeryCommand,
  reconcileResolveCommand,
  spendReportCommand,
  sandboxExportCommand,
];
