import type { Migration } from './migration';

/**
 * Single airtime and data purchases. One number's airtime or data bundle is bought through the
 * bulk engine as a job of one item, so it has the engine's guarantees: the item is written before
 * its request leaves, an uncertain one is settled from the service's log and never resent
 * blindly. `origin` tells such a job (`single`) from a spreadsheet's (`file`): a single purchase
 * is listed with the purchases, not with the bulk jobs, and the spending caps of bulk jobs neither
 * apply to it nor count it.
 */
export const singleTopUpsMigration: Migration = {
  version: 14,
  name: 'bulk jobs: single airtime and data purchases',
  up: `
    ALTER TABLE bulk_jobs ADD COLUMN origin TEXT NOT NULL DEFAULT 'file' CHECK (origin IN ('file', 'single'));
    CREATE INDEX bulk_jobs_origin ON bulk_jobs (profile_id, origin, created_at);
  `,
};
