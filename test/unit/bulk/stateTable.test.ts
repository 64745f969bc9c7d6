/**
 * The bulk item state machine is one table (src/shared/bulkStateTables.ts, the lists derived in
 * buying/jobStates.ts): the item moves take the states an item may come from out of it, and the
 * database refuses a state it does not know. (The moves themselves: stateMoves.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOUGHT_STATES, FINAL_ITEM_STATES, ITEM_STATE_TABLE, MAYBE_BOUGHT_STATES, SPENDING_STATES, TO_SEND_STATES } from '../../../src/main/buying/jobStates';
import { jobParts, type JobParts } from '../../../src/main/buying/jobLifecycle';
import type { ItemState } from '../../../src/main/buying/jobStates';
import { STATE_CHECKS } from '../../../src/main/store/migrations/020_state_checks';
import { JOB_STATES_AT_22 } from '../../../src/main/store/migrations/022_jobs_await_approval';
import { acrossMigration } from '../../support/databaseBefore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { BULK_ITEM_STATES, BULK_JOB_STATES } from '../../../src/shared/contract/bulk';
import { PURCHASE_STATES } from '../../../src/shared/contract/purchases';
import { jobInStates } from './jobFixtures';

let db: Db;
let store: JobParts;

/** A job whose items are in these states (written so: the table is about what moves them next). */
function newJob(states: ItemState[]): string {
  return jobInStates(store.lifecycle, states);
}

beforeEach(() => {
  db = openDatabase(':memory:');
  store = jobParts(db);
});
afterEach(() => db.close());

describe('the bulk item state table', () => {
  it('says which states spend, which are still to send and which are final', () => {
    expect([...SPENDING_STATES].sort()).toEqual(['accepted', 'pending', 'sending', 'success', 'uncertain']);
    expect([...TO_SEND_STATES].sort()).toEqual(['held', 'queued']);
    expect([...FINAL_ITEM_STATES].sort()).toEqual(['cancelled', 'failed', 'rejected', 'success']);
    for (const state of FINAL_ITEM_STATES) expect(ITEM_STATE_TABLE[state].next).toEqual([]);
  });

  it('splits what spends into known bought and maybe bought, with nothing left over', () => {
    expect([...BOUGHT_STATES].sort()).toEqual(['accepted', 'pending', 'success']);
    expect([...MAYBE_BOUGHT_STATES].sort()).toEqual(['sending', 'uncertain']);
    expect([...BOUGHT_STATES, ...MAYBE_BOUGHT_STATES].sort()).toEqual([...SPENDING_STATES].sort());
  });

  it('moves an item only along the table: a bought item is never queued to be sent again', () => {
    const id = newJob(['queued', 'success']);
    expect(store.moves.setIncluded(id, [1, 2], false)).toBe(1);
    expect(store.reads.item(id, 1)?.state).toBe('excluded');
    expect(store.reads.item(id, 2)?.state).toBe('success');
    // success → queued is not in the table: no move leads there, whoever asks.
    expect(store.moves.setIncluded(id, [2], true)).toBe(0);
    expect(store.moves.sendAgain(id, [2], 'user (send again)')).toBe(0);
    expect(store.reads.item(id, 2)?.state).toBe('success');
  });

  it('the database refuses a state nobody knows, for items, jobs and purchases', () => {
    const id = newJob(['queued']);
    expect(() => db.prepare("UPDATE bulk_items SET state = 'bougth' WHERE job_id = ?").run(id)).toThrow(/bulk_items\.state must be one of excluded, queued/);
    expect(() => db.prepare("UPDATE bulk_jobs SET state = 'finished' WHERE id = ?").run(id)).toThrow(/bulk_jobs\.state must be one of draft/);
    expect(() => db.prepare("INSERT INTO purchases (id, kind, source, state) VALUES ('p1', 'electricity', 'single', 'done')").run()).toThrow(
      /purchases\.state must be one of sending/,
    );
    expect(store.reads.item(id, 1)?.state).toBe('queued');
  });

  it("the database's lists are the code's (a new state needs a new migration step)", () => {
    expect([...STATE_CHECKS.bulk_items].sort()).toEqual([...BULK_ITEM_STATES].sort());
    expect([...STATE_CHECKS.bulk_items].sort()).toEqual(Object.keys(ITEM_STATE_TABLE).sort());
    expect([...JOB_STATES_AT_22].sort()).toEqual([...BULK_JOB_STATES].sort());
    expect([...STATE_CHECKS.purchases].sort()).toEqual([...PURCHASE_STATES].sort());
  });
});

describe('migration 22: a job sent for approval waits in its own state', () => {
  it('moves the drafts already sent for approval to awaiting_approval, and only those', () => {
    acrossMigration(
      22,
      (before) => {
        const at = new Date().toISOString();
        for (const id of ['sent', 'kept']) {
          before
            .prepare(
              `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
               VALUES (?, 'airtime', 'draft', 'live-1', 'live', 'https://api.example.com', 'f.csv', 'h', '[]', '{}', 1, 0, 20, 3, ?, ?)`,
            )
            .run(id, at, at);
        }
        before.prepare("INSERT INTO team_job_links VALUES ('sent', 'team-1', 'postgres://team', 10000, 1, ?)").run(at);
        // Before the step, the database knows no such state.
        expect(() => before.prepare("UPDATE bulk_jobs SET state = 'awaiting_approval' WHERE id = 'kept'").run()).toThrow(/bulk_jobs\.state must be one of/);
      },
      (after) => {
        expect(after.prepare('SELECT id, state FROM bulk_jobs ORDER BY id').all()).toEqual([
          { id: 'kept', state: 'draft' },
          { id: 'sent', state: 'awaiting_approval' },
        ]);
        expect(() => after.prepare("UPDATE bulk_jobs SET state = 'approved' WHERE id = 'kept'").run()).toThrow(/bulk_jobs\.state must be one of draft, awaiting_approval/);
      },
    );
  });
});
