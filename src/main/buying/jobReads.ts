/**
 * What vendesk reads of bulk jobs and their items — the views of the windows and the CLI, the
 * figures, the previews and exports, the duplicate checks of preparation, what the follow-up and
 * the requery loop look at — on the read-only handle of the database (`ReadableDB`): nothing here
 * can write. The writes are apart: a job's life and state in `jobLifecycle.ts`, an item's moves in
 * `itemMoves.ts`. The row types are in `jobRows.ts`.
 */
import type { ReadableDB, ReadStatement } from '../store/readableDb';
import { stateIn } from '../../shared/bulkStateTables';
import type { DueRequery, InvalidRowRecord, ItemRow, JobOrigin, JobRow, StateFigures } from './jobRows';
import { emptyCounts, ITEM_STATES, SPENDING_STATES, type ItemCounts, type ItemState } from './jobStates';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { RecentMatch } from '../imports/validationResult';

/** Purchases of the last 24 hours of an account (a phone, a meter, a smartcard) and amount, oldest first: what a row or a single purchase is checked against. */
export type RecentLookup = (account: string, amountKobo: number) => RecentMatch[];

export class JobReads {
  private readonly statements = new Map<string, ReadStatement>();

  constructor(readonly db: ReadableDB) {}

  /** A statement compiled once per SQL text (the views run the same ones again and again). */
  private stmt(sql: string): ReadStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ------------------------------------------------------------------ jobs

  job(id: string): JobRow | undefined {
    return this.stmt('SELECT * FROM bulk_jobs WHERE id = ?').get(id) as JobRow | undefined;
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

  // ------------------------------------------------------------------ a job's items and figures

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

  /** The airtime or data item of one connection profile the service knows by `reference`, with its job; undefined when vendesk bought none. */
  topUpByReference(profileId: string, reference: string): { job: JobRow; item: ItemRow } | undefined {
    const r = this.stmt(
      `SELECT i.job_id, i.seq FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id WHERE i.reference = ? AND j.profile_id = ? AND j.kind IN ('airtime', 'data')`,
    ).get(reference, profileId) as { job_id: string; seq: number } | undefined;
    const job = r && this.job(r.job_id);
    const item = r && this.item(r.job_id, r.seq);
    return job && item ? { job, item } : undefined;
  }

  countItems(jobId: string, states?: readonly ItemState[]): number {
    const where = states && states.length ? `AND state IN (${states.map(() => '?').join(',')})` : '';
    return (this.stmt(`SELECT COUNT(*) AS n FROM bulk_items WHERE job_id = ? ${where}`).get(jobId, ...(states ?? [])) as { n: number }).n;
  }

  /** Items flagged as a possible repeat of another purchase, in file order (a preview lists them). */
  duplicateItems(jobId: string, limit: number): ItemRow[] {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND duplicate_of IS NOT NULL ORDER BY seq LIMIT ?').all(jobId, limit) as ItemRow[];
  }

  /** Items whose file named another network than the number's, in file order. */
  networkConflictItems(jobId: string, limit: number): ItemRow[] {
    return this.stmt('SELECT * FROM bulk_items WHERE job_id = ? AND given_network IS NOT NULL ORDER BY seq LIMIT ?').all(jobId, limit) as ItemRow[];
  }

  /** Whether an item already owns this log entry (a reference settles one item only). */
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
         WHERE j.profile_id = ? AND b.${stateIn(SPENDING_STATES)} AND b.sent_ms >= ?`,
    ).get(profileId, sinceMs) as { s: number };
    return r.s;
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

  // ------------------------------------------------------------------ duplicates: what was bought lately

  /**
   * Airtime and data items of one connection profile's jobs (bulk jobs and single purchases) for a
   * phone and amount since `sinceIso` that were bought or may have been (a state that spends:
   * uncertain items too), for duplicate checks (an electricity or cable item's phone is its
   * customer's, not what was bought).
   */
  recentItems(profileId: string, phone: string, amountKobo: number, sinceIso: string): ItemRow[] {
    return this.stmt(
      `SELECT b.* FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id WHERE j.profile_id = ? AND j.kind IN ('airtime', 'data') AND b.phone = ? AND b.amount_kobo = ?
         AND b.${stateIn(SPENDING_STATES)} AND b.updated_at >= ? ORDER BY b.updated_at`,
    ).all(profileId, phone, amountKobo, sinceIso) as ItemRow[];
  }

  /**
   * Airtime and data purchases of the last 24 hours, looked up by phone and amount: the items of
   * this connection profile's jobs on this computer (not of `excludeJobId`), and the service's
   * `log` (entries not FAILED; an entry that is a job item's reference is listed once). Each counts
   * when it was bought on the service's clock (`serviceNowMs`, a moved sandbox clock included).
   */
  recentPurchases(profileId: string, excludeJobId: string | null, log: readonly ParsedLogEntry[] = [], serviceNowMs = Date.now()): RecentLookup {
    const since = new Date(Date.now() - 24 * 3600_000).toISOString();
    // The log's times are the service's: its last 24 hours are counted on its clock.
    const logSince = new Date(serviceNowMs - 24 * 3600_000).toISOString();
    const byKey = new Map<string, ParsedLogEntry[]>();
    const logByRef = new Map(log.map((e) => [e.transactionId, e]));
    for (const e of log) {
      if (e.status === 'FAILED' || e.createdAt < logSince) continue;
      const key = `${e.phoneNumber}|${e.amountKobo}`;
      const list = byKey.get(key);
      if (list) list.push(e);
      else byKey.set(key, [e]);
    }
    return (account, amountKobo) => {
      // This computer's last 24 hours find the candidates; each counts when it was bought on the service's clock.
      const items = this.recentItems(profileId, account, amountKobo, since).filter((i) => i.job_id !== excludeJobId && boughtAt(i, logByRef) >= logSince);
      const refs = new Set(items.map((i) => i.reference).filter((r): r is string => r !== null));
      const fromJobs = items.map((i) => ({
        source: 'job' as const,
        reference: i.reference,
        at: boughtAt(i, logByRef),
        amountKobo: i.amount_kobo,
        status: i.state,
        jobId: i.job_id,
      }));
      const fromLog = (byKey.get(`${account}|${amountKobo}`) ?? [])
        .filter((e) => !refs.has(e.transactionId))
        .map((e) => ({ source: 'log' as const, reference: e.transactionId, at: e.createdAt, amountKobo: e.amountKobo, status: e.status }));
      return [...fromLog, ...fromJobs].sort((a, b) => a.at.localeCompare(b.at));
    };
  }

  /** The item states of this connection's single purchases (one-item jobs) of the same phone, amount and product made since `sinceIso`. */
  singlePurchasesLike(profileId: string, item: { kind: string; phone: string; amount_kobo: number; product_code: string }, sinceIso: string): ItemState[] {
    const rows = this.stmt(
      `SELECT b.state FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id
        WHERE j.origin = 'single' AND j.state <> 'awaiting_approval' AND j.profile_id = ? AND j.kind = ? AND b.phone = ? AND b.amount_kobo = ? AND b.product_code = ? AND j.created_at >= ?`,
    ).all(profileId, item.kind, item.phone, item.amount_kobo, item.product_code, sinceIso) as { state: ItemState }[];
    return rows.map((r) => r.state);
  }

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
         AND b.${stateIn(SPENDING_STATES)} AND b.updated_at >= ?`,
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
}

/**
 * When an item was bought, as a duplicate warning names it: the service's own time of it (its log
 * entry), else the service's clock when vendesk sent it, else when vendesk last recorded it — never
 * this computer's clock when the service's is known.
 */
function boughtAt(item: ItemRow, logByRef: ReadonlyMap<string, ParsedLogEntry>): string {
  const entry = item.reference ? logByRef.get(item.reference) : undefined;
  if (entry) return entry.createdAt;
  return item.sent_ms !== null ? new Date(item.sent_ms).toISOString() : item.updated_at;
}
