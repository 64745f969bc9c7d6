/**
 * SQLite access for bulk jobs. Every state change of an item is one committed statement (or one
 * transaction for a batch), made before the next network step: `markSending` commits before the
 * request leaves, the answer is recorded right after it arrives.
 *
 * Longer than 400 lines on purpose: it is the one place that reads and writes the bulk tables,
 * so the exactly-once rules (leases, claims, guarded state transitions) are all in one file.
 * The row types are in jobRows.ts.
 *
 * It also says which jobs a connection may read and send: a job belongs to the connection it was
 * prepared on, is read only on it (`ownJob`), and is sent to (and asked about at) only that
 * service (`connectionProblem`, `sendingProblem`).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { AppError } from '../../shared/appError';
import type { Connection } from '../appContext';
import type { Db } from '../store/database';
import type { DueRequery, InvalidRowRecord, ItemRow, JobOrigin, JobRow, NewItem, NewJob, PurchaseStateFields, StateFigures } from './jobRows';
import { emptyCounts, ITEM_STATES, SPENDING_STATES, statesLeadingTo, type ItemCounts, type ItemState, type JobState, UNCONFIRMED_JOB_STATES } from './jobStates';

export type { InvalidRowRecord, ItemRow, JobOrigin, JobRow, NewItem, NewJob, PurchaseStateFields, StateFigures } from './jobRows';

const now = (): string => new Date().toISOString();

/** The item states that spend (the state table's), as an SQL list: what every limit and duplicate check counts. */
const SPENDING_SQL = SPENDING_STATES.map((state) => `'${state}'`).join(', ');

export class JobStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Db) {}

  /**
   * A prepared statement, compiled once per SQL text (hot paths run per row or per batch). Kept
   * by the store itself rather than `store/prepared.ts`, whose cache the function-style stores
   * share: the job's path stays in this file.
   */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ------------------------------------------------------------------ jobs

  createJob(job: NewJob, items: Iterable<NewItem>, invalid: InvalidRowRecord[]): string {
    const id = randomUUID();
    const at = now();
    const insertJob = this.stmt(
      `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, sheet_name, headers_json,
        mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at, origin)
       VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertItem = this.stmt(
      `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, voucher_code, operator, region, data_value,
        description, amount_kobo, name, note, given_network, prefix_network, duplicate_of, state, updated_at, account, vend_type, account_name, cost_centre)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertInvalid = this.stmt('INSERT INTO bulk_invalid_rows (job_id, row_number, field, message, phone, name) VALUES (?, ?, ?, ?, ?, ?)');
    const invalidRows = new Set(invalid.map((i) => i.row)).size;
    this.db.transaction(() => {
      insertJob.run(
        id,
        job.kind,
        job.profileId,
        job.connectionKind,
        job.baseUrl,
        job.fileName,
        job.fileHash,
        job.sheetName,
        JSON.stringify(job.headers),
        JSON.stringify(job.mapping),
        job.rowsTotal,
        invalidRows,
        job.batchSize,
        job.concurrency,
        at,
        at,
        job.origin ?? 'file',
      );
      let seq = 0;
      for (const it of items) {
        insertItem.run(
          id,
          ++seq,
          it.rowNumber,
          it.phone,
          it.network,
          it.productCode,
          it.voucherCode,
          it.operator,
          it.region,
          it.dataValue,
          it.description,
          it.amountKobo,
          it.name,
          it.note,
          it.givenNetwork,
          it.prefixNetwork,
          it.duplicateOf,
          it.state,
          at,
          it.account ?? null,
          it.vendType ?? null,
          it.accountName ?? null,
          it.costCentre ?? null,
        );
      }
      for (const r of invalid) insertInvalid.run(id, r.row, r.field, r.message, r.phone ?? null, r.name ?? null);
    })();
    return id;
  }

  /**
   * A single purchase's job (`origin = 'single'`): one item, named "<what> for <whom>", on the
   * connection it is bought on. Written as a draft; the caller confirms it.
   */
  createSingleJob(kind: JobRow['kind'], connection: Pick<Connection, 'profileId' | 'kind' | 'baseUrl'>, fileName: string, item: NewItem): string {
    return this.createJob(
      {
        kind,
        origin: 'single',
        profileId: connection.profileId,
        connectionKind: connection.kind,
        baseUrl: connection.baseUrl,
        fileName,
        fileHash: '',
        sheetName: null,
        headers: [],
        mapping: {},
        rowsTotal: 1,
        batchSize: 1,
        concurrency: 1,
      },
      [item],
      [],
    );
  }

  job(id: string): JobRow | undefined {
    return this.stmt('SELECT * FROM bulk_jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  /** A job of the connection in use (`connection`); a job of another connection is not on this one. */
  ownJob(jobId: string, connection: Connection): JobRow {
    const job = this.job(jobId);
    if (!job)
      throw new AppError('job_not_found', `There is no bulk job ${jobId}.`, 'Check the job id (vendesk bulk list lists the jobs of this connection) or open the Purchases page.');
    if (job.profile_id !== connection.profileId) {
      throw new AppError(
        'job_other_connection',
        `Bulk job ${jobId} is not on this connection: it was made on another one (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${connection.kind.toUpperCase()} ${connection.profileName}.`,
        'Switch back to the connection the job was prepared for (Settings → Connection profiles, or the same --base-url) to see or resume it.',
      );
    }
    return job;
  }

  /** A draft of the connection in use, whose rows may still change. */
  ownDraft(jobId: string, connection: Connection): JobRow {
    const job = this.ownUnconfirmed(jobId, connection);
    if (job.state === 'awaiting_approval') {
      throw new AppError(
        'job_not_draft',
        'This job was sent for approval; its rows cannot be changed now (the approver sees them as they are).',
        'Discard it (its team job is withdrawn) and prepare it again from the file to change rows.',
      );
    }
    return job;
  }

  /** A job of the connection in use not confirmed yet: a draft, or one awaiting approval. */
  ownUnconfirmed(jobId: string, connection: Connection): JobRow {
    const job = this.ownJob(jobId, connection);
    if (!UNCONFIRMED_JOB_STATES.includes(job.state))
      throw new AppError('job_not_draft', 'This job is already confirmed; its rows cannot be changed.', 'Prepare a new job from the file for other changes.');
    return job;
  }

  /** What confirming a job reads, once: the job not confirmed yet (of the connection in use, sendable there) and what it is to buy. */
  draftToConfirm(jobId: string, connection: Connection): { job: JobRow; totals: { items: number; totalKobo: number } } {
    const job = this.ownUnconfirmed(jobId, connection);
    const problem = connectionProblem(job, connection);
    if (problem) throw problem;
    return { job, totals: this.draftTotals(jobId) };
  }

  /**
   * A draft sent for a team member's approval: it waits in `awaiting_approval` with `message`.
   * `link` writes the team's record of it, in the same transaction. False when it was no draft.
   */
  awaitApproval(jobId: string, message: string, link: () => void): boolean {
    return this.db.transaction(() => {
      const at = now();
      const moved =
        this.stmt("UPDATE bulk_jobs SET state = 'awaiting_approval', message = ?, updated_at = ? WHERE id = ? AND state = 'draft'").run(message, at, jobId).changes === 1;
      if (moved) link();
      return moved;
    })();
  }

  /**
   * The jobs of one connection profile made from a spreadsheet (`file`) or single purchases
   * (`single`; of `kinds` only, when given), newest first. A single purchase still waiting for a
   * team member's approval is not among them: it is on the Approvals page until it is bought.
   */
  listJobs(profileId: string, limit: number, origin: JobOrigin = 'file', kinds?: readonly string[]): JobRow[] {
    const listed = "profile_id = ? AND origin = ? AND (origin = 'file' OR state <> 'awaiting_approval')";
    if (!kinds) return this.stmt(`SELECT * FROM bulk_jobs WHERE ${listed} ORDER BY created_at DESC LIMIT ?`).all(profileId, origin, limit) as JobRow[];
    return this.stmt(`SELECT * FROM bulk_jobs WHERE ${listed} AND kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY created_at DESC LIMIT ?`).all(
      profileId,
      origin,
      ...kinds,
      limit,
    ) as JobRow[];
  }

  /**
   * Jobs of one connection profile that are not running and still have something to learn from
   * the service: accepted or pending items, uncertain items of a cancelled job (never sent again),
   * or items sent with a reference whose wallet cost is not known yet.
   */
  jobsToFollow(profileId: string): JobRow[] {
    return this.stmt(
      `SELECT j.* FROM bulk_jobs j WHERE j.profile_id = ? AND j.state IN ('completed', 'cancelled', 'needs_attention', 'paused')
         AND EXISTS (SELECT 1 FROM bulk_items b WHERE b.job_id = j.id AND (
           b.state IN ('accepted', 'pending')
           OR (b.state = 'uncertain' AND j.state = 'cancelled')
           OR (b.state IN ('success', 'failed') AND b.cost_kobo IS NULL AND b.reference IS NOT NULL)))
         ORDER BY j.created_at DESC`,
    ).all(profileId) as JobRow[];
  }

  /**
   * What the requery loop may ask about now, for one connection profile: an electricity or cable
   * purchase (the vending detail of its item, which keeps its schedule) pending or uncertain and
   * due at `serviceNowMs`, oldest first; an airtime or data item accepted or pending, with a
   * reference, of a job no process runs (a run asks about its own) — the caller keeps those due by
   * `requeryDueAt` (`itemOutcomes.ts`). `wallNowMs`: this machine's clock, on which leases are kept.
   */
  dueForRequery(profileId: string, serviceNowMs: number, wallNowMs: number): DueRequery[] {
    const purchases = this.stmt("SELECT id, state FROM purchases WHERE profile_id = ? AND state IN ('pending', 'uncertain') AND next_requery_ms <= ? ORDER BY created_at").all(
      profileId,
      serviceNowMs,
    ) as { id: string; state: string }[];
    const items = this.stmt(
      `SELECT i.job_id, i.seq FROM bulk_jobs j JOIN bulk_items i ON i.job_id = j.id AND i.state IN ('accepted', 'pending')
        WHERE j.profile_id = ? AND j.kind IN ('airtime', 'data') AND i.reference IS NOT NULL
          AND NOT (j.state = 'running' AND coalesce(j.lease_until_ms, 0) > ?)`,
    ).all(profileId, wallNowMs) as { job_id: string; seq: number }[];
    const due: DueRequery[] = purchases.map((purchase) => ({ purchase, job: null, item: null }));
    const jobs = new Map<string, JobRow | undefined>();
    for (const r of items) {
      if (!jobs.has(r.job_id)) jobs.set(r.job_id, this.job(r.job_id));
      const job = jobs.get(r.job_id);
      const item = this.item(r.job_id, r.seq);
      if (job && item) due.push({ purchase: null, job, item });
    }
    return due;
  }

  /** The airtime or data item of one connection profile the service knows by `reference`, with its job; undefined when vendesk bought none. */
  topUpByReference(profileId: string, reference: string): { job: JobRow; item: ItemRow } | undefined {
    const r = this.stmt(
      `SELECT i.job_id, i.seq FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id WHERE i.reference = ? AND j.profile_id = ? AND j.kind IN ('airtime', 'data')`,
    ).get(reference, profileId) as { job_id: string; seq: number } | undefined;
    const job = r && this.job(r.job_id);
    const item = r && this.item(r.job_id, r.seq);
    return job && item ? { job, item } : undefined;
  }

  /** Drafts never confirmed (nothing was bought) older than `beforeIso`. A job awaiting approval is kept until it is decided. */
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

  /** A new message for a job that stays in its state (its finish time is kept). */
  setJobMessage(id: string, message: string | null): void {
    this.stmt('UPDATE bulk_jobs SET message = ?, updated_at = ? WHERE id = ?').run(message, now(), id);
  }

  /**
   * Starts a job not confirmed yet (a draft, or one awaiting approval that its gate found
   * approved): `running`, with the batch size and concurrency it is confirmed with. False when it
   * was confirmed already (by another window or process). `onlyOn`:
   * throws, confirming nothing, when the connection in use now is not the job's: it runs there
   * or not at all.
   */
  confirmJob(id: string, { tuning, onlyOn }: { tuning?: { batchSize: number; concurrency: number }; onlyOn?: { job: JobRow; connection: Connection } } = {}): boolean {
    const problem = onlyOn ? connectionProblem(onlyOn.job, onlyOn.connection) : null;
    if (problem) throw problem;
    const at = now();
    const tune = tuning ? ', batch_size = @batchSize, concurrency = @concurrency' : '';
    return (
      this.stmt(
        `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, message = NULL, updated_at = @at${tune} WHERE id = @id AND state IN (${UNCONFIRMED_JOB_STATES.map((st) => `'${st}'`).join(', ')})`,
      ).run({
        id,
        at,
        ...tuning,
      }).changes === 1
    );
  }

  /** What a draft is to buy: its items (excluded rows left out) and their face value. */
  draftTotals(jobId: string): { items: number; totalKobo: number } {
    const row = this.stmt("SELECT COUNT(*) AS items, COALESCE(SUM(amount_kobo), 0) AS totalKobo FROM bulk_items WHERE job_id = ? AND state != 'excluded'").get(jobId) as {
      items: number;
      totalKobo: number;
    };
    return row;
  }

  /**
   * Takes the job for this process unless another live process holds it. Returns the pid of
   * the holder when refused. Runs inside `beginRun`'s IMMEDIATE transaction.
   */
  private takeLease(id: string, pid: number, leaseMs: number, isAlive: (pid: number) => boolean): { ok: true } | { ok: false; holder: number } {
    const row = this.stmt('SELECT runner_pid, lease_until_ms FROM bulk_jobs WHERE id = ?').get(id) as Pick<JobRow, 'runner_pid' | 'lease_until_ms'> | undefined;
    if (!row) return { ok: true };
    const t = Date.now();
    if (row.runner_pid !== null && row.runner_pid !== pid && (row.lease_until_ms ?? 0) > t && isAlive(row.runner_pid)) {
      return { ok: false, holder: row.runner_pid };
    }
    this.stmt('UPDATE bulk_jobs SET runner_pid = ?, lease_until_ms = ? WHERE id = ?').run(pid, t + leaseMs, id);
    return { ok: true };
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
    for (const [state, f] of Object.entries(this.figures(jobId)) as [ItemState, StateFigures][]) sums[state] = f.faceKobo;
    return sums;
  }

  /** Per state: how many items, their face value, and the wallet cost of those whose cost is known. */
  figures(jobId: string): Record<ItemState, StateFigures> {
    const out = {} as Record<ItemState, StateFigures>;
    for (const s of ITEM_STATES) out[s] = { count: 0, faceKobo: 0, costKobo: 0, costKnown: 0 };
    const rows = this.stmt(
      `SELECT state, COUNT(*) AS n, SUM(amount_kobo) AS face, COALESCE(SUM(cost_kobo), 0) AS cost, COUNT(cost_kobo) AS known
         FROM bulk_items WHERE job_id = ? GROUP BY state`,
    ).all(jobId) as { state: ItemState; n: number; face: number; cost: number; known: number }[];
    for (const r of rows) {
      if ((ITEM_STATES as readonly string[]).includes(r.state)) out[r.state] = { count: r.n, faceKobo: r.face, costKobo: r.cost, costKnown: r.known };
    }
    return out;
  }

  items(jobId: string, options: { states?: readonly ItemState[]; offset?: number; limit?: number } = {}): ItemRow[] {
    const states = options.states;
    const where = states && states.length ? `AND b.state IN (${states.map(() => '?').join(',')})` : '';
    return this.stmt(
      `SELECT b.*, p.token AS token, p.units AS units FROM bulk_items b LEFT JOIN purchases p ON p.id = b.purchase_id
         WHERE b.job_id = ? ${where} ORDER BY b.seq LIMIT ? OFFSET ?`,
    ).all(jobId, ...(states ?? []), options.limit ?? -1, options.offset ?? 0) as ItemRow[];
  }

  item(jobId: string, seq: number): ItemRow | undefined {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND seq = ?').get(jobId, seq) as ItemRow | undefined;
  }

  countItems(jobId: string, states?: readonly ItemState[]): number {
    const where = states && states.length ? `AND state IN (${states.map(() => '?').join(',')})` : '';
    return (this.stmt(`SELECT COUNT(*) AS n FROM bulk_items WHERE job_id = ? ${where}`).get(jobId, ...(states ?? [])) as { n: number }).n;
  }

  /**
   * The next batch of a job to send now, in file order: at most `limit` items ready to go (from
   * the first `scan`), none with the phone (or meter) and amount of an item that may be in
   * progress at the service (sending, accepted or uncertain here, or `inFlight` in this run) nor
   * of another item of the batch. An item that must go alone (`solo`) goes in a batch of its own.
   * `keys`: the batch's `itemKey`s, which are in flight while it is sent.
   */
  nextBatch(jobId: string, { at, limit, scan, inFlight }: { at: number; limit: number; scan: number; inFlight: ReadonlySet<string> }): { items: ItemRow[]; keys: string[] } {
    const candidates = this.sendable(jobId, at, scan);
    const batch: { items: ItemRow[]; keys: string[] } = { items: [], keys: [] };
    if (candidates.length === 0) return batch;
    const busy = this.busyKeys(jobId);
    for (const k of inFlight) busy.add(k);
    for (const item of candidates) {
      const key = itemKey(item);
      if (busy.has(key)) continue;
      if (item.solo) {
        if (batch.items.length === 0) return { items: [item], keys: [key] };
        continue;
      }
      batch.items.push(item);
      batch.keys.push(key);
      busy.add(key);
      if (batch.items.length >= limit) break;
    }
    return batch;
  }

  /** Items ready to be sent now, in file order. */
  sendable(jobId: string, at: number, limit: number): ItemRow[] {
    return this.stmt("SELECT * FROM bulk_items WHERE job_id = ? AND state IN ('queued', 'held') AND (not_before_ms IS NULL OR not_before_ms <= ?) ORDER BY seq LIMIT ?").all(
      jobId,
      at,
      limit,
    ) as ItemRow[];
  }

  /** Items flagged as a possible repeat of another purchase, in file order (a preview lists them). */
  duplicateItems(jobId: string, limit: number): ItemRow[] {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND duplicate_of IS NOT NULL ORDER BY seq LIMIT ?').all(jobId, limit) as ItemRow[];
  }

  /** Items whose file named another network than the number's, in file order. */
  networkConflictItems(jobId: string, limit: number): ItemRow[] {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND given_network IS NOT NULL ORDER BY seq LIMIT ?').all(jobId, limit) as ItemRow[];
  }

  /** The `itemKey`s (phone or meter/smartcard, and amount) of this job's items that may be in progress at the service: sending, accepted or uncertain. */
  busyKeys(jobId: string): Set<string> {
    const rows = this.stmt("SELECT phone, account, amount_kobo FROM bulk_items WHERE job_id = ? AND state IN ('sending', 'accepted', 'uncertain')").all(jobId) as {
      phone: string;
      account: string | null;
      amount_kobo: number;
    }[];
    return new Set(rows.map((r) => itemKey(r)));
  }

  isReferenceClaimed(reference: string): boolean {
    return this.stmt('SELECT 1 FROM bulk_items WHERE reference = ?').get(reference) !== undefined;
  }

  /** The face value of the items a confirmation would buy (all but the excluded), by network and product. */
  includedFaceByNetwork(jobId: string): { network: string; productCode: string; faceKobo: number }[] {
    return this.stmt(
      `SELECT network, product_code AS productCode, SUM(amount_kobo) AS faceKobo FROM bulk_items WHERE job_id = ? AND state <> 'excluded' GROUP BY network, product_code`,
    ).all(jobId) as { network: string; productCode: string; faceKobo: number }[];
  }

  /**
   * What left the wallet, or may have, since `sinceMs` (the service's clock, as `sent_ms`) on one
   * connection profile, in kobo (face value), for the daily cap: every item sent since then in a
   * state that spends (bought or maybe bought — uncertain items too), of its bulk jobs and its
   * single purchases alike (one-item jobs).
   */
  spentSince(profileId: string, sinceMs: number): number {
    const r = this.stmt(
      `SELECT COALESCE(SUM(b.amount_kobo), 0) AS s FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id
         WHERE j.profile_id = ? AND b.state IN (${SPENDING_SQL}) AND b.sent_ms >= ?`,
    ).get(profileId, sinceMs) as { s: number };
    return r.s;
  }

  /**
   * Airtime and data items of one connection profile's jobs (bulk jobs and single purchases) for a
   * phone and amount since `sinceIso` that were bought or may have been (a state that spends:
   * uncertain items too), for duplicate checks (an electricity or cable item's phone is its
   * customer's, not what was bought).
   */
  recentItems(profileId: string, phone: string, amountKobo: number, sinceIso: string): ItemRow[] {
    return this.stmt(
      `SELECT b.* FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id WHERE j.profile_id = ? AND j.kind IN ('airtime', 'data') AND b.phone = ? AND b.amount_kobo = ?
         AND b.state IN (${SPENDING_SQL}) AND b.updated_at >= ? ORDER BY b.updated_at`,
    ).all(profileId, phone, amountKobo, sinceIso) as ItemRow[];
  }

  /** The item states of this connection's single purchases (one-item jobs) of the same phone, amount and product made since `sinceIso`. */
  singlePurchasesLike(profileId: string, item: { kind: string; phone: string; amount_kobo: number; product_code: string }, sinceIso: string): ItemState[] {
    const rows = this.stmt(
      `SELECT b.state FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id
        WHERE j.origin = 'single' AND j.state <> 'awaiting_approval' AND j.profile_id = ? AND j.kind = ? AND b.phone = ? AND b.amount_kobo = ? AND b.product_code = ? AND j.created_at >= ?`,
    ).all(profileId, item.kind, item.phone, item.amount_kobo, item.product_code, sinceIso) as { state: ItemState }[];
    return rows.map((r) => r.state);
  }

  invalidRows(jobId: string, offset: number, limit: number): InvalidRowRecord[] {
    return this.stmt('SELECT row_number AS row, field, message, phone, name FROM bulk_invalid_rows WHERE job_id = ? ORDER BY row_number, rowid LIMIT ? OFFSET ?').all(
      jobId,
      limit,
      offset,
    ) as InvalidRowRecord[];
  }

  invalidRowCount(jobId: string): number {
    return (this.stmt('SELECT COUNT(*) AS n FROM bulk_invalid_rows WHERE job_id = ?').get(jobId) as { n: number }).n;
  }

  // ------------------------------------------------------------------ items: transitions

  /** Committed before the request leaves: a crash after this leaves the items `sending`. `sentMs`: the service's clock. */
  markSending(jobId: string, seqs: readonly number[], sentMs: number): void {
    const at = now();
    const t = sentMs;
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
    const stmt = this.stmt("UPDATE bulk_items SET state = 'accepted', reference = ?, reason = ?, updated_at = ? WHERE job_id = ? AND seq = ?");
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
    // The states it may come from are the state table's; a caller may narrow them, never widen them.
    const allowed = statesLeadingTo(to);
    const outside = (from ?? []).filter((s) => !allowed.includes(s));
    if (outside.length > 0) throw new Error(`A bulk item cannot move from ${outside.join(', ')} to ${to}: not in the state table (bulk/jobStates.ts).`);
    const guard = `AND state IN (${(from && from.length ? from : allowed).map((s) => `'${s}'`).join(',')})`;
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

  /** An uncertain item found in the service's log: it was bought (or is being), at the entry's cost. */
  claimFromLog(jobId: string, seq: number, reference: string, to: ItemState, settledBy: string, costKobo: number | null = null): boolean {
    const at = now();
    try {
      const r = this.stmt(
        "UPDATE bulk_items SET state = ?, reference = ?, settled_by = ?, reason = NULL, cost_kobo = COALESCE(?, cost_kobo), updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ? AND state = 'uncertain'",
      ).run(to, reference, settledBy, costKobo, at, to, at, jobId, seq);
      return r.changes === 1;
    } catch (error) {
      // The unique index on reference: another item already owns this log entry.
      if (error instanceof Error && /UNIQUE/.test(error.message)) return false;
      throw error;
    }
  }

  /**
   * An accepted or pending item's outcome from the log or a requery (with the log entry's cost
   * when read there). An item another check already settled is left as it is.
   */
  setFinal(jobId: string, seq: number, to: 'success' | 'failed' | 'pending' | 'accepted', reason: string | null, settledBy: string, costKobo: number | null = null): void {
    const at = now();
    this.stmt(
      "UPDATE bulk_items SET state = ?, reason = ?, settled_by = COALESCE(settled_by, ?), cost_kobo = COALESCE(?, cost_kobo), updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ? AND state IN ('accepted', 'pending')",
    ).run(to, reason, settledBy, costKobo, at, to, at, jobId, seq);
  }

  /** The wallet cost of an item, from its log entry; a cost once known is kept. */
  setCost(jobId: string, seq: number, costKobo: number): boolean {
    return this.stmt('UPDATE bulk_items SET cost_kobo = ? WHERE job_id = ? AND seq = ? AND cost_kobo IS NULL').run(costKobo, jobId, seq).changes === 1;
  }

  /** After a requery: when it may be asked again (null: no more requeries, the service will not answer them). */
  setNextRequery(jobId: string, seq: number, nextMs: number | null): void {
    this.stmt('UPDATE bulk_items SET next_requery_ms = ?, requery_tries = requery_tries + 1 WHERE job_id = ? AND seq = ?').run(nextMs, jobId, seq);
  }

  setIncluded(jobId: string, seqs: readonly number[], included: boolean): number {
    return this.transition(jobId, seqs, included ? 'queued' : 'excluded', {}, included ? ['excluded'] : ['queued']);
  }

  setNetwork(jobId: string, seq: number, product: { network: string; productCode: string; voucherCode: string; operator: string; region: string }): void {
    this.stmt('UPDATE bulk_items SET network = ?, product_code = ?, voucher_code = ?, operator = ?, region = ?, updated_at = ? WHERE job_id = ? AND seq = ?').run(
      product.network,
      product.productCode,
      product.voucherCode,
      product.operator,
      product.region,
      now(),
      jobId,
      seq,
    );
  }

  /**
   * A run of the job begins here, in one transaction: this process takes the job's lease (refused,
   * with the holder's pid, while another live process holds it), the job is `running`, and items
   * a stopped vendesk left `sending` become `uncertain` (checked against the log before anything
   * is sent again). Returns how many were left sending, and how many are uncertain now.
   */
  beginRun(
    jobId: string,
    lease: { pid: number; leaseMs: number; isAlive: (pid: number) => boolean },
  ): { ok: true; recovered: number; uncertain: number } | { ok: false; holder: number } {
    return this.db
      .transaction(() => {
        const leased = this.takeLease(jobId, lease.pid, lease.leaseMs, lease.isAlive);
        if (!leased.ok) return leased;
        this.setJobState(jobId, 'running');
        const recovered = this.sendingToUncertain(jobId);
        return { ok: true as const, recovered, uncertain: this.countItems(jobId, ['uncertain']) };
      })
      .immediate();
  }

  /**
   * A single purchase sent for a team member's approval: its job of one item, written waiting in
   * `awaiting_approval` and linked to its team job (`link`, in the same transaction). Nothing of it
   * is sent until it is approved and begun (`beginApprovedSingle`).
   */
  createWaitingSingle(
    kind: JobRow['kind'],
    connection: Pick<Connection, 'profileId' | 'kind' | 'baseUrl'>,
    fileName: string,
    item: NewItem,
    message: string,
    link: (jobId: string) => void,
  ): string {
    return this.db.transaction(() => {
      const id = this.createSingleJob(kind, connection, fileName, item);
      this.awaitApproval(id, message, () => link(id));
      return id;
    })();
  }

  /**
   * An approved single purchase, checked again just now, begins its run from `awaiting_approval`:
   * its item is written as checked (what the approver approved: the team checked its digest) and
   * the job is running, its lease this process's. Only one attempt moves it (a retry, a second
   * window or process finds it begun): false for the others.
   */
  beginApprovedSingle(jobId: string, item: NewItem, pid: number, leaseMs: number): boolean {
    const at = now();
    const begun = this.stmt(
      `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
        runner_pid = @pid, lease_until_ms = @until WHERE id = @jobId AND state = 'awaiting_approval' AND origin = 'single'`,
    ).run({ at, pid, until: Date.now() + leaseMs, jobId });
    if (begun.changes !== 1) return false;
    this.stmt(
      `UPDATE bulk_items SET phone = @phone, network = @network, product_code = @productCode, description = @description, amount_kobo = @amountKobo,
        given_network = @givenNetwork, prefix_network = @prefixNetwork, account = @account, vend_type = @vendType, account_name = @accountName, updated_at = @at
       WHERE job_id = @jobId AND seq = 1 AND state = 'queued'`,
    ).run({
      jobId,
      at,
      phone: item.phone,
      network: item.network,
      productCode: item.productCode,
      description: item.description,
      amountKobo: item.amountKobo,
      givenNetwork: item.givenNetwork,
      prefixNetwork: item.prefixNetwork,
      account: item.account ?? null,
      vendType: item.vendType ?? null,
      accountName: item.accountName ?? null,
    });
    return true;
  }

  /**
   * An approved single purchase whose run stopped before its item left waits to be bought again,
   * as approved: back to `awaiting_approval`. `ownRun`: the caller's own run ended, or it found the
   * run interrupted; otherwise only a job no process holds (its lease gone) moves. False when its
   * item left, or the job is not such a run.
   */
  backToApproval(jobId: string, message: string, ownRun: boolean): boolean {
    return (
      this.stmt(
        `UPDATE bulk_jobs SET state = 'awaiting_approval', message = @message, confirmed_at = NULL, started_at = NULL, runner_pid = NULL, lease_until_ms = NULL, updated_at = @at
         WHERE id = @jobId AND origin = 'single' AND state IN ('running', 'paused') AND (@ownRun = 1 OR lease_until_ms IS NULL OR lease_until_ms < @nowMs)
           AND NOT EXISTS (SELECT 1 FROM bulk_items WHERE job_id = @jobId AND state <> 'queued')`,
      ).run({ jobId, message, at: now(), nowMs: Date.now(), ownRun: ownRun ? 1 : 0 }).changes === 1
    );
  }

  /**
   * A single purchase's job, just created (a draft of one item, nothing of it sent), confirmed and
   * its run begun by this process in one statement: `running`, its lease this process's. What
   * `confirmJob` and `beginRun` do, with nothing to recover and no other holder possible.
   */
  beginSingleRun(jobId: string, pid: number, leaseMs: number): { recovered: 0; uncertain: 0 } {
    const at = now();
    const begun = this.stmt(
      `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
        runner_pid = @pid, lease_until_ms = @until WHERE id = @jobId AND state = 'draft' AND origin = 'single'`,
    ).run({ at, pid, until: Date.now() + leaseMs, jobId });
    if (begun.changes !== 1) throw new Error(`single job ${jobId} was not a new draft`);
    return { recovered: 0, uncertain: 0 };
  }

  /** After a crash: whatever was `sending` may have been bought. */
  sendingToUncertain(jobId: string): number {
    return this.stmt(
      "UPDATE bulk_items SET state = 'uncertain', reason = 'vendesk stopped while this item was being sent; it is checked against the service log before anything is sent again', updated_at = ? WHERE job_id = ? AND state = 'sending'",
    ).run(now(), jobId).changes;
  }

  // ------------------------------------------------------------------ electricity and cable items

  /**
   * Electricity and cable items of spreadsheet jobs (in a state that spends: bought or maybe bought)
   * and purchases (not failed, rejected or not found) of an account and amount since `sinceIso`,
   * for duplicate checks.
   */
  recentAccountPurchases(
    profileId: string,
    kind: string,
    account: string,
    amountKobo: number,
    sinceIso: string,
  ): { source: 'job' | 'purchase'; reference: string | null; at: string; status: string; jobId: string | null; purchaseId: string | null }[] {
    const items = this.stmt(
      `SELECT b.job_id, b.reference, b.state, b.updated_at, b.purchase_id FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id
         WHERE j.profile_id = ? AND j.origin = 'file' AND b.account = ? AND b.amount_kobo = ?
         AND b.state IN (${SPENDING_SQL}) AND b.updated_at >= ?`,
    ).all(profileId, account, amountKobo, sinceIso) as { job_id: string; reference: string | null; state: string; updated_at: string; purchase_id: string | null }[];
    const linked = new Set(items.map((i) => i.purchase_id).filter((p): p is string => p !== null));
    const purchases = (
      this.stmt(
        `SELECT id, reference, state, created_at FROM purchases WHERE profile_id = ? AND kind = ? AND account = ? AND amount_kobo = ?
         AND state NOT IN ('failed', 'rejected', 'not_found') AND created_at >= ?`,
      ).all(profileId, kind, account, amountKobo, sinceIso) as { id: string; reference: string | null; state: string; created_at: string }[]
    ).filter((p) => !linked.has(p.id));
    return [
      ...items.map((i) => ({ source: 'job' as const, reference: i.reference, at: i.updated_at, status: i.state, jobId: i.job_id, purchaseId: i.purchase_id })),
      ...purchases.map((p) => ({ source: 'purchase' as const, reference: p.reference, at: p.created_at, status: p.state, jobId: null, purchaseId: p.id })),
    ].sort((a, b) => a.at.localeCompare(b.at));
  }

  /**
   * The purchase an electricity or cable item was bought as, when it is not linked: a bulk
   * purchase of the same kind, account, amount (and bouquet) made from the moment the item was
   * marked sending, not linked to another item. None means never sent. Since items are linked in
   * the transaction that writes their purchase, only an item a vendesk before that left `sending`
   * needs this.
   */
  findUnlinkedPurchase(kind: string, item: ItemRow): { id: string } | null {
    const since = new Date((item.sent_ms ?? 0) - 1000).toISOString();
    const row = this.stmt(
      `SELECT p.id FROM purchases p WHERE p.kind = ? AND p.source = 'bulk' AND p.account = ? AND p.amount_kobo = ? AND p.bouquet_code = ?
         AND p.created_at >= ? AND NOT EXISTS (SELECT 1 FROM bulk_items b WHERE b.purchase_id = p.id) ORDER BY p.created_at, p.id LIMIT 1`,
    ).get(kind, item.account ?? '', item.amount_kobo, kind === 'cable' ? item.product_code : '', since) as { id: string } | undefined;
    return row ?? null;
  }

  /**
   * The item is sent as this purchase, in the purchase's write before its request leaves: linked
   * to it and `sending` (counted as an attempt sent at `sentMs`, unless the runner marked it
   * already). Throws `purchase_not_sent` when the item is no longer to be sent (its job was
   * cancelled meanwhile): the purchase is not written, and nothing leaves.
   */
  sendAsPurchase(jobId: string, seq: number, purchaseId: string, sentMs: number): void {
    const marked = this.stmt(
      `UPDATE bulk_items SET purchase_id = @purchaseId, state = 'sending',
        attempts = attempts + (state <> 'sending'), sent_ms = CASE WHEN state = 'sending' THEN sent_ms ELSE @sentMs END,
        not_before_ms = CASE WHEN state = 'sending' THEN not_before_ms END, updated_at = @at
       WHERE job_id = @jobId AND seq = @seq AND purchase_id IS NULL AND state IN ('queued', 'held', 'sending')`,
    ).run({ purchaseId, sentMs, at: now(), jobId, seq });
    // A queued item leaves for a state that is never sent only when its job is cancelled.
    if (marked.changes !== 1) throw new AppError('purchase_not_sent', 'This purchase was cancelled before it was sent. Nothing was bought.', 'Buy it again if it is still wanted.');
  }

  linkPurchase(jobId: string, seq: number, purchaseId: string): void {
    this.stmt('UPDATE bulk_items SET purchase_id = ?, updated_at = ? WHERE job_id = ? AND seq = ? AND purchase_id IS NULL').run(purchaseId, now(), jobId, seq);
  }

  /**
   * Brings each linked item of the job up to its purchase's state: the purchases module (answer,
   * requery loop, log settlement, the Pending page) is the one source of truth for them; the
   * caller says what each purchase state means for the item (`itemFromPurchase`, with its wording).
   * Returns how many items changed.
   */
  syncFromPurchases(jobId: string, itemFromPurchase: ItemFromPurchase): number {
    return this.followPurchases('b.job_id = ?', jobId, itemFromPurchase).changed;
  }

  /** The columns of a purchase its item follows (read below): a change to any other (a requery's count, a time) leaves the item as it is. */
  static readonly FOLLOWED_PURCHASE_FIELDS: ReadonlySet<string> = new Set(['state', 'reference', 'reason', 'hint', 'refund_state', 'settled_by', 'final_at', 'commission_kobo']);

  /**
   * The item linked to this purchase, brought up to its state (in the purchase's own write:
   * `bulkPurchaseFollower` in jobFollowUp.ts). Returns its job when the item changed, else null.
   */
  followPurchase(purchaseId: string, itemFromPurchase: ItemFromPurchase): string | null {
    const { changed, jobId } = this.followPurchases('b.purchase_id = ?', purchaseId, itemFromPurchase);
    return changed > 0 ? jobId : null;
  }

  private followPurchases(where: 'b.job_id = ?' | 'b.purchase_id = ?', key: string, itemFromPurchase: ItemFromPurchase): { changed: number; jobId: string | null } {
    const rows = this.stmt(
      `SELECT b.job_id, b.seq, b.state AS item_state, b.reason AS item_reason, b.reference AS item_reference, b.amount_kobo, b.cost_kobo,
                p.state, p.reference, p.reason, p.hint, p.refund_state, p.settled_by, p.final_at, p.commission_kobo
         FROM bulk_items b JOIN purchases p ON p.id = b.purchase_id WHERE ${where}`,
    ).all(key) as (PurchaseStateFields & {
      job_id: string;
      seq: number;
      item_state: ItemState;
      item_reason: string | null;
      item_reference: string | null;
      amount_kobo: number;
      cost_kobo: number | null;
      reference: string | null;
      settled_by: string | null;
      final_at: string | null;
      commission_kobo: number | null;
    })[];
    const at = now();
    const writes: (() => void)[] = [];
    let changed = 0;
    for (const r of rows) {
      const next = itemFromPurchase(r);
      const moves = next !== null && !(next.state === r.item_state && next.reason === r.item_reason && (r.reference === null || r.reference === r.item_reference));
      // The wallet cost of a purchase whose answer gave its commission: its amount less the commission.
      const state = moves ? next.state : r.item_state;
      const costKobo = r.cost_kobo === null && r.commission_kobo !== null && COSTED_ITEM_STATES.has(state) ? r.amount_kobo - r.commission_kobo : null;
      if (moves) {
        const settledBy = r.settled_by ? `purchase: ${r.settled_by}` : null;
        writes.push(() => this.stmt(FOLLOW_PURCHASE_SQL).run({ state, reason: next.reason, reference: r.reference, settledBy, costKobo, at, jobId: r.job_id, seq: r.seq }));
      } else if (costKobo !== null) {
        writes.push(() => this.stmt('UPDATE bulk_items SET cost_kobo = ?, updated_at = ? WHERE job_id = ? AND seq = ?').run(costKobo, at, r.job_id, r.seq));
      }
      changed += (moves ? 1 : 0) + (costKobo !== null ? 1 : 0);
    }
    // Items already up to date (the common case: they moved in their purchase's own write) cost no write.
    if (writes.length > 0)
      this.db.transaction(() => {
        for (const write of writes) write();
      })();
    return { changed, jobId: rows[0]?.job_id ?? null };
  }
}

/** An item moved to its purchase's state (`followPurchases`), its cost learned with it when the purchase gave its commission. */
const FOLLOW_PURCHASE_SQL = `UPDATE bulk_items SET state = @state, reason = @reason, reference = COALESCE(@reference, reference), settled_by = @settledBy,
  final_at = CASE WHEN @state IN ('success', 'failed', 'rejected') THEN COALESCE(final_at, @at) ELSE final_at END,
  cost_kobo = COALESCE(cost_kobo, @costKobo), updated_at = @at
 WHERE job_id = @jobId AND seq = @seq`;

/** The item states whose wallet cost is learned from their purchase's commission. */
const COSTED_ITEM_STATES: ReadonlySet<ItemState> = new Set(['accepted', 'pending', 'success', 'failed']);

/** What a purchase's state means for the item linked to it (`bulk/vendingItems.ts` says it); null: leave the item as it is. */
export type ItemFromPurchase = (p: PurchaseStateFields) => { state: ItemState; reason: string | null } | null;

/** Items that must never be in flight together: same phone (or meter/smartcard) and amount. */
export function itemKey(item: { phone: string; amount_kobo: number; account?: string | null }): string {
  return `${item.account ?? item.phone}|${item.amount_kobo}`;
}

/**
 * Why `job` may not be sent to or asked about on `connection` (the one in use), or null: a job
 * is sent to, and asked about at, only the service it was prepared for.
 */
export function connectionProblem(job: JobRow, connection: Connection): AppError | null {
  const c = connection;
  const same = c.profileId === job.profile_id && (c.kind === 'sandbox' && c.profileId === 'sandbox' ? true : c.baseUrl === job.base_url);
  if (same) return null;
  return new AppError(
    'job_other_connection',
    `This job was prepared for another connection (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}.`,
    'Switch back to the connection the job was prepared for, or prepare the file again on this connection.',
  );
}

/**
 * Why a running `job` may not send now on `connection`, saying what to do (it pauses with this),
 * or null. Not "prepare the file again": some of its rows may be bought already.
 */
export function sendingProblem(job: JobRow, connection: Connection): string | null {
  if (!connectionProblem(job, connection)) return null;
  const c = connection;
  return `vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}, and this job runs only on the connection it was prepared for (${job.connection_kind.toUpperCase()} ${job.base_url}). Nothing of it was sent to the other connection. Switch back to that connection, then resume the job: the rows not sent yet wait.`;
}
