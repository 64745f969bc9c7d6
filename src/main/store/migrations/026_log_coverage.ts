import type { Migration } from './migration';

/**
 * What the mirror knows it covers, and how the last sync went (src/main/transactions/logCoverage.ts).
 *
 * - `log_days_read`: one row per connection and **UTC date** of the service's log (its
 *   `startdate`/`enddate` are UTC dates) that a sync read completely — every page of a part that
 *   held that date, in a pass whose pages all agreed. `read_through` is the instant (UTC ISO, on
 *   the service's clock) up to which that date is in the mirror: the date's end once it was read
 *   after it ended, else the moment the pass began (a date still growing). Per day, not per entry:
 *   a few hundred rows a year whatever the log's size. A Lagos day is complete when both UTC dates
 *   it overlaps are read through its end.
 * - `sync_checkpoints.log_start`: a sync read the log from its very beginning (no start date) and
 *   found no entry before this UTC date; every earlier date is known to be empty.
 * - `sync_checkpoints.last_failed_at` / `last_failure`: when the last sync that failed stopped
 *   (this computer's clock, as `last_finished_at`) and its message and hint (JSON), so every
 *   window and the CLI tell a failure newer than the last finished sync, whoever ran it.
 *
 * Folders from before this step have no rows: vendesk cannot tell which days an older version read
 * completely, so their first plain sync reads the whole log once more (docs/transactions.md).
 */
export const logCoverageMigration: Migration = {
  version: 26,
  name: 'log mirror coverage: the UTC dates read completely; the last failed sync',
  up: `
    CREATE TABLE log_days_read (
      profile_id TEXT NOT NULL,
      day TEXT NOT NULL,
      read_through TEXT NOT NULL,
      PRIMARY KEY (profile_id, day)
    ) WITHOUT ROWID;
    ALTER TABLE sync_checkpoints ADD COLUMN log_start TEXT;
    ALTER TABLE sync_checkpoints ADD COLUMN last_failed_at TEXT;
    ALTER TABLE sync_checkpoints ADD COLUMN last_failure TEXT;
  `,
};
