/**
 * Reading the team's audit trail from PostgreSQL: rows in a time range, the whole chain checked
 * (`verifyAuditTrail`), and an Excel export of a range for an auditor (`exportAuditTrail`, through
 * the project's one XLSX writer) with the hash columns, so the auditor can recompute the chain,
 * and a sheet that says whether the chain verified when the file was made.
 */
import type pg from 'pg';
import { writeTableXlsx, type ExportColumn, type ExportResult } from '../exports';
import type { AuditUnrecordedView } from '../../shared/contract/team';
import { AuditChainCheck, type AuditRow, type AuditVerification } from './auditChain';
import { LateSends, lastApprovals, unrecordedState } from './auditReconcile';

const PAGE = 5000;

interface AuditRecord {
  seq: string;
  at: Date;
  at_us: string;
  actor: string;
  desktop_id: string;
  desktop_name: string;
  action: string;
  job_id: string | null;
  amount_kobo: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}

const SELECT_ROWS = `SELECT seq::text, at, ((extract(epoch FROM at) * 1000000)::bigint)::text AS at_us, actor, desktop_id,
  desktop_name, action, job_id::text, amount_kobo::text, detail, prev_hash, hash FROM vendesk.audit_trail`;

function toRow(r: AuditRecord): AuditRow {
  return {
    seq: Number(r.seq),
    at: r.at.toISOString(),
    atUs: r.at_us,
    actor: r.actor,
    desktopId: r.desktop_id,
    desktopName: r.desktop_name,
    action: r.action,
    jobId: r.job_id,
    amountKobo: r.amount_kobo === null ? null : Number(r.amount_kobo),
    detail: r.detail,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** Every row with `from <= at < to` (either bound may be absent), in seq order, a page at a time. */
export async function* readAuditRows(client: pg.ClientBase, range: { from?: Date; to?: Date } = {}): AsyncGenerator<AuditRow> {
  let after = 0;
  for (;;) {
    const r = await client.query<AuditRecord>(
      `${SELECT_ROWS} WHERE seq > $1 AND ($2::timestamptz IS NULL OR at >= $2) AND ($3::timestamptz IS NULL OR at < $3)
       ORDER BY vendesk.audit_trail.seq LIMIT ${PAGE}`,
      [after, range.from ?? null, range.to ?? null],
    );
    for (const record of r.rows) yield toRow(record);
    if (r.rows.length < PAGE) return;
    after = Number(r.rows[r.rows.length - 1].seq);
  }
}

/**
 * Checks the whole chain from its first row. `expectHead` is the last row this desktop saw
 * (remembered locally): a trail that now ends before it, or holds another row there, was cut or
 * rewritten — the one change a chain alone cannot show. `alsoSee` is shown each row too.
 */
export async function verifyAuditTrail(client: pg.ClientBase, expectHead?: { seq: number; hash: string }, alsoSee?: (row: AuditRow) => void): Promise<AuditVerification> {
  const check = new AuditChainCheck(expectHead);
  for await (const row of readAuditRows(client)) {
    check.add(row);
    alsoSee?.(row);
  }
  return check.result();
}

/**
 * The chain checked (as `verifyAuditTrail` checks it), the team's state reconciled with the trail,
 * and every send row checked against its approval's expiry — one read of the trail for both.
 */
export async function verifyTrailAndState(client: pg.ClientBase, expectHead?: { seq: number; hash: string }): Promise<TrailVerification> {
  const late = new LateSends(await lastApprovals(client));
  const chain = await verifyAuditTrail(client, expectHead, (row) => late.add(row));
  const unrecorded = [...(await unrecordedState(client)), ...late.found];
  return { ...chain, chainIntact: chain.intact, intact: chain.intact && unrecorded.length === 0, unrecorded };
}

/** The chain checked, and the team's state reconciled with it (`auditReconcile.ts`). */
export interface TrailVerification extends AuditVerification {
  /** Only the hash chain: every row matches its hash and links to the one before, none missing. */
  chainIntact: boolean;
  /** States without their audit row. `intact` is true only when the chain is intact and this is empty. */
  unrecorded: AuditUnrecordedView[];
}

export const AUDIT_EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'Row', kind: 'integer' },
  { header: 'When (Lagos)', kind: 'datetime' },
  { header: 'Who', kind: 'text' },
  { header: 'Desktop', kind: 'text' },
  { header: 'Desktop id', kind: 'text' },
  { header: 'Action', kind: 'text' },
  { header: 'Job', kind: 'text' },
  { header: 'Amount', kind: 'naira' },
  { header: 'Detail', kind: 'text' },
  { header: 'Time (µs since 1970)', kind: 'text' },
  { header: 'Previous hash', kind: 'text' },
  { header: 'Hash', kind: 'text' },
];

export interface AuditExportResult extends ExportResult {
  /** Rows of the trail written (the range's rows; the Verification sheet not counted). */
  rows: number;
  verification: TrailVerification;
}

/** Writes the rows of `[from, to)` to an XLSX workbook: sheet "Audit trail", and sheet "Verification". */
export async function exportAuditTrail(client: pg.ClientBase, out: string, range: { from?: Date; to?: Date }): Promise<AuditExportResult> {
  const verification = await verifyTrailAndState(client);
  let written = 0;
  const rows = (async function* () {
    for await (const row of readAuditRows(client, range)) {
      written += 1;
      yield [row.seq, row.at, row.actor, row.desktopName, row.desktopId, row.action, row.jobId, row.amountKobo, row.detail, row.atUs, row.prevHash, row.hash];
    }
  })();
  const summary: [string, string][] = [
    ['Range from (UTC)', range.from ? range.from.toISOString() : 'the first row'],
    ['Range to, not included (UTC)', range.to ? range.to.toISOString() : 'the last row'],
    ['Chain checked at', new Date().toISOString()],
    ['Rows in the whole trail', String(verification.rows)],
    ['Whole chain intact', verification.chainIntact ? 'yes' : 'NO'],
    [
      'Every approval, claim, settlement and job state in the trail, and no send after its approval expired',
      verification.unrecorded.length === 0 ? 'yes' : `NO (${verification.unrecorded.length})`,
    ],
    ['Last row', verification.head ? `${verification.head.seq} (hash ${verification.head.hash})` : 'none'],
    ...verification.breaks.map((b): [string, string] => [`Problem at row ${b.seq}`, b.message]),
    ...verification.unrecorded.map((u): [string, string] => [`${u.code === 'send_after_expiry' ? 'Sent after its approval expired' : 'Not in the trail'} (${u.code})`, u.message]),
    [
      'How to recompute',
      'Each hash is SHA-256 (hex) of the previous hash followed by Row, Time (µs), Who, Desktop id, Desktop, Action, Job, Amount in kobo and Detail, each written as <bytes>:<text> (- when empty); the first previous hash is 64 zeros.',
    ],
  ];
  const result = await writeTableXlsx(out, [
    { name: 'Audit trail', columns: AUDIT_EXPORT_COLUMNS, rows },
    {
      name: 'Verification',
      columns: [
        { header: 'Check', kind: 'text' },
        { header: 'Result', kind: 'text' },
      ],
      rows: summary,
      autoFilter: false,
    },
  ]);
  return { rows: written, bytes: result.bytes, verification };
}
