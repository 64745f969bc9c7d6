/**
 * Spend for a range of Lagos days from the local mirror — what left the wallet: successful and
 * pending purchases, as the Transactions totals, the Dashboard and `vendesk logs` count it;
 * failures were refunded and are stated apart — by day, by type, by network and by day and type, as one
 * workbook through the one exporter, with a bar chart of the daily wallet cost beside it as an SVG
 * image (the exporter streams rows and has no charts; an SVG opens in any browser and pastes into
 * Excel or Word).
 *
 * Every line carries both figures of the log: the face value (`amount`, what the customers
 * received) and the wallet cost (`transaction_cost`, what the wallet was charged), with the
 * commission the log records. vendesk's own messaging (SMS, e-mail copies, one-time codes) took from
 * the wallet too: the Summary gives it on its own line, and what left the wallet with it.
 */
import { writePrivateFile } from '../privateFiles';
import type { ReadableDB } from '../store/readableDb';
import { writeTableXlsx, type ExportColumn } from '../exports';
import { formatNaira } from '../../shared/money';
import { lagosDaySql, lagosRangeIso } from '../../shared/localDates';
import { faceAndCostText, purchasesText, refundedText } from '../../shared/spendText';
import type { SpendReportTotals } from '../../shared/contract/reports';
import { messagingSpend } from '../messaging/messagingSpend';
import type { MirrorCoverage } from '../../shared/contract/logs';
import { periodNotes } from '../../shared/coverageText';
import { spendByCostCentre, type CostCentreSpendLine } from '../costCentres/logCostCentres';

/** One line of a table of the report: the purchases of a day, type or network. */
export interface SpendLine {
  key: string;
  purchases: number;
  faceKobo: number;
  costKobo: number;
  commissionKobo: number;
}

export interface SpendReport {
  from: string;
  to: string;
  /** What the mirror held of the days when the report was made (the workbook states it); null: not known. */
  coverage: MirrorCoverage | null;
  byDay: SpendLine[];
  byType: SpendLine[];
  byNetwork: SpendLine[];
  byDayAndType: (SpendLine & { type: string })[];
  /** By cost centre and type (src/main/costCentres/logCostCentres.ts: own purchase, recipients list, else Unassigned). */
  byCostCentreAndType: CostCentreSpendLine[];
  total: SpendReportTotals;
}

function range(from: string, to: string): [string, string] {
  const { fromIso, untilIso } = lagosRangeIso(from, to);
  return [fromIso ?? '', untilIso ?? ''];
}

const SUMS = 'count(*) AS purchases, COALESCE(sum(amount_kobo), 0) AS faceKobo, COALESCE(sum(cost_kobo), 0) AS costKobo, COALESCE(sum(commission_kobo), 0) AS commissionKobo';

export function spendReport(db: ReadableDB, profileId: string, from: string, to: string, coverage: MirrorCoverage | null = null): SpendReport {
  const [start, end] = range(from, to);
  const inRange = 'profile_id = ? AND created_at >= ? AND created_at < ?';
  const where = `${inRange} AND status IN ('SUCCESS', 'PENDING')`;
  const day = lagosDaySql('created_at');
  const group = (expr: string) =>
    db.prepare(`SELECT ${expr} AS key, ${SUMS} FROM log_entries WHERE ${where} GROUP BY key ORDER BY key`).all(profileId, start, end) as SpendLine[];
  const byDayAndType = db
    .prepare(`SELECT ${day} AS key, type, ${SUMS} FROM log_entries WHERE ${where} GROUP BY key, type ORDER BY key, type`)
    .all(profileId, start, end) as (SpendLine & { type: string })[];
  const spent = db.prepare(`SELECT ${SUMS} FROM log_entries WHERE ${where}`).get(profileId, start, end) as Omit<SpendLine, 'key'>;
  const refunded = db
    .prepare(`SELECT count(*) AS count, COALESCE(sum(cost_kobo), 0) AS costKobo FROM log_entries WHERE ${inRange} AND status = 'FAILED'`)
    .get(profileId, start, end) as { count: number; costKobo: number };
  // vendesk's own messaging took from the wallet too: its own line, in what left the wallet.
  const messaging = messagingSpend(db, profileId, start, end);
  const total: SpendReportTotals = { ...spent, refunded, messaging, walletKobo: spent.costKobo + messaging.costKobo };
  const byCostCentreAndType = spendByCostCentre(db, profileId, start, end);
  return { from, to, coverage, byDay: group(day), byType: group('type'), byNetwork: group('network'), byDayAndType, byCostCentreAndType, total };
}

const FIGURE_COLUMNS: ExportColumn[] = [
  { header: 'Purchases', kind: 'integer' },
  { header: 'Face value (₦)', kind: 'naira' },
  { header: 'Wallet cost (₦)', kind: 'naira' },
  { header: 'Commission earned (₦)', kind: 'naira' },
];

const figures = (l: Omit<SpendLine, 'key'>): unknown[] => [l.purchases, l.faceKobo, l.costKobo, l.commissionKobo];

export const SPEND_SUMMARY_COLUMNS: ExportColumn[] = [{ header: 'Item', kind: 'text', width: 44 }, { header: 'Day (Lagos)', kind: 'date' }, ...FIGURE_COLUMNS];

/** The Summary sheet: the range (as dates), the totals (as numbers), and what the two figures mean. */
export function spendSummaryRows(report: SpendReport): unknown[][] {
  const m = report.total.messaging;
  return [
    ['From', report.from, null, null, null, null],
    ['To (inclusive)', report.to, null, null, null, null],
    ['Successful and pending purchases', null, ...figures(report.total)],
    ['Refunded (failed) purchases, not counted: what the wallet got back', null, report.total.refunded?.count ?? 0, null, report.total.refunded?.costKobo ?? 0, null],
    ['Messaging sent through vendesk (SMS, e-mail copies, one-time codes): messages and their cost', null, m.messages, null, m.costKobo, null],
    ['What left the wallet: purchases and messaging', null, null, null, report.total.walletKobo, null],
    ...(m.uncertain.sends > 0
      ? [['Messages whose answer was lost, not counted (they may not have been charged): sends and their quoted cost', null, m.uncertain.sends, null, m.uncertain.quotedKobo, null]]
      : []),
    ['Face value: what the customers received (the log’s amount).'],
    ['Wallet cost: what the wallet was charged (the log’s transaction_cost).'],
    ['Spend is what left the wallet: successful and pending purchases, and the messages vendesk sent. Failed purchases were refunded and are shown apart, never counted.'],
    [
      'Messaging is what vendesk sent, at what the service said each send cost (else the quoted cost): the service lists no messaging charges, so messages sent outside vendesk are not in it.',
    ],
    ['Cost centre: the one recorded on vendesk’s own purchase, else the recipients list’s for the meter, smartcard or phone, else Unassigned.'],
    ['Days are Lagos days (Africa/Lagos, UTC+1); the service’s UTC times are converted.'],
    // The period the figures cover: read completely, today up to when, days not come yet (or, if ever, what is missing).
    ...(report.coverage ? periodNotes(report.coverage).map((note) => [`Period: ${note}`]) : []),
  ];
}

export async function writeSpendWorkbook(report: SpendReport, file: string): Promise<{ rows: number; bytes: number }> {
  const lines = (first: ExportColumn, rows: SpendLine[]) => ({ columns: [first, ...FIGURE_COLUMNS], rows: rows.map((l) => [l.key, ...figures(l)]) });
  return writeTableXlsx(file, [
    { name: 'Summary', columns: SPEND_SUMMARY_COLUMNS, rows: spendSummaryRows(report), freezeHeader: false, autoFilter: false, printOnePageWide: true },
    { name: 'By day', ...lines({ header: 'Day', kind: 'date' }, report.byDay) },
    { name: 'By type', ...lines({ header: 'Type', kind: 'text' }, report.byType) },
    { name: 'By network', ...lines({ header: 'Network', kind: 'text' }, report.byNetwork) },
    {
      name: 'By day and type',
      columns: [{ header: 'Day', kind: 'date' }, { header: 'Type', kind: 'text' }, ...FIGURE_COLUMNS],
      rows: report.byDayAndType.map((l) => [l.key, l.type, ...figures(l)]),
    },
    {
      name: 'By cost centre and type',
      columns: [{ header: 'Cost centre', kind: 'text', width: 28 }, { header: 'Type', kind: 'text' }, ...FIGURE_COLUMNS],
      rows: report.byCostCentreAndType.map((l) => [l.costCentre, l.type, ...figures(l)]),
    },
  ]);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

const TYPE_COLOURS: Record<string, string> = { AIRTIME: '#228be6', DATA: '#40c057', ELECTRICITY: '#fab005', CABLETV: '#be4bdb' };

/** A stacked bar chart of the wallet cost per day, by type, as SVG, with both totals above it. */
export function spendChartSvg(report: SpendReport): string {
  const days = report.byDay.map((d) => d.key);
  const types = [...new Set(report.byDayAndType.map((l) => l.type))].sort();
  const width = Math.max(640, 80 + days.length * 28);
  const height = 420;
  const left = 90;
  const bottom = 70;
  const top = 50;
  const plotH = height - top - bottom;
  const max = Math.max(1, ...report.byDay.map((d) => d.costKobo));
  const barW = Math.max(6, Math.min(40, (width - left - 20) / Math.max(1, days.length) - 6));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Arial, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${escapeXml(`Spend by day, ${report.from} to ${report.to} (wallet cost, successful and pending purchases, Lagos days)`)}</text>`,
    `<text x="${left}" y="40" fill="#555">${escapeXml([`${faceAndCostText(report.total.faceKobo, report.total.costKobo)} · ${purchasesText(report.total.purchases)}`, report.total.refunded ? refundedText(report.total.refunded) : ''].filter(Boolean).join(' · '))}</text>`,
  ];
  for (let g = 0; g <= 4; g++) {
    const v = (max * g) / 4;
    const y = top + plotH - (plotH * g) / 4;
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y}" y2="${y}" stroke="#e9ecef"/>`);
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" fill="#555">${escapeXml(formatNaira(Math.round(v)))}</text>`);
  }
  days.forEach((day, i) => {
    const x = left + 6 + i * (barW + 6);
    let y = top + plotH;
    for (const type of types) {
      const line = report.byDayAndType.find((l) => l.key === day && l.type === type);
      if (!line) continue;
      const h = (plotH * line.costKobo) / max;
      y -= h;
      parts.push(`<rect x="${x}" y="${y.toFixed(1)}" width="${barW}" height="${h.toFixed(1)}" fill="${TYPE_COLOURS[type] ?? '#868e96'}"><title>${escapeXml(`${day} ${type}: ${formatNaira(line.costKobo)}`)}</title></rect>`);
    }
    parts.push(`<text transform="translate(${x + barW / 2},${top + plotH + 10}) rotate(60)" fill="#555">${escapeXml(day.slice(5))}</text>`);
  });
  types.forEach((type, i) => {
    const x = left + i * 120;
    parts.push(`<rect x="${x}" y="${height - 18}" width="10" height="10" fill="${TYPE_COLOURS[type] ?? '#868e96'}"/><text x="${x + 14}" y="${height - 9}">${escapeXml(type)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

export function writeSpendChart(report: SpendReport, file: string): number {
  const svg = spendChartSvg(report);
  writePrivateFile(file, svg);
  return Buffer.byteLength(svg);
}
