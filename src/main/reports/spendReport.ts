/**
 * Spend for a date range from the local mirror (successful purchases only: failures were
 * refunded), by day, by type, by network and by day and type, as one workbook through the one
 * exporter, with a bar chart of the daily spend beside it as an SVG image (the exporter streams
 * rows and has no charts; an SVG opens in any browser and pastes into Excel or Word).
 */
import { writePrivateFile } from '../privateFiles';
import type { Db } from '../store/database';
import { writeTableXlsx, type ExportColumn } from '../exports';
import { formatNaira } from '../../shared/money';

export interface SpendLine {
  key: string;
  purchases: number;
  amountKobo: number;
  costKobo: number;
}

export interface SpendReport {
  from: string;
  to: string;
  byDay: SpendLine[];
  byType: SpendLine[];
  byNetwork: SpendLine[];
  byDayAndType: (SpendLine & { type: string })[];
  total: SpendLine;
}

function range(from: string, to: string): [string, string] {
  const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString();
  return [`${from}T00:00:00.000Z`, end];
}

export function spendReport(db: Db, profileId: string, from: string, to: string): SpendReport {
  const [start, end] = range(from, to);
  const where = "profile_id = ? AND created_at >= ? AND created_at < ? AND status = 'SUCCESS'";
  const group = (expr: string) =>
    db
      .prepare(`SELECT ${expr} AS key, count(*) AS purchases, sum(amount_kobo) AS amountKobo, sum(cost_kobo) AS costKobo FROM log_entries WHERE ${where} GROUP BY key ORDER BY key`)
      .all(profileId, start, end) as SpendLine[];
  const byDayAndType = db
    .prepare(
      `SELECT substr(created_at, 1, 10) AS key, type, count(*) AS purchases, sum(amount_kobo) AS amountKobo, sum(cost_kobo) AS costKobo FROM log_entries WHERE ${where} GROUP BY key, type ORDER BY key, type`,
    )
    .all(profileId, start, end) as (SpendLine & { type: string })[];
  const byDay = group('substr(created_at, 1, 10)');
  const total = byDay.reduce<SpendLine>((t, l) => ({ key: 'Total', purchases: t.purchases + l.purchases, amountKobo: t.amountKobo + l.amountKobo, costKobo: t.costKobo + l.costKobo }), {
    key: 'Total',
    purchases: 0,
    amountKobo: 0,
    costKobo: 0,
  });
  return { from, to, byDay, byType: group('type'), byNetwork: group('network'), byDayAndType, total };
}

const lineColumns = (first: ExportColumn): ExportColumn[] => [
  first,
  { header: 'Purchases', kind: 'integer' },
  { header: 'Face value (₦)', kind: 'naira' },
  { header: 'Cost charged (₦)', kind: 'naira' },
  { header: 'Commission earned (₦)', kind: 'naira' },
];

const lineRow = (l: SpendLine): unknown[] => [l.key, l.purchases, l.amountKobo, l.costKobo, l.amountKobo - l.costKobo];

export async function writeSpendWorkbook(report: SpendReport, file: string): Promise<{ rows: number; bytes: number }> {
  return writeTableXlsx(file, [
    { name: 'By day', columns: lineColumns({ header: 'Day', kind: 'date' }), rows: [...report.byDay.map(lineRow), ['', report.total.purchases, report.total.amountKobo, report.total.costKobo, report.total.amountKobo - report.total.costKobo]] },
    { name: 'By type', columns: lineColumns({ header: 'Type', kind: 'text' }), rows: report.byType.map(lineRow) },
    { name: 'By network', columns: lineColumns({ header: 'Network', kind: 'text' }), rows: report.byNetwork.map(lineRow) },
    {
      name: 'By day and type',
      columns: [{ header: 'Day', kind: 'date' }, { header: 'Type', kind: 'text' }, ...lineColumns({ header: 'x', kind: 'text' }).slice(1)],
      rows: report.byDayAndType.map((l) => [l.key, l.type, l.purchases, l.amountKobo, l.costKobo, l.amountKobo - l.costKobo]),
    },
  ]);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

const TYPE_COLOURS: Record<string, string> = { AIRTIME: '#228be6', DATA: '#40c057', ELECTRICITY: '#fab005', CABLETV: '#be4bdb' };

/** A stacked bar chart of the cost charged per day, by type, as SVG. */
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
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${escapeXml(`Spend by day, ${report.from} to ${report.to} (cost charged, successful purchases)`)}</text>`,
    `<text x="${left}" y="40" fill="#555">${escapeXml(`Total ${formatNaira(report.total.costKobo)} for ${report.total.purchases.toLocaleString('en-US')} purchases`)}</text>`,
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
