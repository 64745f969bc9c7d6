import { ITEM_STATE_TABLE, JOB_STATE_TABLE, movesOf } from '../../../shared/bulkStateTables';
import type { Migration } from './migration';

type Table = { readonly [state: string]: { next: readonly string[] } };

const quoted = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

/**
 * The trigger that refuses a move of `table.state` its state table does not hold. Built from the
 * table itself (`src/shared/bulkStateTables.ts`), never copied by hand. Staying in a state (a new
 * reason or message) passes; so does a state nobody knows, which migration 20's triggers refuse
 * with their own message. Only a move is checked, so rows already in any state (an older vendesk
 * may have left any) are kept as they are, and leave it only along the table.
 */
export function stateMoveTrigger(name: string, table: 'bulk_items' | 'bulk_jobs', states: Table, what: string): string {
  const moves = movesOf(states).map(([from, to]) => `${from}>${to}`);
  return `
    CREATE TRIGGER ${name} BEFORE UPDATE OF state ON ${table}
      WHEN NEW.state IS NOT OLD.state AND NEW.state IN (${quoted(Object.keys(states))}) AND OLD.state || '>' || NEW.state NOT IN (${quoted(moves)})
    BEGIN
      SELECT RAISE(ABORT, '${what} cannot move from ' || OLD.state || ' to ' || NEW.state || ': not in its state table');
    END;`;
}

/**
 * Items and jobs move only along their state tables, whatever writes them: `buying/itemMoves.ts`
 * and `buying/jobLifecycle.ts` already write no other move (their guards come from the same tables);
 * these triggers hold any other path, as migration 21 does for settled purchases. A change to a
 * table needs a later step that writes its trigger again with this function
 * (test/unit/bulk/stateMoves.test.ts holds the tables to the moves written when this step was made).
 */
export const stateMovesMigration: Migration = {
  version: 30,
  name: 'items and jobs move only along their state tables',
  up: `${stateMoveTrigger('bulk_items_state_moves', 'bulk_items', ITEM_STATE_TABLE, 'a bulk item')}${stateMoveTrigger('bulk_jobs_state_moves', 'bulk_jobs', JOB_STATE_TABLE, 'a bulk job')}`,
};
