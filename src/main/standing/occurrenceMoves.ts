/**
 * The occurrence state table, and the one module that writes `standing_occurrences.state`.
 *
 * An occurrence (a standing order and its scheduled Lagos day: the key, unique) is written the
 * first time vendesk acts on it, in one of three states, and moves only as the table says:
 *
 * | State | May move to | Final |
 * |---|---|---|
 * | `waiting` (not bought yet; why in its reason) | waiting (a new reason), started, skipped | no |
 * | `started` (it became its one bulk job) | — | yes |
 * | `skipped` (a person skipped it; or the order was paused that day) | — | yes |
 *
 * Each move is named (`OCCURRENCE_MOVES`) and checked against the table when this module loads,
 * and written with its guard built from it (`WHERE state IN (…)`), so an occurrence another
 * process moved first is left as it is and the caller learns it. Migration 31's triggers refuse
 * any other write (a first state outside the table, a move out of a final state, a started
 * occurrence without its job, a second job, a deletion); `test/unit/standing/occurrenceDoor.test.ts`
 * fails when SQL elsewhere in src/ writes an occurrence.
 */
import type { OccurrenceState, WaitingReason } from '../../shared/contract/standing';
import type { Db } from '../store/database';

export interface OccurrenceStateRow {
  next: readonly OccurrenceState[];
  final: boolean;
}

export const OCCURRENCE_STATE_TABLE: { readonly [S in OccurrenceState]: OccurrenceStateRow } = {
  waiting: { next: ['waiting', 'started', 'skipped'], final: false },
  started: { next: [], final: true },
  skipped: { next: [], final: true },
};

/** Every move, by name: the states it comes from (`null`: the occurrence is written for the first time) and the state it leads to. */
export const OCCURRENCE_MOVES = {
  /** Not bought this time, and why (first written, or a new reason). */
  wait: { from: [null, 'waiting'], to: 'waiting' },
  /** Claimed with its one bulk job, in the transaction that creates the job. */
  start: { from: [null, 'waiting'], to: 'started' },
  /** Skipped by a person, or because the order was paused on its day. */
  skip: { from: [null, 'waiting'], to: 'skipped' },
} as const satisfies Record<string, { from: readonly (OccurrenceState | null)[]; to: OccurrenceState }>;

export type OccurrenceMoveName = keyof typeof OCCURRENCE_MOVES;

/** The moves the table does not allow: none, or this module does not load. */
export function occurrenceMovesOutsideTable(moves: Record<string, { from: readonly (OccurrenceState | null)[]; to: OccurrenceState }> = OCCURRENCE_MOVES): string[] {
  return Object.entries(moves).flatMap(([name, m]) =>
    m.from.filter((from): from is OccurrenceState => from !== null && !OCCURRENCE_STATE_TABLE[from].next.includes(m.to)).map((from) => `${name}: ${from} → ${m.to}`),
  );
}

const outside = occurrenceMovesOutsideTable();
if (outside.length > 0) throw new Error(`Occurrence moves not in the state table: ${outside.join('; ')}`);

/** The guard of a move over an existing occurrence: the states it comes from. */
const guard = (move: OccurrenceMoveName): string =>
  `standing_occurrences.state IN (${OCCURRENCE_MOVES[move].from
    .filter((s) => s !== null)
    .map((s) => `'${s}'`)
    .join(', ')})`;

/** An occurrence's key. */
export interface OccurrenceKey {
  orderId: string;
  scheduledDay: string;
}

/** What a move writes besides the state. */
export interface OccurrenceFields {
  dueDay: string;
  version: number | null;
  reasonCode?: WaitingReason | 'skipped' | null;
  reason?: string | null;
  /** Rows it did not buy, with why (JSON of WaitingRowView[]). */
  waitingRows?: readonly unknown[] | null;
  missingKobo?: number | null;
  decidedBy?: string | null;
  jobId?: string | null;
  teamJobId?: string | null;
  /** Team workspace: claimed by this desktop (false: another desktop of the team claimed it first). */
  claimedHere?: boolean;
}

const now = (): string => new Date().toISOString();

/** The one writer of occurrences. Each move answers whether it moved the occurrence (false: another step moved it first, or its state does not allow it). */
export class OccurrenceMoves {
  constructor(private readonly db: Db) {}

  private write(move: OccurrenceMoveName, key: OccurrenceKey, f: OccurrenceFields): boolean {
    const to = OCCURRENCE_MOVES[move].to;
    const at = now();
    const r = this.db
      .prepare(
        `INSERT INTO standing_occurrences (order_id, scheduled_day, due_day, state, reason_code, reason, version, job_id, team_job_id, claimed_here,
           waiting_rows_json, missing_kobo, decided_by, created_at, updated_at)
         VALUES (@orderId, @scheduledDay, @dueDay, @to, @reasonCode, @reason, @version, @jobId, @teamJobId, @claimedHere, @waitingRows, @missingKobo, @decidedBy, @at, @at)
         ON CONFLICT (order_id, scheduled_day) DO UPDATE SET state = excluded.state, due_day = excluded.due_day, reason_code = excluded.reason_code,
           reason = excluded.reason, version = excluded.version, job_id = excluded.job_id, team_job_id = excluded.team_job_id, claimed_here = excluded.claimed_here,
           waiting_rows_json = excluded.waiting_rows_json, missing_kobo = excluded.missing_kobo, decided_by = excluded.decided_by, updated_at = excluded.updated_at
         WHERE ${guard(move)}`,
      )
      .run({
        ...key,
        to,
        at,
        dueDay: f.dueDay,
        version: f.version,
        reasonCode: f.reasonCode ?? null,
        reason: f.reason ?? null,
        jobId: f.jobId ?? null,
        teamJobId: f.teamJobId ?? null,
        claimedHere: f.claimedHere === false ? 0 : 1,
        waitingRows: f.waitingRows && f.waitingRows.length > 0 ? JSON.stringify(f.waitingRows) : null,
        missingKobo: f.missingKobo ?? null,
        decidedBy: f.decidedBy ?? null,
      });
    return r.changes === 1;
  }

  /** Not bought this time: why, and what of it waits. */
  wait(key: OccurrenceKey, f: OccurrenceFields & { reasonCode: WaitingReason; reason: string }): boolean {
    return this.write('wait', key, { ...f, jobId: null, teamJobId: null });
  }

  /** Claimed with its job (its caller's transaction creates the job): false when another runner claimed it first, or it was skipped. */
  start(key: OccurrenceKey, f: OccurrenceFields & ({ jobId: string } | { teamJobId: string })): boolean {
    return this.write('start', key, { reasonCode: null, reason: null, missingKobo: null, ...f });
  }

  /** Skipped: nothing is bought for it. */
  skip(key: OccurrenceKey, f: OccurrenceFields & { reason: string }): boolean {
    return this.write('skip', key, { ...f, reasonCode: 'skipped', jobId: null, teamJobId: null, waitingRows: null, missingKobo: null });
  }

  /**
   * A started occurrence whose job is the team's (claimed in the team database) is run here as its
   * local job: the job is written once, never another (the state does not move).
   */
  runHereAs(key: OccurrenceKey, jobId: string): boolean {
    return (
      this.db
        .prepare("UPDATE standing_occurrences SET job_id = ?, updated_at = ? WHERE order_id = ? AND scheduled_day = ? AND state = 'started' AND job_id IS NULL")
        .run(jobId, now(), key.orderId, key.scheduledDay).changes === 1
    );
  }
}
