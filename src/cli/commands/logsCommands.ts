/**
 * `vendesk sync`, `vendesk logs`, `vendesk export logs`, `vendesk catalog`: the log mirror and the
 * catalogs from the command line (nightly sync, scripted exports). Amounts in the JSON are Naira.
 */
import path from 'node:path';
import { z } from 'zod';
import { reversedDatesMessage, type LogFilter, type LogTotals, type MirrorCoverage, type MirrorRow } from '../../shared/contract/logs';
import { formatNaira, nairaToKobo } from '../../shared/money';
import { formatDateTime } from '../../shared/localDates';
import { lines, stdoutTaken, textTable, tt, type TerminalText } from '../terminal';
import { iterateLogRows } from '../../main/transactions/logQuery';
import { faceAndCostText, refundedText } from '../../shared/spendText';
import { FORCE_OPTION, outTarget, writeExportTo } from '../outFile';
import { UsageError, command, dateRangeOptions, numberOption, requireOption, stringOption, type CliContext, type OptionSpec } from '../cliCommand';
import { isoTime, naira } from '../jsonShape';
import { periodNotes, periodText } from '../../shared/coverageText';
import { noteWholeLog, OFFLINE_OPTION, periodJson, periodShape, readDaysFirst, syncProgressLine } from './readDaysFirst';

const FILTER_OPTIONS: OptionSpec[] = [
  { name: 'status', kind: 'string', description: 'success, failed or pending' },
  { name: 'type', kind: 'string', description: 'airtime, data, electricity or cable' },
  { name: 'network', kind: 'string', description: 'MTN, GLO, AIRTEL, 9MOBILE, or a disco or cable provider (IKEDC, DSTV)' },
  { name: 'search', kind: 'string', description: 'Part of a phone number or transaction id' },
  { name: 'from', kind: 'string', description: 'First day, YYYY-MM-DD (a Lagos day)' },
  { name: 'to', kind: 'string', description: 'Last day, YYYY-MM-DD (a Lagos day)' },
];

function filterOf(ctx: CliContext): LogFilter {
  const status = stringOption(ctx.args, 'status')?.toUpperCase();
  if (status !== undefined && status !== 'SUCCESS' && status !== 'FAILED' && status !== 'PENDING') {
    throw new UsageError(`--status must be success, failed or pending, got "${status.toLowerCase()}"`);
  }
  const typeText = stringOption(ctx.args, 'type')?.toUpperCase();
  const type = typeText === 'CABLE' ? 'CABLETV' : typeText;
  if (type !== undefined && type !== 'AIRTIME' && type !== 'DATA' && type !== 'ELECTRICITY' && type !== 'CABLETV') {
    throw new UsageError(`--type must be airtime, data, electricity or cable, got "${typeText?.toLowerCase()}"`);
  }
  const { from, to } = dateRangeOptions(ctx.args, reversedDatesMessage);
  return { status, type, network: stringOption(ctx.args, 'network'), search: stringOption(ctx.args, 'search'), from, to };
}

const entryShape = z.strictObject({
  id: z.number(),
  transactionId: z.string(),
  partnerReference: z.string(),
  phoneNumber: z.string(),
  amount: naira,
  cost: naira,
  commission: naira,
  type: z.string(),
  network: z.string(),
  status: z.string(),
  description: z.string(),
  dataPlan: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** Refunded (FAILED) entries, apart from the spend: `cost` is what the wallet got back. */
const refundedShape = z.strictObject({ count: z.number(), amount: naira, cost: naira.describe('what the wallet got back') });

function refundedJson(r: LogTotals['refunded']): z.infer<typeof refundedShape> {
  return { count: r.count, amount: r.amountKobo / 100, cost: r.costKobo / 100 };
}

/** The period of a listing or an export, as a person reads it. */
export function periodLines(c: MirrorCoverage): string[] {
  return [`Period: ${periodText(c)}.`, ...periodNotes(c)];
}

/** What left the wallet, and what came back apart. */
function spendLine(t: LogTotals): string {
  const refunded = refundedText(t.refunded);
  return `${faceAndCostText(t.amountKobo, t.costKobo)} · Commission ${formatNaira(t.commissionKobo)}${refunded ? `; ${refunded}, not counted` : ''}`;
}

function rowJson(r: MirrorRow): z.infer<typeof entryShape> {
  return {
    id: r.id,
    transactionId: r.transactionId,
    partnerReference: r.partnerReference,
    phoneNumber: r.phoneNumber,
    amount: r.amountKobo / 100,
    cost: r.costKobo / 100,
    commission: r.commissionKobo / 100,
    type: r.type,
    network: r.network,
    status: r.status,
    description: r.description,
    dataPlan: r.dataPlan,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const syncCommand = command({
  path: ['sync'],
  summary: 'Sync the vending log into the local mirror',
  usage: 'vendesk sync [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]',
  options: [
    { name: 'from', kind: 'string', description: 'First day to read, a Lagos day (default: the recent days not yet final, or everything on a first sync)' },
    { name: 'to', kind: 'string', description: 'Last day to read, a Lagos day' },
  ],
  output: z.strictObject({
    fetched: z.number(),
    inserted: z.number(),
    updated: z.number(),
    pages: z.number(),
    resumed: z.boolean().describe('whether it continued a sync that was stopped'),
  }),
  async run(ctx) {
    const { from, to } = dateRangeOptions(ctx.args, reversedDatesMessage);
    const app = await ctx.app();
    const stop = app.events.on('sync.progress', (p) => {
      if (p.state === 'running' && p.pages > 0) ctx.progress(syncProgressLine(p));
    });
    try {
      // Ctrl-C cancels the call: the pages fetched are saved, and the next sync carries on after them.
      const r = await ctx.call('sync.run', { from, to });
      return {
        json: { fetched: r.fetched, inserted: r.inserted, updated: r.updated, pages: r.pages, resumed: r.resumed },
        text: tt`Synced ${r.fetched} entries in ${r.pages} pages: ${r.inserted} new, ${r.updated} changed${r.resumed ? ' (continued an interrupted sync)' : ''}.`,
      };
    } finally {
      stop();
    }
  },
});

function entryLine(r: MirrorRow): TerminalText {
  return tt`${formatDateTime(r.createdAt).padEnd(18)}  ${r.status.padEnd(7)}  ${r.type.padEnd(11)}  ${r.network.padEnd(9)}  ${r.phoneNumber.padEnd(11)}  ${formatNaira(r.amountKobo).padStart(14)}  ${r.transactionId}`;
}

/**
 * `vendesk logs --all`: every matching entry, newest first, read from the mirror a chunk at a time
 * by key (`iterateLogRows`) and printed as it is read, waiting for stdout when a slow reader (a
 * pipe) has not taken the last chunk: a month of millions of entries in constant memory.
 */
async function printEveryEntry(ctx: CliContext, filter: LogFilter): Promise<number> {
  const app = await ctx.app();
  let shown = 0;
  let chunk: TerminalText[] = [];
  const flush = async () => {
    if (chunk.length > 0) ctx.stdout(lines(chunk));
    chunk = [];
    await stdoutTaken();
  };
  for (const r of iterateLogRows(app.db, app.connection.profileId, filter, 'time_desc')) {
    chunk.push(entryLine(r));
    shown++;
    if (chunk.length === 500) {
      await flush();
      if (ctx.signal.aborted) break;
    }
  }
  await flush();
  return shown;
}

export const logsCommand = command({
  path: ['logs'],
  summary: 'List vending log entries from the local mirror (newest first)',
  usage: 'vendesk logs [--status S] [--type T] [--network N] [--search TEXT] [--from D] [--to D] [--offline] [--limit N | --all] [--json]',
  options: [
    ...FILTER_OPTIONS,
    OFFLINE_OPTION,
    { name: 'limit', kind: 'string', description: 'At most N entries (default 50, up to 1000)' },
    { name: 'all', kind: 'boolean', description: 'Every matching entry (a month of them, say), each printed as it is read, in text' },
  ],
  output: z.strictObject({
    period: periodShape.nullable().describe('with --from or --to: the days listed (days the mirror had not read are read first)'),
    total: z.number().describe('entries matching, refunded ones included'),
    amount: naira.describe('face value of the successful and pending entries'),
    cost: naira.describe('wallet cost of the successful and pending entries: what left the wallet'),
    commission: naira,
    refunded: refundedShape,
    entries: z.array(entryShape),
  }),
  async run(ctx) {
    const filter = filterOf(ctx);
    const all = ctx.args.options.all === true;
    if (all && ctx.json) throw new UsageError('--all prints every entry as text; for every entry as data, use vendesk export logs --out FILE.csv');
    if (all && ctx.args.options.limit !== undefined) throw new UsageError('--all and --limit cannot be used together; leave out one');
    const limit = numberOption(ctx.args, 'limit') ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
    // Over days: never a listing silently short of days the mirror has not read.
    const coverage = filter.from || filter.to ? await readDaysFirst(ctx, { from: filter.from, to: filter.to }, 'listing') : null;
    if (!coverage) await noteWholeLog(ctx);
    const totals = await ctx.call('logs.totals', { filter });
    const shown = all ? await printEveryEntry(ctx, filter) : null;
    const page = all ? { rows: [] } : await ctx.call('logs.query', { filter, sort: 'time_desc', offset: 0, limit });
    const entries = page.rows.map(entryLine);
    return {
      json: {
        period: coverage ? periodJson(coverage) : null,
        total: totals.count,
        amount: totals.amountKobo / 100,
        cost: totals.costKobo / 100,
        commission: totals.commissionKobo / 100,
        refunded: refundedJson(totals.refunded),
        entries: page.rows.map(rowJson),
      },
      text: lines([
        ...entries,
        `${shown ?? page.rows.length} shown of ${totals.count} matching (times in Lagos); ${spendLine(totals)}.`,
        ...(coverage ? periodLines(coverage) : []),
      ]),
    };
  },
});

export const exportLogsCommand = command({
  path: ['export', 'logs'],
  summary: 'Export the mirrored vending log (filtered) to XLSX or CSV',
  usage: 'vendesk export logs --out FILE.xlsx|FILE.csv [--status S] [--type T] [--network N] [--search TEXT] [--from D] [--to D] [--offline]',
  options: [{ name: 'out', kind: 'string', description: 'File to write; .xlsx or .csv' }, FORCE_OPTION, ...FILTER_OPTIONS, OFFLINE_OPTION],
  output: z.strictObject({
    path: z.string(),
    rows: z.number(),
    bytes: z.number(),
    amount: naira,
    cost: naira,
    commission: naira,
    refunded: refundedShape,
    period: periodShape.nullable().describe('with --from or --to: the days exported (days the mirror had not read are read first)'),
  }),
  async run(ctx) {
    const out = requireOption(ctx.args, 'out');
    const filter = filterOf(ctx);
    outTarget(ctx.args, out, 'vending log.xlsx');
    const ext = path.extname(out).toLowerCase();
    if (ext !== '.xlsx' && ext !== '.csv') throw new UsageError('--out must end in .xlsx or .csv');
    // Over days: the days the mirror has not read are read first (or refused); the export then checks again.
    const ranged = Boolean(filter.from || filter.to);
    if (ranged) await readDaysFirst(ctx, { from: filter.from, to: filter.to }, 'export');
    else await noteWholeLog(ctx);
    const file = await ctx.call('logs.export', { filter, sort: 'time_desc', format: ext === '.xlsx' ? 'xlsx' : 'csv', unread: 'refuse' });
    const written = writeExportTo(file.path, out, ctx.args);
    return {
      json: {
        path: written,
        rows: file.rows,
        bytes: file.bytes,
        amount: file.totals.amountKobo / 100,
        cost: file.totals.costKobo / 100,
        commission: file.totals.commissionKobo / 100,
        refunded: refundedJson(file.totals.refunded),
        period: file.coverage ? periodJson(file.coverage) : null,
      },
      text: lines([tt`Wrote ${file.rows} entries to ${written} (${spendLine(file.totals)}).`, ...(file.coverage ? periodLines(file.coverage) : [])]),
    };
  },
});

const CATALOG_KINDS = ['airtime', 'data', 'cable', 'electricity'] as const;

const networkShape = z.enum(['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE']);

/** The catalogs as the service lists them (its amounts are Naira). */
const catalogShape = z.union([
  z
    .array(
      z.strictObject({
        id: z.number(),
        network: networkShape,
        operator: z.string(),
        region: z.string(),
        productCode: z.string(),
        productGroup: z.string(),
        voucherCode: z.string(),
        minAmount: naira,
        maxAmount: naira,
        networkLogo: z.string(),
      }),
    )
    .describe('airtime'),
  z
    .array(
      z.strictObject({
        id: z.number(),
        network: networkShape,
        operator: z.string(),
        productCode: z.string(),
        productGroup: z.string(),
        voucherCode: z.string(),
        description: z.string(),
        amount: naira,
        dataValue: z.number(),
        networkLogo: z.string(),
      }),
    )
    .describe('data'),
  z.array(z.strictObject({ id: z.number(), network: z.string(), productCode: z.string(), description: z.string(), amount: naira, percentage: z.number() })).describe('cable'),
  z
    .array(z.strictObject({ id: z.number(), name: z.string(), productCode: z.string(), description: z.string(), minAmount: naira, maxAmount: naira, percentage: z.number() }))
    .describe('electricity'),
]);

/** A catalog's Naira amount as the window writes it: `₦1,500.00`. */
const money = (naira: number) => formatNaira(nairaToKobo(naira));

/** Amounts read down a column: each padded on the left to the widest. */
function rightAligned(values: string[]): string[] {
  const width = Math.max(0, ...values.map((v) => v.length));
  return values.map((v) => v.padStart(width));
}

export const catalogCommand = command({
  path: ['catalog'],
  summary: 'Show a catalog with the codes a purchase sends',
  usage: 'vendesk catalog airtime|data|cable|electricity [--network X] [--refresh] [--json]',
  options: [
    { name: 'network', kind: 'string', description: 'Only this network (data, airtime) or provider (cable)' },
    { name: 'refresh', kind: 'boolean', description: 'Read the catalog from the service again' },
  ],
  output: catalogShape,
  async run(ctx) {
    const kind = ctx.args.positionals[0];
    if (!CATALOG_KINDS.includes(kind as (typeof CATALOG_KINDS)[number])) throw new UsageError('Name the catalog: vendesk catalog airtime|data|cable|electricity');
    const network = stringOption(ctx.args, 'network')?.toUpperCase();
    const wanted = network === 'GLO' ? 'GLOBACOM' : network;
    const c = await ctx.call(ctx.args.options.refresh === true ? 'catalog.refresh' : 'catalog.get', {});
    const match = (n: string) => !wanted || n.toUpperCase() === wanted;
    switch (kind) {
      case 'airtime': {
        const items = c.airtime.filter((p) => match(p.network));
        const ranges = rightAligned(items.map((p) => `${money(p.minAmount)} – ${money(p.maxAmount)}`));
        return { json: items, text: textTable(items.map((p, i) => [p.network, p.productCode, ranges[i], p.voucherCode ? `voucher ${p.voucherCode}` : ''])) };
      }
      case 'data': {
        const items = c.data.filter((p) => match(p.network));
        const amounts = rightAligned(items.map((p) => money(p.amount)));
        return { json: items, text: textTable(items.map((p, i) => [p.network, p.productCode, amounts[i], p.description])) };
      }
      case 'cable': {
        const items = c.cable.filter((p) => match(p.network));
        const amounts = rightAligned(items.map((p) => money(p.amount)));
        return { json: items, text: textTable(items.map((p, i) => [p.network, p.productCode, amounts[i], p.description])) };
      }
      default: {
        const items = c.electricity;
        const ranges = rightAligned(items.map((p) => `${money(p.minAmount)} – ${money(p.maxAmount)}`));
        return { json: items, text: textTable(items.map((p, i) => [p.productCode, p.name, ranges[i]])) };
      }
    }
  },
});

export const LOGS_COMMANDS = [syncCommand, logsCommand, exportLogsCommand, catalogCommand];
