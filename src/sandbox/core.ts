/**
 * The sandbox's state holder: the database, organisations (wallet, clock, faults), the data
 * version used to cache log orderings, and the lazy settling of time-based transitions.
 */
import type { CatalogChange } from './catalogChanges';
import type { ShapeVariant } from './answerShapes';
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { LOG_INSERT_SQL, openDb, type Db, type LogRow, type NewLogRow, type OrgRow } from './store';

export interface Fault {
  path: string;
  status: number;
  remaining: number;
  withVoucherOnly: boolean;
  /** Sent as the answer's `Retry-After` header (seconds), when set. */
  retryAfterSeconds?: number;
}

export interface OrgState {
  id: number;
  token: string;
  configured: boolean;
  clockOffsetMs: number;
  /** Set while the clock is held (`/__sandbox/clock {"hold": true}`): the organisation's time stands at it and moves only when advanced. */
  heldAtMs?: number;
  faults: Fault[];
  /** The next this many refunds of failed purchases are not paid back (a provider's fault, for tests). */
  withheldRefunds: number;
  /** Bumped when log statuses change (settling): orderings filtered by status are recomputed. */
  statusVersion: number;
  /** Bumped when log rows are removed or inserted out of order (reset, seeding): every ordering is recomputed. */
  layoutVersion: number;
  /** The form of the messaging answers for this organisation (`/__sandbox/shapes`); unset: the sandbox's. */
  shapes?: ShapeVariant;
  /** Added round-trip time of this organisation's answers (`/__sandbox/latency`); unset: the sandbox's `latencyMs`. */
  latencyMs?: number;
  /** Plans and bouquets repriced or withdrawn for this organisation (`/__sandbox/catalog`), by catalog and product code. */
  catalogChanges?: Map<string, CatalogChange>;
}

export interface CoreOptions {
  dbPath?: string;
  initialBalanceKobo: number;
  accountName?: string;
  seedHistory: number;
  quiet: boolean;
  /** The form of the messaging answers (default `standard`; see answerShapes.ts). */
  shapes?: ShapeVariant;
  /** How long an accepted airtime/data purchase stays PENDING, ms (default `CREDIT_DELAY_MS`, 5 s). */
  creditDelayMs?: number;
}

export const DEFAULT_SENDER_IDS: ReadonlyArray<{ senderId: string; state: 'APPROVED' | 'PENDING' }> = [
  { senderId: 'VENDESK', state: 'APPROVED' },
  { senderId: 'PROMOTXT', state: 'PENDING' },
];

export const UNCONFIGURED_PREFIX = 'unconfigured-';

interface Statements {
  orgByToken: Statement<[string], OrgRow>;
  insertOrg: Statement<[string, string, string, number, number, number]>;
  balance: Statement<[number], { balance_kobo: number }>;
  debit: Statement<[number, number, number]>;
  credit: Statement<[number, number]>;
  setBalance: Statement<[number, number]>;
  setClock: Statement<[number, number | null, number]>;
  dueRows: Statement<[number, number], Pick<LogRow, 'id' | 'outcome' | 'cost_kobo' | 'final_at_ms'>>;
  settleRow: Statement<[string, number, number]>;
  insertLog: Statement<NewLogRow>;
  insertSender: Statement<[number, string, string, number]>;
}

export class SandboxCore {
  readonly db: Db;
  readonly stmts: Statements;
  private readonly orgs = new Map<string, OrgState>();
  /**
   * Added round-trip time of every answer but the control endpoints', in ms (`--latency-ms`): half
   * before the request is handled, half before its answer leaves. It is where every organisation
   * starts; `/__sandbox/latency` changes one organisation's only (`OrgState.latencyMs`), so one
   * token cannot slow the others — vendesk's own among them (issue 23, item 15).
   */
  latencyMs = 0;

  /** The round-trip time this organisation's answers take. */
  latencyOf(org: OrgState): number {
    return org.latencyMs ?? this.latencyMs;
  }

  constructor(readonly options: CoreOptions) {
    this.db = openDb(options.dbPath);
    const db = this.db;
    this.stmts = {
      orgByToken: db.prepare('SELECT * FROM orgs WHERE token = ?'),
      insertOrg: db.prepare('INSERT INTO orgs (token, name, account_number, configured, balance_kobo, created_ms) VALUES (?, ?, ?, ?, ?, ?)'),
      balance: db.prepare('SELECT balance_kobo FROM orgs WHERE id = ?'),
      debit: db.prepare('UPDATE orgs SET balance_kobo = balance_kobo - ? WHERE id = ? AND balance_kobo >= ?'),
      credit: db.prepare('UPDATE orgs SET balance_kobo = balance_kobo + ? WHERE id = ?'),
      setBalance: db.prepare('UPDATE orgs SET balance_kobo = ? WHERE id = ?'),
      setClock: db.prepare('UPDATE orgs SET clock_offset_ms = ?, held_at_ms = ? WHERE id = ?'),
      dueRows: db.prepare("SELECT id, outcome, cost_kobo, final_at_ms FROM log INDEXED BY log_pending WHERE org_id = ? AND status = 'PENDING' AND final_at_ms <= ?"),
      settleRow: db.prepare('UPDATE log SET status = ?, updated_ms = ? WHERE id = ?'),
      insertLog: db.prepare(LOG_INSERT_SQL),
      insertSender: db.prepare('INSERT OR REPLACE INTO sender_ids (org_id, sender_id, approval, created_ms) VALUES (?, ?, ?, ?)'),
    };
  }

  private readonly statementCache = new Map<string, Statement>();

  /** A prepared statement for this SQL, prepared once per database. */
  stmt<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let statement = this.statementCache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statementCache.set(sql, statement);
    }
    return statement as unknown as Statement<P, R>;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The organisation of a token, creating it on first use; null when the token is not accepted. */
  resolveOrg(token: string, acceptAny: boolean, known: ReadonlySet<string>): OrgState | null {
    const cached = this.orgs.get(token);
    if (cached) return cached;
    const unconfigured = token.startsWith(UNCONFIGURED_PREFIX);
    // A token is accepted only under this run's rules, even if a SQLite file remembers it.
    if (!unconfigured && !acceptAny && !known.has(token)) return null;
    const row = this.stmts.orgByToken.get(token);
    if (row) return this.remember(row);
    return this.createOrg(token, known.has(token) ? this.options.seedHistory : 0);
  }

  /** Creates the organisation (seeding its history when asked); an existing one is returned as is. */
  createOrg(token: string, seed: number, seeder?: (core: SandboxCore, org: OrgState, n: number) => void): OrgState {
    const existing = this.stmts.orgByToken.get(token);
    if (existing) return this.remember(existing);
    const configured = !token.startsWith(UNCONFIGURED_PREFIX);
    const digest = createHash('sha256').update(token).digest();
    const accountNumber = String(digest.readUInt32BE(0)).padStart(10, '0').slice(-10);
    const name = this.options.accountName ?? (configured ? 'Vendesk Demo Ltd' : 'Unconfigured Organisation');
    const created = Date.now();
    const info = this.stmts.insertOrg.run(token, name, accountNumber, configured ? 1 : 0, configured ? this.options.initialBalanceKobo : 0, created);
    const org: OrgState = { id: Number(info.lastInsertRowid), token, configured, clockOffsetMs: 0, faults: [], withheldRefunds: 0, statusVersion: 0, layoutVersion: 0 };
    this.orgs.set(token, org);
    this.insertDefaultSenders(org, created);
    if (seed > 0 && configured) (seeder ?? this.seeder)?.(this, org, seed);
    return org;
  }

  /** Installed by index.ts so core does not depend on the seeding module's size. */
  seeder: ((core: SandboxCore, org: OrgState, n: number) => void) | undefined;

  private remember(row: OrgRow): OrgState {
    const org: OrgState = {
      id: row.id,
      token: row.token,
      configured: row.configured === 1,
      clockOffsetMs: row.clock_offset_ms,
      ...(row.held_at_ms === null ? {} : { heldAtMs: row.held_at_ms }),
      faults: [],
      withheldRefunds: 0,
      statusVersion: 0,
      layoutVersion: 0,
    };
    this.orgs.set(row.token, org);
    return org;
  }

  insertDefaultSenders(org: OrgState, nowMs: number): void {
    for (const s of DEFAULT_SENDER_IDS) {
      this.stmts.insertSender.run(org.id, s.senderId, JSON.stringify({ NG: s.state }), nowMs);
    }
  }

  orgRow(org: OrgState): OrgRow {
    const row = this.stmts.orgByToken.get(org.token);
    if (!row) throw new Error('organisation vanished');
    return row;
  }

  now(org: OrgState): number {
    return org.heldAtMs ?? Date.now() + org.clockOffsetMs;
  }

  advanceClock(org: OrgState, seconds: number): void {
    const ms = Math.round(seconds * 1000);
    org.clockOffsetMs += ms;
    if (org.heldAtMs !== undefined) org.heldAtMs += ms;
    this.stmts.setClock.run(org.clockOffsetMs, org.heldAtMs ?? null, org.id);
  }

  /**
   * Holds the organisation's clock where it is (its time passes only when advanced), or lets it run
   * on from where it stands: a test of a time rule (2 min 1 s, 5 s crediting) then never depends
   * on how long the machine took between two calls.
   */
  holdClock(org: OrgState, hold: boolean): void {
    if (hold) org.heldAtMs ??= this.now(org);
    else if (org.heldAtMs !== undefined) {
      org.clockOffsetMs = org.heldAtMs - Date.now();
      org.heldAtMs = undefined;
    }
    this.stmts.setClock.run(org.clockOffsetMs, org.heldAtMs ?? null, org.id);
  }

  balanceKobo(org: OrgState): number {
    return this.stmts.balance.get(org.id)?.balance_kobo ?? 0;
  }

  /** Debits when the balance covers it; false (nothing charged) otherwise. */
  tryDebit(org: OrgState, kobo: number): boolean {
    return this.stmts.debit.run(kobo, org.id, kobo).changes === 1;
  }

  credit(org: OrgState, kobo: number): void {
    this.stmts.credit.run(kobo, org.id);
  }

  /** Pays back a failed purchase, unless a test asked for the next refunds to be withheld. */
  refund(org: OrgState, kobo: number): void {
    if (org.withheldRefunds > 0) {
      org.withheldRefunds--;
      return;
    }
    this.credit(org, kobo);
  }

  setBalance(org: OrgState, kobo: number): void {
    this.stmts.setBalance.run(kobo, org.id);
  }

  /**
   * New log rows need no notice: they always sort first (newest, highest id) and the ordering
   * cache picks them up by id watermark. Rows removed or inserted in the past need this.
   */
  relayout(org: OrgState): void {
    org.layoutVersion++;
  }

  /**
   * Applies every time-based transition that is due on this organisation's clock: pending log
   * entries whose moment has come become SUCCESS or FAILED (failures are refunded exactly).
   */
  settle(org: OrgState, nowMs: number): void {
    const due = this.stmts.dueRows.all(org.id, nowMs);
    if (due.length === 0) return;
    this.db.transaction(() => {
      for (const row of due) {
        const at = row.final_at_ms ?? nowMs;
        this.stmts.settleRow.run(row.outcome, at, row.id);
        if (row.outcome === 'FAILED') this.refund(org, row.cost_kobo);
      }
    })();
    org.statusVersion++;
  }

  insertLog(row: NewLogRow): number {
    return Number(this.stmts.insertLog.run(row).lastInsertRowid);
  }

  /** Empties the organisation: data, clock and faults; wallet back to the initial balance. */
  reset(org: OrgState): void {
    const nowMs = Date.now();
    this.db.transaction(() => {
      for (const table of ['log', 'sender_ids', 'templates', 'contacts', 'phonebooks', 'messages', 'evidence', 'outbox']) {
        this.stmt<[number]>(`DELETE FROM ${table} WHERE org_id = ?`).run(org.id);
      }
      this.setBalance(org, org.configured ? this.options.initialBalanceKobo : 0);
      org.clockOffsetMs = 0;
      org.heldAtMs = undefined;
      this.stmts.setClock.run(0, null, org.id);
      this.insertDefaultSenders(org, nowMs);
    })();
    org.faults = [];
    org.withheldRefunds = 0;
    org.shapes = undefined;
    org.catalogChanges = undefined;
    this.relayout(org);
  }
}
