/**
 * SQLite access for bulk jobs. Every state change of an item is one committed statement (or one
 * transaction for a batch), made before the next network step: `markSending` commits before the
 * request leaves, the answer is recorded right after it arrives.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Db } from '../store/database';
import { emptyCounts, ITEM_STATES, SPENDING_STATES, type BulkJobKind, type ItemCounts, type ItemState, type JobState } from './jobStates';

export interface JobRow {
  id: string;
  kind: BulkJobKind;
  state: JobState;
  profile_id: string;
  connection_kind: 'sandbox' | 'live';
  base_url: string;
  file_name: string;
  file_hash: string;
  sheet_name: string | null;
  headers_json: string;
  mapping_json: string;
  rows_total: number;
  invalid_count: number;
  batch_size: number;
  concurrency: number;
  message: string | null;
  runner_pid: number | null;
  lease_until_ms: number | null;
  created_at: string;
  confirmed_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface ItemRow {
  job_id: string;
  seq: number;
  row_number: number;
  phone: string;
  network: string;
  product_code: string;
  voucher_code: string;
  operator: string;
  region: string;
  data_value: number | null;
  description: string;
  amount_kobo: number;
  name: string;
  note: string;
  given_network: string | null;
  prefix_network: string | null;
  duplicate_of: string | null;
  state: ItemState;
  solo: number;
  attempts: number;
  holds: number;
  reference: string | null;
  reason: string | null;
  settled_by: string | null;
  sent_ms: number | null;
  not_before_ms: number | null;
  final_at: string | null;
  updated_at: string;
}

export interface NewJob {
  kind: BulkJobKind;
  profileId: string;
  connectionKind: 'sandbox' | 'live';
  baseUrl: string;
  fileName: string;
  fileHash: string;
  sheetName: string | null;
  headers: string[];
  mapping: unknown;
  rowsTotal: number;
  batchSize: number;
  concurrency: number;
}

export interface NewItem {
  rowNumber: number;
  phone: string;
  network: string;
  productCode: string;
  voucherCode: string;
  operator: string;
  region: string;
  dataValue: number | null;
  description: string;
  amountKobo: number;
  name: string;
  note: string;
  givenNetwork: string | null;
  prefixNetwork: string | null;
  duplicateOf: string | null;
  /** `excluded` for duplicates left out by default; otherwise `queued`. */
  state: 'queued' | 'excluded';
}

export interface InvalidRowRecord {
  row: number;
  field: string;
  message: string;
}

const now = (): string => new Date().toISOString();

export class JobStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Db) {}

  /** A prepared statement, compiled once per SQL text (hot paths run per row or per batch). */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ------------------------------------------------------------------ jobs

  createJob(job: NewJob, items: NewItem[], invalid: InvalidRowRecord[]): string {
    const id = randomUUID();
    const at = now();
    const insertJob = this.stmt(
      `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, sheet_name, headers_json,
        mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
       VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertItem = this.stmt(
      `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, voucher_code, operator, region, data_value,
        description, amount_kobo, name, note, given_network, prefix_network, duplicate_of, state, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertInvalid = this.stmt('INSERT INTO bulk_invalid_rows (job_id, row_number, field, message) VALUES (?, ?, ?, ?)');
    const invalidRows = new Set(invalid.map((i) => i.row)).size;
    this.db.transaction(() => {
      insertJob.run(
        id, job.kind, job.profileId, job.connectionKind, job.baseUrl, job.fileName, job.fileHash, job.sheetName,
        JSON.stringify(job.headers), JSON.stringify(job.mapping), job.rowsTotal, invalidRows, job.batchSize, job.concurrency, at, at,
      );
      items.forEach((it, i) => {
        insertItem.run(
          id, i + 1, it.rowNumber, it.phone, it.network, it.productCode, it.voucherCode, it.operator, it.region, it.dataValue,
          it.description, it.amountKobo, it.name, it.note, it.givenNetwork, it.prefixNetwork, it.duplicateOf, it.state, at,
        );
      });
      for (const r of invalid) insertInvalid.run(id, r.row, r.field, r.message);
    })();
    return id;
  }

  job(id: string): JobRow | undefined {
    return this.stmt('SELECT * FROM bulk_jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  listJobs(limit: number): JobRow[] {
    return this.stmt('SELECT * FROM bulk_jobs ORDER BY created_at DESC LIMIT ?').all(limit) as JobRow[];
  }

  /** Drafts never confirmed (nothing was bought) older than `beforeIso`. */
  deleteStaleDrafts(beforeIso: string): number {
    return this.stmt("DELETE FROM bulk_jobs WHERE state = 'draft' AND created_at < ?").run(beforeIso).changes;
  }

  deleteJob(id: string): void {
    this.stmt('DELETE FROM bulk_jobs WHERE id = ?').run(id);
  }

  setJobState(id: string, state: JobState, message: string | null = null): void {
    const at = now();
    const extra =
      state === 'running'
        ? ', started_at = COALESCE(started_at, @at), finished_at = NULL'
        : state === 'completed' || state === 'cancelled' || state === 'needs_attention'
          ? ', finished_at = @at'
          : '';
    this.stmt(`UPDATE bulk_jobs SET state = @state, message = @message, updated_at = @at${extra} WHERE id = @id`).run({ id, state, message, at });
  }

  confirmJob(id: string): void {
    const at = now();
    this.stmt("UPDATE bulk_jobs SET state = 'running', confirmed_at = ?, started_at = ?, message = NULL, updated_at = ? WHERE id = ? AND state = 'draft'").run(at, at, at, id);
  }

  /**
   * Takes the job for this process unless another live process holds it. Returns the pid of
   * the holder when refused.
   */
  acquireLease(id: string, pid: number, leaseMs: number, isAlive: (pid: number) => boolean): { ok: true } | { ok: false; holder: number } {
    return this.db.transaction(() => {
      const row = this.stmt('SELECT runner_pid, lease_until_ms FROM bulk_jobs WHERE id = ?').get(id) as Pick<JobRow, 'runner_pid' | 'lease_until_ms'> | undefined;
      if (!row) return { ok: true as const };
      const t = Date.now();
      if (row.runner_pid !== null && row.runner_pid !== pid && (row.lease_until_ms ?? 0) > t && isAlive(row.runner_pid)) {
        return { ok: false as const, holder: row.runner_pid };
      }
      this.stmt('UPDATE bulk_jobs SET runner_pid = ?, lease_until_ms = ? WHERE id = ?').run(pid, t + leaseMs, id);
      return { ok: true as const };
    }).immediate();
  }

  renewLease(id: string, pid: number, leaseMs: number): void {
    this.stmt('UPDATE bulk_jobs SET lease_until_ms = ? WHERE id = ? AND runner_pid = ?').run(Date.now() + leaseMs, id, pid);
  }

  releaseLease(id: string, pid: number): void {
    this.stmt('UPDATE bulk_jobs SET runner_pid = NULL, lease_until_ms = NULL WHERE id = ? AND runner_pid = ?').run(id, pid);
  }

  // ------------------------------------------------------------------ items: reading

  counts(jobId: string): ItemCounts {
    const counts = emptyCounts();
    const rows = this.stmt('SELECT state, COUNT(*) AS n FROM bulk_items WHERE job_id = ? GROUP BY state').all(jobId) as { state: ItemState; n: number }[];
    for (const r of rows) if ((ITEM_STATES as readonly string[]).includes(r.state)) counts[r.state] = r.n;
    return counts;
  }

  /** Sum of amounts per state. */
  amounts(jobId: string): Record<ItemState, number> {
    const sums = emptyCounts();
    const rows = this.stmt('SELECT state, SUM(amount_kobo) AS s FROM bulk_items WHERE job_id = ? GROUP BY state').all(jobId) as { state: ItemState; s: number }[];
    for (const r of rows) if ((ITEM_STATES as readonly string[]).includes(r.state)) sums[r.state] = r.s;
    return sums;
  }

  items(jobId: string, options: { states?: readonly ItemState[]; offset?: number; limit?: number } = {}): ItemRow[] {
    const states = options.states;
    const where = states && states.length ? `AND state IN (${states.map(() => '?').join(',')})` : '';
    return this.stmt(`SELECT * FROM bulk_items WHERE job_id = ? ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(jobId, ...(states ?? []), options.limit ?? -1, options.offset ?? 0) as ItemRow[];
  }

  item(jobId: string, seq: number): ItemRow | undefined {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND seq = ?').get(jobId, seq) as ItemRow | undefined;
  }

  countItems(jobId: string, states?: readonly ItemState[]): number {
    const where = states && states.length ? `AND state IN (${states.map(() => '?').join(',')})` : '';
    return (this.stmt(`SELECT COUNT(*) AS n FROM bulk_items WHERE job_id = ? ${where}`).get(jobId, ...(states ?? [])) as { n: number }).n;
  }

  /** Items ready to be sent now, in file order. */
  sendable(jobId: string, at: number, limit: number): ItemRow[] {
    return this.stmt(
        "SELECT * FROM bulk_items WHERE job_id = ? AND state IN ('queued', 'held') AND (not_before_ms IS NULL OR not_before_ms <= ?) ORDER BY seq LIMIT ?",
      )
      .all(jobId, at, limit) as ItemRow[];
  }

  /** Earliest time a held or backed-off item may go; null when none waits. */
  nextNotBefore(jobId: string): number | null {
    const r = this.stmt("SELECT MIN(not_before_ms) AS t FROM bulk_items WHERE job_id = ? AND state IN ('queued', 'held')").get(jobId) as { t: number | null };
    return r.t;
  }

  /** `phone|amount` of this job's items whose purchase is in progress at the service. */
  busyKeys(jobId: string): Set<string> {
    const rows = this.stmt("SELECT phone, amount_kobo FROM bulk_items WHERE job_id = ? AND state IN ('sending', 'accepted', 'uncertain')")
      .all(jobId) as { phone: string; amount_kobo: number }[];
    return new Set(rows.map((r) => itemKey(r)));
  }

  isReferenceClaimed(reference: string): boolean {
    return this.stmt('SELECT 1 FROM bulk_items WHERE reference = ?').get(reference) !== undefined;
  }

  /** Money committed today (local day) across every job, in kobo. */
  spentSince(sinceMs: number): number {
    const states = SPENDING_STATES.map(() => '?').join(',');
    const r = this.stmt(`SELECT COALESCE(SUM(amount_kobo), 0) AS s FROM bulk_items WHERE state IN (${states}) AND sent_ms >= ?`)
      .get(...SPENDING_STATES, sinceMs) as { s: number };
    return r.s;
  }

  /** This job's items for a phone (or account) and amount in the last `sinceMs`, for duplicate checks. */
  recentItems(phone: string, amountKobo: number, sinceIso: string): ItemRow[] {
    return this.stmt(
        `SELECT * FROM bulk_items WHERE phone = ? AND amount_kobo = ? AND state IN ('sending', 'accepted', 'uncertain', 'success', 'pending')
         AND updated_at >= ? ORDER BY updated_at`,
      )
      .all(phone, amountKobo, sinceIso) as ItemRow[];
  }

  invalidRows(jobId: string, offset: number, limit: number): InvalidRowRecord[] {
    return this.stmt('SELECT row_number AS row, field, message FROM bulk_invalid_rows WHERE job_id = ? ORDER BY row_number, rowid LIMIT ? OFFSET ?')
      .all(jobId, limit, offset) as InvalidRowRecord[];
  }

  invalidRowCount(jobId: string): number {
    return (this.stmt('SELECT COUNT(*) AS n FROM bulk_invalid_rows WHERE job_id = ?').get(jobId) as { n: number }).n;
  }

  // ------------------------------------------------------------------ items: transitions

  /** Committed before the request leaves: a crash after this leaves the items `sending`. */
  markSending(jobId: string, seqs: readonly number[]): void {
    const at = now();
    const t = Date.now();
    const stmt = this.stmt(
      "UPDATE bulk_items SET state = 'sending', attempts = attempts + 1, sent_ms = ?, not_before_ms = NULL, updated_at = ? WHERE job_id = ? AND seq = ? AND state IN ('queued', 'held')",
    );
    this.db.transaction(() => {
      for (const seq of seqs) {
        const r = stmt.run(t, at, jobId, seq);
        if (r.changes !== 1) throw new Error(`item ${seq} of job ${jobId} was not ready to send`);
      }
    })();
  }

  markAccepted(jobId: string, accepted: readonly { seq: number; reference: string }[], note: string | null): void {
    const at = now();
    const stmt = this.stmt(
      "UPDATE bulk_items SET state = 'accepted', reference = ?, reason = ?, updated_at = ? WHERE job_id = ? AND seq = ?",
    );
    this.db.transaction(() => {
      for (const a of accepted) stmt.run(a.reference, note, at, jobId, a.seq);
    })();
  }

  /** Moves items to a state with a reason; `from` guards against moving items another step already moved. */
  transition(
    jobId: string,
    seqs: readonly number[],
    to: ItemState,
    fields: { reason?: string | null; settledBy?: string | null; notBeforeMs?: number | null; solo?: boolean; hold?: boolean; final?: boolean } = {},
    from?: readonly ItemState[],
  ): number {
    const at = now();
    const sets = ['state = @to', 'updated_at = @at'];
    if (fields.reason !== undefined) sets.push('reason = @reason');
    if (fields.settledBy !== undefined) sets.push('settled_by = @settledBy');
    if (fields.notBeforeMs !== undefined) sets.push('not_before_ms = @notBeforeMs');
    if (fields.solo) sets.push('solo = 1');
    if (fields.hold) sets.push('holds = holds + 1');
    if (fields.final) sets.push('final_at = @at');
    const guard = from && from.length ? `AND state IN (${from.map((s) => `'${s}'`).join(',')})` : '';
    const stmt = this.stmt(`UPDATE bulk_items SET ${sets.join(', ')} WHERE job_id = @jobId AND seq = @seq ${guard}`);
    let changed = 0;
    this.db.transaction(() => {
      for (const seq of seqs) {
        changed += stmt.run({
          to,
          at,
          jobId,
          seq,
          reason: fields.reason ?? null,
          settledBy: fields.settledBy ?? null,
          notBeforeMs: fields.notBeforeMs ?? null,
        }).changes;
      }
    })();
    return changed;
  }

  /** An uncertain item found in the service's log: it was bought (or is being). */
  claimFromLog(jobId: string, seq: number, reference: string, to: ItemState, settledBy: string): boolean {
    const at = now();
    try {
      const r = this.stmt(
          "UPDATE bulk_items SET state = ?, reference = ?, settled_by = ?, reason = NULL, updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ? AND state = 'uncertain'",
        )
        .run(to, reference, settledBy, at, to, at, jobId, seq);
      return r.changes === 1;
    } catch (error) {
      // The unique index on reference: another item already owns this log entry.
      if (error instanceof Error && /UNIQUE/.test(error.message)) return false;
      throw error;
    }
  }

  setFinal(jobId: string, seq: number, to: 'success' | 'failed' | 'pending' | 'accepted', reason: string | null, settledBy: string): void {
    const at = now();
    this.stmt(
        "UPDATE bulk_items SET state = ?, reason = ?, settled_by = COALESCE(settled_by, ?), updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ?",
      )
      .run(to, reason, settledBy, at, to, at, jobId, seq);
  }

  setIncluded(jobId: string, seqs: readonly number[], included: boolean): number {
    return this.transition(jobId, seqs, included ? 'queued' : 'excluded', {}, included ? ['excluded'] : ['queued']);
  }

  setNetwork(jobId: string, seq: number, product: { network: string; productCode: string; voucherCode: string; operator: string; region: string }): void {
    this.stmt('UPDATE bulk_items SET network = ?, product_code = ?, voucher_code = ?, operator = ?, region = ?, updated_at = ? WHERE job_id = ? AND seq = ?')
      .run(product.network, product.productCode, product.voucherCode, product.operator, product.region, now(), jobId, seq);
  }

  /** After a crash: whatever was `sending` may have been bought. */
  sendingToUncertain(jobId: string): number {
    return this.stmt(
        "UPDATE bulk_items SET state = 'uncertain', reason = 'vendesk stopped while this item was being sent; it is checked against the service log before anything is sent again', updated_at = ? WHERE job_id = ? AND state = 'sending'",
      )
      .run(now(), jobId).changes;
  }
}

export function itemKey(item: { phone: string; amount_kobo: number }): string {
  return `${item.phone}|${item.amount_kobo}`;
}
