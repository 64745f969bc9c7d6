import type { Migration } from './migration';

/** The states each table may hold, as written when this step was made (a test holds them equal to the code's). */
export const STATE_CHECKS = {
  bulk_items: ['excluded', 'queued', 'held', 'sending', 'accepted', 'rejected', 'success', 'failed', 'pending', 'uncertain', 'cancelled'],
  bulk_jobs: ['draft', 'running', 'paused', 'cancelled', 'completed', 'needs_attention'],
  purchases: ['sending', 'success', 'pending', 'failed', 'rejected', 'uncertain', 'needs_support', 'not_found'],
} as const;

/** The two triggers that refuse a state of `table` not in `states` (a later step drops and writes them again with a longer list). */
export function stateTriggers(table: keyof typeof STATE_CHECKS, states: readonly string[]): string {
  const list = states.map((s) => `'${s}'`).join(', ');
  const refuse = `SELECT RAISE(ABORT, '${table}.state must be one of ${states.join(', ')}')`;
  return `
    CREATE TRIGGER ${table}_state_known_insert BEFORE INSERT ON ${table} WHEN NEW.state NOT IN (${list}) BEGIN ${refuse}; END;
    CREATE TRIGGER ${table}_state_known_update BEFORE UPDATE OF state ON ${table} WHEN NEW.state NOT IN (${list}) BEGIN ${refuse}; END;`;
}

/**
 * The state columns of bulk items, bulk jobs and purchases hold only their known states: a CHECK
 * written as triggers (SQLite cannot add a CHECK to a table that exists without copying it). A
 * new state is then a new step here, beside the state table of buying/jobStates.ts, never a value
 * that totals silently miscount.
 */
export const stateChecksMigration: Migration = {
  version: 20,
  name: 'state columns hold only known states',
  up: `${stateTriggers('bulk_items', STATE_CHECKS.bulk_items)}${stateTriggers('bulk_jobs', STATE_CHECKS.bulk_jobs)}${stateTriggers('purchases', STATE_CHECKS.purchases)}`,
};
