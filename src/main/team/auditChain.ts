/**
 * The audit trail's hash chain, computed here in vendesk's own code (never by asking the database,
 * whose functions a superuser could replace). Each row's hash is the SHA-256 (hex) of the previous
 * row's hash followed by each field as `<bytes>:<text>` (`-` for none) — the same rule as
 * `vendesk.audit_row_hash` in the schema, so a row written by the database verifies here, and a
 * row whose fields or links were changed afterwards does not.
 */
import crypto from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

/** One audit row as stored (money in kobo; `atUs` the row's time in microseconds since 1970, as text). */
export interface AuditRow {
  seq: number;
  at: string;
  atUs: string;
  actor: string;
  desktopId: string;
  desktopName: string;
  action: string;
  jobId: string | null;
  amountKobo: number | null;
  detail: string;
  prevHash: string;
  hash: string;
}

function field(value: string | null): string {
  return value === null ? '-' : `${Buffer.byteLength(value, 'utf8')}:${value}`;
}

/** The hash a row must carry, given the hash it links to. */
export function auditRowHash(prevHash: string, row: Omit<AuditRow, 'prevHash' | 'hash' | 'at'>): string {
  const fields = [String(row.seq), row.atUs, row.actor, row.desktopId, row.desktopName, row.action, row.jobId, row.amountKobo === null ? null : String(row.amountKobo), row.detail];
  return crypto
    .createHash('sha256')
    .update(prevHash + fields.map(field).join(''), 'utf8')
    .digest('hex');
}

export type AuditBreakKind = 'altered' | 'relinked' | 'missing' | 'head_missing';

export interface AuditBreak {
  seq: number;
  kind: AuditBreakKind;
  message: string;
}

/** A chain checked row by row, in seq order; feed rows with `add`, then read `result()`. */
export class AuditChainCheck {
  private rows = 0;
  private lastSeq = 0;
  private lastHash = GENESIS_HASH;
  private readonly seen = new Map<number, string>();
  readonly breaks: AuditBreak[] = [];

  constructor(private readonly expectHead?: { seq: number; hash: string }) {}

  add(row: AuditRow): void {
    this.rows += 1;
    if (row.seq !== this.lastSeq + 1) {
      this.breaks.push({
        seq: this.lastSeq + 1,
        kind: 'missing',
        message:
          row.seq - this.lastSeq === 2 ? `Row ${this.lastSeq + 1} is missing: it was deleted.` : `Rows ${this.lastSeq + 1} to ${row.seq - 1} are missing: they were deleted.`,
      });
    } else if (row.prevHash !== this.lastHash) {
      this.breaks.push({ seq: row.seq, kind: 'relinked', message: `Row ${row.seq} does not link to the row before it: a row before it was altered, or this one was.` });
    }
    if (auditRowHash(row.prevHash, row) !== row.hash) {
      this.breaks.push({ seq: row.seq, kind: 'altered', message: `Row ${row.seq} was altered after it was written: its fields no longer match its hash.` });
    }
    if (this.expectHead && row.seq === this.expectHead.seq) this.seen.set(row.seq, row.hash);
    this.lastSeq = row.seq;
    this.lastHash = row.hash;
  }

  result(): AuditVerification {
    const breaks = [...this.breaks];
    if (this.expectHead && this.expectHead.seq > 0) {
      const found = this.seen.get(this.expectHead.seq);
      if (found === undefined) {
        breaks.push({
          seq: this.expectHead.seq,
          kind: 'head_missing',
          message: `This desktop last saw row ${this.expectHead.seq}, and the trail now ends before it: rows at its end were deleted.`,
        });
      } else if (found !== this.expectHead.hash) {
        breaks.push({
          seq: this.expectHead.seq,
          kind: 'altered',
          message: `Row ${this.expectHead.seq} is not the row this desktop saw: the trail was rewritten from there or earlier.`,
        });
      }
    }
    breaks.sort((a, b) => a.seq - b.seq);
    return { intact: breaks.length === 0, rows: this.rows, head: this.rows === 0 ? null : { seq: this.lastSeq, hash: this.lastHash }, breaks };
  }
}

export interface AuditVerification {
  /** True when every row matches its hash and links to the one before, with none missing. */
  intact: boolean;
  rows: number;
  head: { seq: number; hash: string } | null;
  breaks: AuditBreak[];
}
