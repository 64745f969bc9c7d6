import type { Migration } from './migration';

/**
 * Team workspace (issue 18): single purchases held for approval, and audit rows waiting to be
 * written.
 * - `team_single_purchases`: a single LIVE purchase above the team's threshold, sent for approval
 *   as a one-item team job. It keeps the request exactly as it was prepared, so what is bought
 *   after the approval is what was approved; `purchase_id` is set in the same transaction that
 *   writes the purchase before its request leaves, so after a crash vendesk knows it went out and
 *   never buys it again.
 * - `team_audit_outbox`: an audit row (a profile or spending-cap change, a reconcile run or
 *   resolution) the team database could not take when it happened; written, in order, when it
 *   answers again.
 * - `team_reconcile_runs`: which team run a local reconcile run was recorded as (a resolution
 *   names the team's run).
 */
export const teamSinglePurchasesMigration: Migration = {
  version: 17,
  name: 'team workspace: single purchases held for approval, audit rows waiting to be written',
  up: `
    CREATE TABLE team_single_purchases (
      team_job_id TEXT PRIMARY KEY,
      profile_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('airtime', 'data', 'electricity', 'cable')),
      request TEXT NOT NULL,
      account TEXT NOT NULL,
      amount_kobo INTEGER NOT NULL,
      description TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'bought', 'closed')),
      purchase_id TEXT,
      settled_outcome TEXT,
      created_at TEXT NOT NULL
    );
    CREATE INDEX team_single_purchases_key ON team_single_purchases (profile_id, kind, account, amount_kobo, state);

    CREATE TABLE team_audit_outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      team_url TEXT NOT NULL,
      action TEXT NOT NULL,
      args TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_error TEXT
    );

    CREATE TABLE team_reconcile_runs (
      local_run_id TEXT PRIMARY KEY,
      team_url TEXT NOT NULL,
      team_run_id TEXT NOT NULL
    );
  `,
};
