/**
 * `vendesk reconcile FILE [--from] [--to] [--out report.xlsx]`: a vendor export reconciled
 * against the mirror, vendesk's purchases and the wallet, through the same operations as the
 * Reconcile page. stdout is one JSON document (amounts in Naira); a readable summary goes to
 * stderr. Also `vendesk reconcile runs` and `vendesk report spend`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CATEGORY_LABELS, RECONCILE_CATEGORIES, type ReconcileRunView } from '../../shared/contract/reconcile';
import { formatNaira } from '../../shared/money';
import { faceAndCostText, purchasesText } from '../../shared/spendText';
import { callOrThrow } from '../callOrThrow';
import { dateOption, dateRangeOptions, numberOption, requirePositional, stringOption, UsageError, type CliCommand } from '../cliCommand';

const naira = (kobo: number) => kobo / 100;

const nairaOrNull = (kobo: number | null | undefined) => (kobo === null || kobo === undefined ? null : naira(kobo));

/** The wallet roll-forward in Naira; every figure null when none could be made ("unknown" is never 0). */
export function rollForwardJson(rf: ReconcileRunView['rollForward']) {
  const made = rf?.available === true;
  const line = (kobo: number | undefined) => (made ? naira(kobo ?? 0) : null);
  return {
    available: made,
    note: rf?.note ?? (rf ? null : 'No roll-forward was made for this run.'),
    openingAt: rf?.openingAt ?? null,
    closingAt: rf?.closingAt ?? null,
    opening: nairaOrNull(rf?.openingKobo),
    successfulSpend: line(rf?.successfulSpendKobo),
    pendingSpend: line(rf?.pendingSpendKobo),
    failedDebits: line(rf?.failedDebitsKobo),
    refunds: line(rf?.refundsKobo),
    messagingCharges: line(rf?.messagingKobo),
    expectedClosing: nairaOrNull(rf?.expectedClosingKobo),
    closing: nairaOrNull(rf?.closingKobo),
    difference: nairaOrNull(rf?.differenceKobo),
    missingRefunds: line(rf?.missingRefundsKobo),
    unexplained: made ? nairaOrNull(rf?.unexplainedKobo) : null,
    balanceReadings: rf?.snapshots ?? 0,
  };
}

/** The JSON of the issue: each category `{ count, amount }` in Naira, `unexplainedBalance` in Naira (null: no roll-forward). */
export function reconcileJson(run: ReconcileRunView) {
  const c = (name: (typeof RECONCILE_CATEGORIES)[number]) => ({ count: run.totals[name].count, amount: naira(run.totals[name].amountKobo) });
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
    unexplainedBalance: run.rollForward?.available ? nairaOrNull(run.rollForward.unexplainedKobo) : null,
    rollForward: rollForwardJson(run.rollForward),
  };
}

function summaryText(run: ReconcileRunView, out: string | null): string {
  const lines = [`Reconciliation ${run.id}: ${run.parameters.from} to ${run.parameters.to}, ${run.inputs?.fileName ?? ''} (${run.inputs?.exportRows ?? 0} rows)`];
  for (const name of RECONCILE_CATEGORIES) {
    const t = run.totals[name];
    lines.push(`  ${CATEGORY_LABELS[name].padEnd(40)} ${String(t.count).padStart(9)}  ${formatNaira(t.amountKobo)}`);
  }
  const rf = run.rollForward;
  lines.push(
    rf?.available
      ? `  Wallet: opening ${formatNaira(rf.openingKobo ?? 0)}, purchases ${formatNaira(rf.successfulSpendKobo + rf.pendingSpendKobo + rf.failedDebitsKobo)}, refunds ${formatNaira(rf.refundsKobo)}, vendesk messaging ${formatNaira(rf.messagingKobo)}, expected closing ${formatNaira(rf.expectedClosingKobo ?? 0)}, closing ${formatNaira(rf.closingKobo ?? 0)}; unexplained ${formatNaira(rf.unexplainedKobo ?? 0)}`
      : `  Wallet roll-forward not available: ${rf?.note ?? ''}`,
  );
  if (out) lines.push(`  Workbook: ${out}`);
  return lines.join('\n');
}

export const reconcileCommand: CliCommand = {
  path: ['reconcile'],
  summary: 'Reconcile a vendor-exported transaction log with the mirror, vendesk purchases and the wallet',
  usage: 'vendesk reconcile FILE [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out report.xlsx] [--sheet NAME] [--window MINUTES]',
  options: [
    { name: 'from', kind: 'string', description: 'First day of the range (default: the export’s first day)' },
    { name: 'to', kind: 'string', description: 'Last day of the range, inclusive (default: the export’s last day)' },
    { name: 'out', kind: 'string', description: 'Also write the Excel workbook here' },
    { name: 'sheet', kind: 'string', description: 'Worksheet of an XLSX export (default: the first)' },
    { name: 'window', kind: 'string', description: 'Minutes apart the phone + amount + time rule accepts (default 15)' },
  ],
  async run(ctx) {
    const file = requirePositional(ctx.args, 0, 'Name the vendor export: vendesk reconcile FILE');
    const { from, to } = dateRangeOptions(ctx.args, '--from is after --to; swap them');
    const out = stringOption(ctx.args, 'out');
    const sheet = stringOption(ctx.args, 'sheet');
    const window = numberOption(ctx.args, 'window');
    const app = await ctx.app();
    let last = 0;
    const unsubscribe = app.events.subscribe((event) => {
      if (event.name !== 'reconcile.progress') return;
      const now = Date.now();
      if (now - last < 1000) return;
      last = now;
      ctx.progress((event.payload as { stage: string }).stage);
    });
    void ctx.interrupted.then(() => void callOrThrow(app, 'reconcile.cancel', {}));
    let run: ReconcileRunView;
    try {
      run = await callOrThrow(app, 'reconcile.start', {
        file: { path: path.resolve(file) },
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(sheet ? { sheet } : {}),
        ...(window !== undefined ? { matchWindowMinutes: window } : {}),
      });
    } finally {
      unsubscribe();
    }
    let outPath: string | null = null;
    if (out) {
      const written = await callOrThrow(app, 'reconcile.exportWorkbook', { runId: run.id });
      outPath = path.resolve(out);
      fs.copyFileSync(written.path, outPath);
    }
    const json = reconcileJson(run);
    ctx.progress(summaryText(run, outPath));
    return { json, text: JSON.stringify(json, null, 2) };
  },
};

export const reconcileRunsCommand: CliCommand = {
  path: ['reconcile', 'runs'],
  summary: 'List saved reconciliation runs, newest first',
  usage: 'vendesk reconcile runs [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const runs = await callOrThrow(app, 'reconcile.runs', { limit: 50 });
    const json = runs.map((r) => ({ runId: r.id, state: r.state, createdAt: r.createdAt, from: r.from, to: r.to, file: r.fileName, matched: r.matched, exceptions: r.exceptions, exceptionsAmount: naira(r.exceptionsKobo), unexplainedBalance: r.unexplainedKobo === null ? null : naira(r.unexplainedKobo) }));
    const text = runs.length === 0 ? 'No reconciliation runs yet.' : runs.map((r) => `${r.id}  ${r.createdAt.slice(0, 16)}  ${r.from}..${r.to}  ${r.state}  ${r.matched} matched, ${r.exceptions} to look at (${formatNaira(r.exceptionsKobo)})  ${r.fileName}`).join('\n');
    return { json, text };
  },
};

export const spendReportCommand: CliCommand = {
  path: ['report', 'spend'],
  summary: 'Spend by day, type and network as an Excel workbook with a chart image beside it',
  usage: 'vendesk report spend --from YYYY-MM-DD --to YYYY-MM-DD [--out spend.xlsx]',
  options: [
    { name: 'from', kind: 'string', description: 'First day' },
    { name: 'to', kind: 'string', description: 'Last day, inclusive' },
    { name: 'out', kind: 'string', description: 'Write the workbook here (the chart goes beside it)' },
  ],
  async run(ctx) {
    const from = dateOption(ctx.args, 'from');
    const to = dateOption(ctx.args, 'to');
    if (!from || !to) throw new UsageError('--from and --to are required');
    const app = await ctx.app();
    const written = await callOrThrow(app, 'reports.spend', { from, to });
    let file = written.path;
    let chart = written.chart?.path ?? null;
    const out = stringOption(ctx.args, 'out');
    if (out) {
      file = path.resolve(out);
      fs.copyFileSync(written.path, file);
      if (chart) {
        const chartOut = file.replace(/\.xlsx$/i, '') + ' chart.svg';
        fs.copyFileSync(chart, chartOut);
        chart = chartOut;
      }
    }
    const t = written.totals;
    return {
      json: { workbook: file, chart, days: written.chart?.rows ?? 0, purchases: t.purchases, faceValue: t.faceKobo / 100, walletCost: t.costKobo / 100, commission: t.commissionKobo / 100 },
      text: `Spend report: ${file}${chart ? `\nChart: ${chart}` : ''}\n${purchasesText(t.purchases)}, successful: ${faceAndCostText(t.faceKobo, t.costKobo)}`,
    };
  },
};

export const RECONCILE_COMMANDS: CliCommand[] = [reconcileCommand, reconcileRunsCommand, spendReportCommand];
