/**
 * One door per state machine (issue 39): an item moves only along the item state table and a job
 * only along the job state table (src/shared/bulkStateTables.ts). The named moves of
 * `buying/itemMoves.ts` and `buying/jobLifecycle.ts` are checked against the tables, and the database
 * itself refuses any other move, whoever writes it (migration 30's triggers, built from the
 * tables), while a row already in any state is kept and may stay in it with a new reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ITEM_MOVES } from '../../../src/main/buying/itemMoves';
import { JOB_MOVES, jobParts, type JobParts } from '../../../src/main/buying/jobLifecycle';
import { movesOutside } from '../../../src/shared/bulkStateTables';
import { ITEM_STATE_TABLE, ITEM_STATES, JOB_STATE_TABLE, JOB_STATES, type ItemState, type JobState } from '../../../src/main/buying/jobStates';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { acrossMigration } from '../../support/databaseBefore';
import { jobInStates } from './jobFixtures';

/** The item table's moves, written out when migration 30 built its trigger from it. */
const ITEM_MOVES_AT_30: Record<ItemState, ItemState[]> = {
  excluded: ['queued'],
  queued: ['sending', 'excluded', 'cancelled'],
  held: ['sending', 'cancelled'],
  sending: ['accepted', 'rejected', 'queued', 'held', 'uncertain', 'pending', 'success', 'failed'],
  accepted: ['pending', 'success', 'failed'],
  pending: ['accepted', 'success', 'failed', 'uncertain'],
  uncertain: ['queued', 'accepted', 'pending', 'success', 'failed', 'rejected', 'cancelled'],
  success: [],
  failed: [],
  rejected: [],
  cancelled: [],
};

/** The job table's moves, written out when migration 30 built its trigger from it. */
const JOB_MOVES_AT_30: Record<JobState, JobState[]> = {
  draft: ['awaiting_approval', 'running'],
  awaiting_approval: ['running', 'cancelled'],
  running: ['paused', 'completed', 'cancelled', 'needs_attention', 'awaiting_approval'],
  paused: ['running', 'completed', 'cancelled', 'needs_attention', 'awaiting_approval'],
  needs_attention: ['running', 'paused', 'completed'],
  completed: [],
  cancelled: [],
};

let db: Db;
let parts: JobParts;

/** A job written straight into `state`, as a database an older vendesk left may hold it. */
function jobBornIn(state: JobState): string {
  const id = `job-${state}-${Math.random().toString(36).slice(2)}`;
  db.prepare(
    `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
     VALUES (?, 'airtime', ?, 'sandbox', 'sandbox', 'http://127.0.0.1:1', 'f.csv', 'h', '[]', '{}', 1, 0, 50, 3, '2026-11-20T09:00:00.000Z', '2026-11-20T09:00:00.000Z')`,
  ).run(id, state);
  return id;
}

/** Whether the database lets a raw UPDATE move a row of `table` from its state to `to`. */
function rawMove(table: 'bulk_items' | 'bulk_jobs', key: string, to: string): true | string {
  try {
    const where = table === 'bulk_items' ? 'job_id = ? AND seq = 1' : 'id = ?';
    db.prepare(`UPDATE ${table} SET state = ? WHERE ${where}`).run(to, key);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

beforeEach(() => {
  db = openDatabase(':memory:');
  parts = jobParts(db);
});
afterEach(() => db.close());

describe('the state tables', () => {
  it('are the moves migration 30 built its triggers from (a change to a table needs a step that writes them again: stateMoveTrigger)', () => {
    expect(Object.fromEntries(ITEM_STATES.map((s) => [s, [...ITEM_STATE_TABLE[s].next]]))).toEqual(ITEM_MOVES_AT_30);
    expect(Object.fromEntries(JOB_STATES.map((s) => [s, [...JOB_STATE_TABLE[s].next]]))).toEqual(JOB_MOVES_AT_30);
  });

  it('hold every named move of an item and of a job; a move outside them is named', () => {
    expect(movesOutside(ITEM_STATE_TABLE, ITEM_MOVES)).toEqual([]);
    expect(movesOutside(JOB_STATE_TABLE, JOB_MOVES)).toEqual([]);
    expect(movesOutside(ITEM_STATE_TABLE, { resell: { from: ['success', 'uncertain'], to: ['queued'] } })).toEqual(['resell: success → queued']);
    expect(movesOutside(JOB_STATE_TABLE, { revive: { from: ['cancelled'], to: ['running'] } })).toEqual(['revive: cancelled → running']);
    // Every move of the tables is made by some named move: none is there for nothing.
    const named = (moves: Record<string, { from: readonly string[]; to: readonly string[] }>) =>
      new Set(Object.values(moves).flatMap((m) => m.from.flatMap((f) => m.to.filter((t) => t !== f).map((t) => `${f}>${t}`))));
    const itemNamed = named(ITEM_MOVES);
    // An electricity or cable item follows its purchase (`followPurchase`), from any state the table leads from.
    for (const to of ['success', 'failed', 'rejected', 'pending', 'uncertain'] as const)
      for (const from of ITEM_STATES) if (ITEM_STATE_TABLE[from].next.includes(to)) itemNamed.add(`${from}>${to}`);
    expect(ITEM_STATES.flatMap((f) => ITEM_STATE_TABLE[f].next.map((t) => `${f}>${t}`)).filter((m) => !itemNamed.has(m))).toEqual([]);
    const jobNamed = named(JOB_MOVES);
    expect(JOB_STATES.flatMap((f) => JOB_STATE_TABLE[f].next.map((t) => `${f}>${t}`)).filter((m) => !jobNamed.has(m))).toEqual([]);
  });
});

describe('the database refuses a move its table does not hold, whoever writes it', () => {
  it('for items: every pair of states, by a raw UPDATE', () => {
    for (const from of ITEM_STATES) {
      for (const to of ITEM_STATES) {
        if (from === to) continue;
        const id = jobInStates(parts.lifecycle, [from]);
        const answer = rawMove('bulk_items', id, to);
        if (ITEM_MOVES_AT_30[from].includes(to)) expect(answer, `${from} → ${to}`).toBe(true);
        else {
          expect(answer, `${from} → ${to}`).toBe(`a bulk item cannot move from ${from} to ${to}: not in its state table`);
          expect(parts.reads.item(id, 1)?.state).toBe(from);
        }
      }
    }
  });

  it('for jobs: every pair of states, by a raw UPDATE', () => {
    for (const from of JOB_STATES) {
      for (const to of JOB_STATES) {
        if (from === to) continue;
        const id = jobBornIn(from);
        const answer = rawMove('bulk_jobs', id, to);
        if (JOB_MOVES_AT_30[from].includes(to)) expect(answer, `${from} → ${to}`).toBe(true);
        else {
          expect(answer, `${from} → ${to}`).toBe(`a bulk job cannot move from ${from} to ${to}: not in its state table`);
          expect(parts.reads.job(id)?.state).toBe(from);
        }
      }
    }
  });

  it('a bought item is never queued again, a finished job never runs again, by any SQL', () => {
    const item = jobInStates(parts.lifecycle, ['success']);
    expect(() => db.prepare("UPDATE bulk_items SET state = 'queued', reason = NULL WHERE job_id = ?").run(item)).toThrow('a bulk item cannot move from success to queued');
    const job = jobBornIn('completed');
    expect(() => db.exec(`UPDATE bulk_jobs SET state = 'running', runner_pid = 1 WHERE id = '${job}'`)).toThrow('a bulk job cannot move from completed to running');
    // In a transaction of several rows, the refusal takes the whole statement back.
    const both = jobInStates(parts.lifecycle, ['queued', 'success']);
    expect(() => db.prepare("UPDATE bulk_items SET state = 'cancelled' WHERE job_id = ?").run(both)).toThrow('a bulk item cannot move from success to cancelled');
    expect(parts.reads.items(both).map((i) => i.state)).toEqual(['queued', 'success']);
  });

  it('lets a row stay in its state with a new reason or message, final or not', () => {
    const item = jobInStates(parts.lifecycle, ['success']);
    expect(rawMove('bulk_items', item, 'success')).toBe(true);
    db.prepare("UPDATE bulk_items SET state = state, reason = 'Checked again with support' WHERE job_id = ?").run(item);
    expect(parts.reads.item(item, 1)?.reason).toBe('Checked again with support');
    const job = jobBornIn('cancelled');
    db.prepare("UPDATE bulk_jobs SET state = 'cancelled', message = 'Cancelled: nothing more is bought.' WHERE id = ?").run(job);
    expect(parts.reads.job(job)?.message).toBe('Cancelled: nothing more is bought.');
  });

  it('still refuses a state nobody knows with migration 20’s words', () => {
    const item = jobInStates(parts.lifecycle, ['queued']);
    expect(rawMove('bulk_items', item, 'bougth')).toMatch(/^bulk_items\.state must be one of excluded, queued/);
    expect(rawMove('bulk_jobs', jobBornIn('draft'), 'finished')).toMatch(/^bulk_jobs\.state must be one of draft/);
  });
});

describe('migration 30', () => {
  it('keeps rows an older vendesk left in any state, which then leave it only along the table', () => {
    const at = '2026-11-20T09:00:00.000Z';
    acrossMigration(
      30,
      (before) => {
        // A finished job with an item still sending and one queued: what no table move leads to, written before the step.
        before
          .prepare(
            `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
             VALUES ('old', 'airtime', 'completed', 'sandbox', 'sandbox', 'http://x', 'f.csv', 'h', '[]', '{}', 2, 0, 50, 3, ?, ?)`,
          )
          .run(at, at);
        const item = before.prepare(
          "INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, amount_kobo, state, updated_at) VALUES ('old', ?, ?, '08031000001', 'MTN', 'MTN-VTU', 10000, ?, ?)",
        );
        item.run(1, 2, 'sending', at);
        item.run(2, 3, 'success', at);
        // Before the step, any move goes through.
        before.prepare("UPDATE bulk_items SET state = 'queued' WHERE job_id = 'old' AND seq = 2").run();
        before.prepare("UPDATE bulk_items SET state = 'success' WHERE job_id = 'old' AND seq = 2").run();
      },
      (after) => {
        const p = jobParts(after);
        expect(p.reads.items('old').map((i) => i.state)).toEqual(['sending', 'success']);
        expect(p.reads.job('old')?.state).toBe('completed');
        // Along the table: the item caught sending becomes uncertain (checked against the log).
        expect(p.moves.recoverSending('old')).toBe(1);
        expect(() => after.prepare("UPDATE bulk_items SET state = 'queued' WHERE job_id = 'old' AND seq = 2").run()).toThrow('a bulk item cannot move from success to queued');
        expect(() => after.prepare("UPDATE bulk_jobs SET state = 'running' WHERE id = 'old'").run()).toThrow('a bulk job cannot move from completed to running');
        expect(p.reads.items('old').map((i) => i.state)).toEqual(['uncertain', 'success']);
      },
    );
  });
});

describe('the named moves of a job leave one another step moved first as it is', () => {
  const lease = { pid: process.pid, leaseMs: 60_000, isAlive: () => true };

  it('a job cancelled meanwhile is not begun again, and its run ends without reviving it', () => {
    const id = jobInStates(parts.lifecycle, ['queued']);
    expect(parts.lifecycle.pause(id, 'Paused')).toBe(false); // a draft does not pause
    const job = parts.reads.job(id);
    expect(
      parts.lifecycle.confirm(
        job!,
        { profileId: 'sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:1', profileName: 'Sandbox' } as never,
        { batchSize: 5, concurrency: 1 },
        lease,
      ),
    ).toEqual({
      recovered: 0,
      uncertain: 0,
    });
    expect(parts.reads.job(id)).toMatchObject({ state: 'running', batch_size: 5, runner_pid: process.pid });
    expect(parts.lifecycle.cancel(id, 'Cancelled by another window')).toBe(true);
    expect(parts.lifecycle.beginRun(id, lease)).toEqual({ ok: false, state: 'cancelled' });
    expect(parts.lifecycle.finishRun(id, process.pid, 'completed', 'Finished')).toBe('cancelled');
    expect(parts.reads.job(id)).toMatchObject({ state: 'cancelled', message: 'Cancelled by another window', runner_pid: null });
  });

  it('a job another process paused while its run went on ends as the run found it', () => {
    const id = jobInStates(parts.lifecycle, ['queued']);
    parts.lifecycle.confirm(
      parts.reads.job(id)!,
      { profileId: 'sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:1', profileName: 'Sandbox' } as never,
      { batchSize: 5, concurrency: 1 },
      lease,
    );
    expect(parts.lifecycle.pause(id, 'Paused: resume to send the remaining items.')).toBe(true);
    expect(parts.lifecycle.finishRun(id, process.pid, 'needs_attention', '1 item(s) may or may not have been bought')).toBe('needs_attention');
    expect(parts.lifecycle.complete(id, 'Done')).toBe(true);
    // Completed is final: no move leaves it (its message may still change, `setJobMessage`).
    expect(parts.lifecycle.complete(id, 'Done again')).toBe(false);
    expect(parts.lifecycle.resendByHand(id, 'Items to send again')).toBe(false);
    expect(parts.reads.job(id)).toMatchObject({ state: 'completed', message: 'Done' });
  });
});
