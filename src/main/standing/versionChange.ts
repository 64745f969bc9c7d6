/**
 * What a new version of a standing order changes, in words, for its history ("rows: 2 changed, 1
 * added; total ₦15,000.00 → ₦16,500.00; schedule: Monthly on the 25th …"): who changed what, when.
 */
import { formatNaira } from '../../shared/money';
import { scheduleWords, type WeekendMove } from './recurrence';
import { rowsOf, type StoredRow, type VersionRow } from './standingStore';

interface NextVersion {
  name: string;
  rule: string;
  weekend: WeekendMove;
  graceDays: number;
  rows: readonly StoredRow[];
}

/** A row's content as it decides what is bought (its row number apart). */
function content(r: StoredRow): string {
  return JSON.stringify([r.phone, r.account, r.network, r.productCode, r.vendType, r.amountKobo, r.name]);
}

/** The change from `before` to `next`, in words; null when nothing changes. */
export function describeChange(before: VersionRow, next: NextVersion): string | null {
  const parts: string[] = [];
  if (next.name !== before.name) parts.push(`name: "${before.name}" → "${next.name}"`);
  const old = new Map(rowsOf(before).map((r) => [r.rowNumber, content(r)]));
  const now = new Map(next.rows.map((r) => [r.rowNumber, content(r)]));
  const changed = [...now].filter(([row, c]) => old.has(row) && old.get(row) !== c).length;
  const added = [...now.keys()].filter((row) => !old.has(row)).length;
  const removed = [...old.keys()].filter((row) => !now.has(row)).length;
  const rowParts = [changed ? `${changed} changed` : '', added ? `${added} added` : '', removed ? `${removed} removed` : ''].filter(Boolean);
  if (rowParts.length > 0) parts.push(`rows: ${rowParts.join(', ')}`);
  const total = next.rows.reduce((s, r) => s + r.amountKobo, 0);
  if (total !== before.total_kobo) parts.push(`per-run total ${formatNaira(before.total_kobo)} → ${formatNaira(total)}`);
  if (next.rule !== before.rule || next.weekend !== before.weekend) parts.push(`schedule: ${scheduleWords(next.rule, next.weekend)}`);
  if (next.graceDays !== before.grace_days) parts.push(`grace ${before.grace_days} → ${next.graceDays} day(s)`);
  return parts.length > 0 ? parts.join('; ') : null;
}
