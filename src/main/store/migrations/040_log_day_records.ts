import { lagosDaySql } from '../../../shared/localDates';
import type { Migration } from './migration';

/** Marks a Lagos day's kept records out of date: its stamp moves on and its texts are let go. */
const touch = (row: 'NEW' | 'OLD') =>
  `UPDATE log_day_records SET stamp = stamp + 1, entries = NULL, records = NULL, refs = NULL
        WHERE profile_id = ${row}.profile_id AND day = ${lagosDaySql(`${row}.created_at`)};`;

/**
 * A reconciliation's text of the mirror's entries, kept a Lagos day at a time (`log_day_records`):
 * what reconcile reads of a day (threadedReaders' `readMirrorSlices`: each entry's id, amount,
 * cost, status and times, and its reference), in the index's order, as SQLite's query gave it.
 * Reading a month of them is reading a few dozen blobs instead of building a text from each of
 * its entries (at 1,000,000 entries that building was ~0.8 s of SQLite's work on every run).
 *
 * Kept true by triggers: any write to an entry that changes what is kept moves its day's `stamp`
 * and lets the texts go (NULL), in the transaction of the write, and bulk loads keep these
 * triggers. A day's texts are stored only by a reader that claimed the day's row before it took
 * its snapshot, and only while the row still has the stamp that snapshot saw (mirrorEntries'
 * `DAY_RECORDS`): a write after the snapshot has moved it, so nothing older is ever stored.
 */
export const logDayRecordsMigration: Migration = {
  version: 40,
  name: "reconcile: the mirror's entries as reconcile reads them, kept a Lagos day at a time",
  up: `
    CREATE TABLE log_day_records (
      profile_id TEXT NOT NULL,
      day TEXT NOT NULL,
      stamp INTEGER NOT NULL DEFAULT 0,
      entries INTEGER,
      records BLOB,
      refs BLOB,
      PRIMARY KEY (profile_id, day)
    );
    CREATE TRIGGER log_day_records_insert AFTER INSERT ON log_entries BEGIN
      ${touch('NEW')}
    END;
    CREATE TRIGGER log_day_records_delete AFTER DELETE ON log_entries BEGIN
      ${touch('OLD')}
    END;
    CREATE TRIGGER log_day_records_update AFTER UPDATE OF profile_id, id, transaction_id, created_at, updated_at, status, amount_kobo, cost_kobo ON log_entries
      WHEN OLD.profile_id IS NOT NEW.profile_id OR OLD.id IS NOT NEW.id OR OLD.transaction_id IS NOT NEW.transaction_id
        OR OLD.created_at IS NOT NEW.created_at OR OLD.updated_at IS NOT NEW.updated_at OR OLD.status IS NOT NEW.status
        OR OLD.amount_kobo IS NOT NEW.amount_kobo OR OLD.cost_kobo IS NOT NEW.cost_kobo
    BEGIN
      ${touch('OLD')}
      ${touch('NEW')}
    END;
  `,
};
