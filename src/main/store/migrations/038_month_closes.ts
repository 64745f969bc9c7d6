import type { Migration } from './migration';

/**
 * Closing a month (src/main/monthEnd/monthCloses.ts), per connection:
 *
 * - `month_closes`: one row per month that was ever closed: `closed` or `reopened`, who and when
 *   (this computer's clock and the service's), and the figures that need more than the log to make
 *   again (the wallet's roll-forward, vendesk's messaging) as JSON.
 * - `month_close_entries`: what the close counted of each log entry: its state and cost centre as
 *   the month was closed (`own` = 1, the month's own entries), and each later change to an entry of
 *   an earlier closed month, counted in this month as an adjustment (`own` = 0, with what it was).
 *   The latest row of an entry is what the books hold of it; anything since is an adjustment of
 *   the next open month. Amounts are the log's, read from `log_entries` (they never change).
 * - `month_close_events`: every close and reopen, who, when and why: the audit trail.
 */
export const monthClosesMigration: Migration = {
  version: 38,
  name: 'month-end: closed months, what each counted of every log entry, and the audit of closes and reopens',
  up: `
    CREATE TABLE month_closes (
      profile_id TEXT NOT NULL,
      month TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]'),
      state TEXT NOT NULL CHECK (state IN ('closed', 'reopened')),
      closed_at TEXT NOT NULL,
      service_closed_at TEXT NOT NULL,
      closed_by TEXT NOT NULL,
      figures TEXT NOT NULL,
      PRIMARY KEY (profile_id, month)
    );
    CREATE TABLE month_close_entries (
      profile_id TEXT NOT NULL,
      month TEXT NOT NULL,
      log_id INTEGER NOT NULL,
      own INTEGER NOT NULL CHECK (own IN (0, 1)),
      status TEXT NOT NULL,
      cost_centre TEXT NOT NULL,
      was_status TEXT,
      was_cost_centre TEXT,
      was_month TEXT,
      PRIMARY KEY (profile_id, month, log_id)
    );
    CREATE INDEX month_close_entries_log ON month_close_entries (profile_id, log_id, month);
    CREATE TABLE month_close_events (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      month TEXT NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('close', 'reopen')),
      at TEXT NOT NULL,
      service_at TEXT NOT NULL,
      by TEXT NOT NULL,
      reason TEXT
    );
  `,
};
