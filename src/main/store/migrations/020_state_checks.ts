import type { Migration } from './migration';

/** The states each table may hold, as written when this step was made (a test holds them equal to the code's). */
export const STATE_CHECKS = {
  bulk_items: ['excluded', 'queued', 'held', 'sending', 'accepted', 'rejected', 'success', 'failed', 'pending', 'uncertain', 'cancelled'],
  bulk_jobs: ['draft', 'running', 'paused', 'cancelled', 'completed', 'needs_attention'],
  purchases: ['sending', 'success', 'pending', 'failed', 'rejected', 'uncertain', 'needs_support', 'not_found'],
} as const;

function checks(table: keyof typeof STATE_CHECKS): string {
  const list = STATE_CHECKS[table].map((s) => `'${s}'`).join(', ');
  const refuse = `SELECT RAISE(ABORT, '${table}.state must be one of ${STATE_CHECKS[table].join(', ')}')`;
  return `
    CREATE TRIGGER ${table}_state_known_insert BEFORE INSERT ON ${table} WHEN NEW.state NOT IN (${list}) BEGIN ${refuse}; END;
    CREATE TRIGGER ${table}_state_known_update BEFORE UPDATE OF state ON ${table} WHEN NEW.state NOT IN (${list}) BEGIN ${refuse}; END;`;
}

/**
 * The state columns of bulk items, bulk jobs and purchases hold only their known states: a CHECK
 * written as triggers (SQLite cannot add a CHECK to a table that exists without copying it). A
 * new state is then a new step here, beside the state table of bulk/jobStates.ts, never a value
 * that totals silently miscount.
 */
export const stateChecksMigration: Migration = {
  version: 20,
  name: 'state columns hold only known states',
  up: `${checks('bulk_items')}${checks('bulk_jobs')}${checks('purchases')}`,
};
