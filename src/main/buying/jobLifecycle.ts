/**
 * A bulk job's life, and the one module that writes `bulk_jobs.state`. Every move is named
 * (`JOB_MOVES`: the states it comes from and those it goes to), checked against the job state
 * table when this module loads (`src/shared/bulkStateTables.ts`), and written with its
 * `WHERE state IN (…)` built from it, so a job another step moved first is left as it is (and
 * migration 30's trigger refuses any other path). Created as a draft (its items as `itemOf`
 * makes them); sent for a team's approval; confirmed and begun (in one statement, with this
 * process's lease); paused, finished, cancelled; an approved single purchase back to approval;
 * and the lease (which process runs it) taken, renewed and released. Items move in `itemMoves.ts`; a move of a job that moves its items too
 * (a run's start, a single purchase the team closed) makes both in one transaction.
 *
 * It also says which jobs a connection may read and send: a job belongs to the connection it was
 * prepared on, is read only on it (`ownJob`), and is sent to (and asked about at) only that
 * service (`connectionProblem`, `sendingProblem`). What confirming reads (`draftToConfirm`) is read
 * here, with the confirming write it leads to.
 *
 * Longer than 400 lines on purpose: it is the job state machine's one door, so a job's birth,
 * every move of its state, its lease and the connection rule its moves check are in this file and
 * nowhere else (the confirmation's path visits it, not three modules: architecture.md).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { AppError } from '../../shared/appError';
import type { Connection } from '../appContext';
import { networkOfPhone } from '../../shared/phone';
import type { ValidRow } from '../imports/validationResult';
import type { Db } from '../store/database';
import { ItemMoves } from './itemMoves';
import { JobReads } from './jobReads';
import type { InvalidRowRecord, JobRow, NewItem, NewJob } from './jobRows';
import { guardsOf, type NamedMove } from '../../shared/bulkStateTables';
import { JOB_STATE_TABLE, UNCONFIRMED_JOB_STATES, type JobState } from './jobStates';

type Move = NamedMove<JobState>;

/**
 * The item a valid purchase is born as in its job (a file's row, or a single purchase): `conflict`,
 * the networks of a ported number (the one used, the prefix's); `duplicateOf`, what it repeats;
 * `state`, the state it is written in (`queued`, or `excluded` as a duplicate left out).
 */
export function itemOf(
  v: ValidRow,
  conflict: { given: string; inferred: string } | null,
  duplicateOf: string | null,
  state: NewItem['state'],
  accountName: string | null = null,
): NewItem {
  return {
    rowNumber: v.row,
    phone: v.phone,
    // Electricity and cable: the disco or provider stands where airtime has its network.
    network: v.network ?? v.disco ?? v.provider ?? '',
    productCode: v.productCode,
    voucherCode: v.voucherCode ?? '',
    operator: v.operator,
    region: v.region,
    dataValue: v.dataValue,
    description: v.description ?? '',
    amountKobo: v.amountKobo,
    name: v.name ?? '',
    note: v.reference ?? '',
    givenNetwork: conflict ? conflict.given : null,
    prefixNetwork: conflict ? conflict.inferred : v.network && networkOfPhone(v.phone) !== v.network ? networkOfPhone(v.phone) : null,
    duplicateOf,
    state,
    account: v.meter ?? v.smartcard ?? null,
    vendType: v.vendType ?? null,
    accountName,
    costCentre: v.costCentre,
  };
}

/** Every move of a job, by name. */
export const JOB_MOVES = {
  /** Sent for another team member's approval (linked to its team job in the same transaction). */
  awaitApproval: { from: ['draft'], to: ['awaiting_approval'] },
  /** Confirmed (a draft, or approved) and its run begun by this process. */
  confirm: { from: UNCONFIRMED_JOB_STATES, to: ['running'] },
  /** A single purchase's job, just written, confirmed and begun. */
  beginSingle: { from: ['draft'], to: ['running'] },
  /** An approved single purchase's waiting job, begun. */
  beginApprovedSingle: { from: ['awaiting_approval'], to: ['running'] },
  /** A job its caller gives with its rows (a standing order's occurrence), written, confirmed and begun at once. */
  beginGiven: { from: ['draft'], to: ['running'] },
  /** A confirmed job's run begins again (resumed, or found interrupted). */
  beginRun: { from: ['running', 'paused', 'needs_attention'], to: ['running'] },
  /** Paused by the user, or stopped by an error, while no run here sends it. */
  pause: { from: ['running'], to: ['paused'] },
  /** The state a run ends in (another process may have paused the job meanwhile). */
  finishRun: { from: ['running', 'paused'], to: ['completed', 'paused', 'needs_attention', 'cancelled'] },
  /** Cancelled while no run here sends it. */
  cancel: { from: ['running', 'paused'], to: ['cancelled'] },
  /** Items settled outside a run (the log, a purchase, the user) leave nothing to send or check. */
  complete: { from: ['needs_attention', 'paused'], to: ['completed'] },
  /** Items the user settled are to be sent again: resume sends them. */
  resendByHand: { from: ['needs_attention'], to: ['paused'] },
  /** An approved single purchase whose run stopped before its item left waits to be bought again. */
  backToApproval: { from: ['running', 'paused'], to: ['awaiting_approval'] },
  /** A single purchase the team rejected or cancelled while it waited: nothing bought. */
  closeWaiting: { from: ['awaiting_approval'], to: ['cancelled'] },
} as const satisfies Record<string, Move>;

export type JobMoveName = keyof typeof JOB_MOVES;

/** The guard of each move (built as the module loads, which throws on a move outside the table). */
const guard = guardsOf(JOB_STATE_TABLE, JOB_MOVES, 'Job');

const now = (): string => new Date().toISOString();

/** How a run began: items a stopped vendesk left sending (now uncertain), and the job's uncertain items now. */
export interface RunStart {
  recovered: number;
  uncertain: number;
}

/** The lease a run holds on its job: this process, for this long from now (renewed while it runs). */
export interface Lease {
  pid: number;
  leaseMs: number;
}

/** What the times of a job say about a move to `to`: a run starts (again), or ends. */
function timesOf(to: JobState): string {
  if (to === 'running') return ', started_at = COALESCE(started_at, @at), finished_at = NULL';
  if (to === 'completed' || to === 'cancelled' || to === 'needs_attention') return ', finished_at = @at';
  return '';
}

export class JobLifecycle {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly db: Db,
    private readonly items: { moves: ItemMoves; reads: JobReads },
  ) {}

  /** A statement compiled once per SQL text. */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Moves a job by `name` to `to` with `message` (its times follow); false when it was not where the move comes from. */
  private move(name: JobMoveName, jobId: string, to: JobState, message: string | null): boolean {
    if (!(JOB_MOVES[name].to as readonly JobState[]).includes(to)) throw new Error(`The job move ${name} does not lead to ${to}.`);
    return (
      this.stmt(`UPDATE bulk_jobs SET state = @to, message = @message, updated_at = @at${timesOf(to)} WHERE id = @jobId AND ${guard[name]}`).run({
        to,
        message,
        at: now(),
        jobId,
      }).changes === 1
    );
  }

  // ------------------------------------------------------------------ a job is written, and discarded

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
    return this.createJob(singleJob(kind, connection, fileName), [item], []);
  }

  /**
   * A job written waiting for a team member's approval: created and sent for approval in one
   * transaction, linked to its team job (`link`). Nothing of it is sent until it is approved and
   * confirmed (a team job this desktop runs for another member's preparation, say). `message` may
   * name the job's id.
   */
  createWaiting(job: NewJob, items: Iterable<NewItem>, message: string | ((jobId: string) => string), link: (jobId: string) => void): string {
    return this.db.transaction(() => {
      const id = this.createJob(job, items, []);
      this.awaitApproval(id, typeof message === 'string' ? message : message(id), () => link(id));
      return id;
    })();
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
    return this.createWaiting(singleJob(kind, connection, fileName), [item], message, link);
  }

  /** Drafts never confirmed (nothing was bought) older than `beforeIso`. A job awaiting approval is kept until it is decided. */
  deleteStaleDrafts(beforeIso: string): number {
    return this.stmt("DELETE FROM bulk_jobs WHERE state = 'draft' AND created_at < ?").run(beforeIso).changes;
  }

  deleteJob(id: string): void {
    this.stmt('DELETE FROM bulk_jobs WHERE id = ?').run(id);
  }

  /** A new message for a job that stays in its state (its finish time is kept). */
  setJobMessage(id: string, message: string | null): void {
    this.stmt('UPDATE bulk_jobs SET message = ?, updated_at = ? WHERE id = ?').run(message, now(), id);
  }

  // ------------------------------------------------------------------ approval, confirmation and the run's start

  /**
   * A draft sent for a team member's approval: it waits in `awaiting_approval` with `message`.
   * `link` writes the team's record of it, in the same transaction. False when it was no draft.
   */
  awaitApproval(jobId: string, message: string, link: () => void): boolean {
    return this.db.transaction(() => {
      const moved = this.move('awaitApproval', jobId, 'awaiting_approval', message);
      if (moved) link();
      return moved;
    })();
  }

  /** What confirming a job reads, once (one statement): the job not confirmed yet (of the connection in use, sendable there) and what it is to buy. */
  draftToConfirm(jobId: string, connection: Connection): { job: JobRow; totals: { items: number; totalKobo: number } } {
    const row = this.stmt(
      `SELECT j.*, (SELECT COUNT(*) FROM bulk_items b WHERE b.job_id = j.id AND b.state <> 'excluded') AS to_confirm_items,
              (SELECT COALESCE(SUM(b.amount_kobo), 0) FROM bulk_items b WHERE b.job_id = j.id AND b.state <> 'excluded') AS to_confirm_kobo
         FROM bulk_jobs j WHERE j.id = ?`,
    ).get(jobId) as (JobRow & { to_confirm_items: number; to_confirm_kobo: number }) | undefined;
    const { to_confirm_items: items = 0, to_confirm_kobo: totalKobo = 0, ...read } = row ?? {};
    const job = ownUnconfirmed(row ? (read as JobRow) : undefined, jobId, connection);
    const problem = connectionProblem(job, connection);
    if (problem) throw problem;
    return { job, totals: { items, totalKobo } };
  }

  /**
   * Confirms a job not confirmed yet (a draft, or one awaiting approval that its gate found
   * approved) and begins its run, in one statement: `running`, with the batch size and
   * concurrency it is confirmed with, its lease this process's (nothing of it was ever sent, so
   * nothing is left to recover). Null when it was confirmed already (by another window or process).
   * Throws, confirming nothing, when the connection in use now (`onlyOn`) is not the job's: it runs
   * there or not at all.
   */
  confirm(job: JobRow, onlyOn: Connection, tuning: { batchSize: number; concurrency: number }, lease: Lease): RunStart | null {
    const problem = connectionProblem(job, onlyOn);
    if (problem) throw problem;
    const at = now();
    const begun = this.stmt(
      `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
        runner_pid = @pid, lease_until_ms = @until, batch_size = @batchSize, concurrency = @concurrency WHERE id = @id AND ${guard.confirm}`,
    ).run({ id: job.id, at, pid: lease.pid, until: Date.now() + lease.leaseMs, ...tuning });
    return begun.changes === 1 ? { recovered: 0, uncertain: 0 } : null;
  }

  /**
   * A single purchase's job, just created (a draft of one item, nothing of it sent), confirmed and
   * its run begun by this process in one statement: `running`, its lease this process's.
   */
  beginSingleRun(jobId: string, lease: Lease): RunStart {
    const at = now();
    const begun = this.stmt(
      `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
        runner_pid = @pid, lease_until_ms = @until WHERE id = @jobId AND ${guard.beginSingle} AND origin = 'single'`,
    ).run({ at, pid: lease.pid, until: Date.now() + lease.leaseMs, jobId });
    if (begun.changes !== 1) throw new Error(`single job ${jobId} was not a new draft`);
    return { recovered: 0, uncertain: 0 };
  }

  /**
   * A job whose rows its caller gives (a standing order's occurrence): written with its tuning,
   * confirmed and its run begun by this process in one transaction (its caller's, when it is in
   * one, so the caller's own claim commits with it). Nothing of it was ever sent: nothing to recover.
   */
  createAndBegin(job: NewJob, items: Iterable<NewItem>, invalid: InvalidRowRecord[], lease: Lease): { jobId: string; begun: RunStart } {
    return this.db.transaction(() => {
      const jobId = this.createJob(job, items, invalid);
      const at = now();
      const begun = this.stmt(
        `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
          runner_pid = @pid, lease_until_ms = @until WHERE id = @jobId AND ${guard.beginGiven}`,
      ).run({ at, pid: lease.pid, until: Date.now() + lease.leaseMs, jobId });
      if (begun.changes !== 1) throw new Error(`bulk job ${jobId} was not a new draft`);
      return { jobId, begun: { recovered: 0, uncertain: 0 } };
    })();
  }

  /**
   * An approved single purchase, checked again just now, begins its run from `awaiting_approval`:
   * its item is written as checked (what the approver approved: the team checked its digest) and
   * the job is running, its lease this process's. Only one attempt moves it (a retry, a second
   * window or process finds it begun): false for the others.
   */
  beginApprovedSingle(jobId: string, item: NewItem, lease: Lease): boolean {
    const at = now();
    const begun = this.stmt(
      `UPDATE bulk_jobs SET state = 'running', confirmed_at = @at, started_at = @at, finished_at = NULL, message = NULL, updated_at = @at,
        runner_pid = @pid, lease_until_ms = @until WHERE id = @jobId AND ${guard.beginApprovedSingle} AND origin = 'single'`,
    ).run({ at, pid: lease.pid, until: Date.now() + lease.leaseMs, jobId });
    if (begun.changes !== 1) return false;
    this.items.moves.writeAsChecked(jobId, item);
    return true;
  }

  /**
   * A run of a confirmed job begins here, in one transaction: this process takes the job's lease
   * (refused, with the holder's pid, while another live process holds it), the job is `running`
   * (refused, with its state, when it is no longer a job whose run may begin: cancelled or finished
   * meanwhile), and items a stopped vendesk left `sending` become `uncertain` (checked against the
   * log before anything is sent again). Returns how many were left sending, and how many are
   * uncertain now.
   */
  beginRun(jobId: string, lease: Lease & { isAlive: (pid: number) => boolean }): ({ ok: true } & RunStart) | { ok: false; holder: number } | { ok: false; state: JobState } {
    return this.db
      .transaction(() => {
        const leased = this.takeLease(jobId, lease);
        if (!leased.ok) return leased;
        if (!this.move('beginRun', jobId, 'running', null)) {
          this.releaseLease(jobId, lease.pid);
          return { ok: false as const, state: this.items.reads.job(jobId)?.state ?? 'cancelled' };
        }
        const recovered = this.items.moves.recoverSending(jobId);
        return { ok: true as const, recovered, uncertain: this.items.reads.countItems(jobId, ['uncertain']) };
      })
      .immediate();
  }

  // ------------------------------------------------------------------ the lease: which process runs a job

  /** Takes the job for this process unless another live process holds it. Returns the pid of the holder when refused. Runs inside `beginRun`'s IMMEDIATE transaction. */
  private takeLease(id: string, lease: Lease & { isAlive: (pid: number) => boolean }): { ok: true } | { ok: false; holder: number } {
    const row = this.stmt('SELECT runner_pid, lease_until_ms FROM bulk_jobs WHERE id = ?').get(id) as Pick<JobRow, 'runner_pid' | 'lease_until_ms'> | undefined;
    if (!row) return { ok: true };
    const t = Date.now();
    if (row.runner_pid !== null && row.runner_pid !== lease.pid && (row.lease_until_ms ?? 0) > t && lease.isAlive(row.runner_pid)) {
      return { ok: false, holder: row.runner_pid };
    }
    this.stmt('UPDATE bulk_jobs SET runner_pid = ?, lease_until_ms = ? WHERE id = ?').run(lease.pid, t + lease.leaseMs, id);
    return { ok: true };
  }

  renewLease(id: string, lease: Lease): void {
    this.stmt('UPDATE bulk_jobs SET lease_until_ms = ? WHERE id = ? AND runner_pid = ?').run(Date.now() + lease.leaseMs, id, lease.pid);
  }

  releaseLease(id: string, pid: number): void {
    this.stmt('UPDATE bulk_jobs SET runner_pid = NULL, lease_until_ms = NULL WHERE id = ? AND runner_pid = ?').run(id, pid);
  }

  // ------------------------------------------------------------------ a job stops sending

  /** Paused (by the user, or an error stopped its run) while no run here sends it. False when it was not running. */
  pause(jobId: string, message: string): boolean {
    return this.move('pause', jobId, 'paused', message);
  }

  /**
   * The state a run ends in, with its message, and the release of its lease (one write). A job
   * another process cancelled or finished meanwhile keeps its state. Returns the state the job is in.
   */
  finishRun(jobId: string, pid: number, state: 'completed' | 'paused' | 'needs_attention' | 'cancelled', message: string | null): JobState {
    const moved = this.move('finishRun', jobId, state, message);
    this.releaseLease(jobId, pid);
    return moved ? state : (this.items.reads.job(jobId)?.state ?? state);
  }

  /** Cancelled while no run here sends it (its unsent items are cancelled by the caller, in `itemMoves`). False when it was not running or paused. */
  cancel(jobId: string, message: string | null): boolean {
    return this.move('cancel', jobId, 'cancelled', message);
  }

  /** Nothing left to send or check: completed. False when it was not paused or needing attention. */
  complete(jobId: string, message: string | null): boolean {
    return this.move('complete', jobId, 'completed', message);
  }

  /** Items the user settled are to be sent again: paused, for a resume to send them. */
  resendByHand(jobId: string, message: string): boolean {
    return this.move('resendByHand', jobId, 'paused', message);
  }

  // ------------------------------------------------------------------ a single purchase and the team

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
         WHERE id = @jobId AND origin = 'single' AND ${guard.backToApproval} AND (@ownRun = 1 OR lease_until_ms IS NULL OR lease_until_ms < @nowMs)
           AND NOT EXISTS (SELECT 1 FROM bulk_items WHERE job_id = @jobId AND state <> 'queued')`,
      ).run({ jobId, message, at: now(), nowMs: Date.now(), ownRun: ownRun ? 1 : 0 }).changes === 1
    );
  }

  /** A single purchase the team will not have bought (rejected, cancelled) while it waited: its item and job are cancelled, nothing bought. False when it was not waiting. */
  closeWaiting(jobId: string, reason: string): boolean {
    return this.db.transaction(() => {
      const closed = this.move('closeWaiting', jobId, 'cancelled', reason);
      if (closed) this.items.moves.cancelUnsent(jobId, [1], reason, { final: true });
      return closed;
    })();
  }
}

/** A job's three doors over one database: what is read of it, its items' moves, its life. */
export interface JobParts {
  reads: JobReads;
  moves: ItemMoves;
  lifecycle: JobLifecycle;
}

/** The three over `db` (a bulk service keeps one of each; a caller without one makes its own). */
export function jobParts(db: Db): JobParts {
  const reads = new JobReads(db);
  const moves = new ItemMoves(db);
  return { reads, moves, lifecycle: new JobLifecycle(db, { moves, reads }) };
}

/** A single purchase's job, on the connection it is bought on. */
function singleJob(kind: JobRow['kind'], connection: Pick<Connection, 'profileId' | 'kind' | 'baseUrl'>, fileName: string): NewJob {
  return {
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
  };
}

// ------------------------------------------------------------------ which jobs a connection may read and send

/** A job of the connection in use (`connection`); a job of another connection is not on this one. */
export function ownJob(job: JobRow | undefined, jobId: string, connection: Connection): JobRow {
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

/** A job of the connection in use not confirmed yet: a draft, or one awaiting approval. */
export function ownUnconfirmed(job: JobRow | undefined, jobId: string, connection: Connection): JobRow {
  const own = ownJob(job, jobId, connection);
  if (!UNCONFIRMED_JOB_STATES.includes(own.state))
    throw new AppError('job_not_draft', 'This job is already confirmed; its rows cannot be changed.', 'Prepare a new job from the file for other changes.');
  return own;
}

/** A draft of the connection in use, whose rows may still change. */
export function ownDraft(job: JobRow | undefined, jobId: string, connection: Connection): JobRow {
  const own = ownUnconfirmed(job, jobId, connection);
  if (own.state === 'awaiting_approval') {
    throw new AppError(
      'job_not_draft',
      'This job was sent for approval; its rows cannot be changed now (the approver sees them as they are).',
      'Discard it (its team job is withdrawn) and prepare it again from the file to change rows.',
    );
  }
  return own;
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
