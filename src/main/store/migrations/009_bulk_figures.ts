import type { Migration } from './migration';

/**
 * Bulk job figures and limits per connection.
 *
 * - `cost_kobo`: what the wallet was charged for the item — the log entry's `transaction_cost`
 *   (airtime, data), or the purchase's amount less its commission (electricity, cable). NULL
 *   while it is not known: an unknown cost is never counted as 0.
 * - `next_requery_ms` / `requery_tries`: when an accepted or pending airtime or data item may
 *   next be asked about by requery, so the follow-up of finished and cancelled jobs keeps its
 *   pace across restarts. NULL with no tries yet: 2 minutes 1 second after it was sent; NULL
 *   after tries: the service will answer no more requeries (the log is still read).
 * - Bulk settings (spending caps, batch size, …) become per connection, under the key
 *   `bulk.settings:<profile id>`. The caps set before (one `bulk.settings` for every
 *   connection) are copied to every profile and to every connection that has jobs: a cap only
 *   ever limits spending, so copying it never lets anyone spend more than they allowed. The old
 *   key stays as the limits of a connection that has none of its own yet.
 */
export const bulkFiguresMigration: Migration = {
  version: 9,
  name: 'bulk items: wallet cost and requery pace; bulk settings per connection',
  up: `
    ALTER TABLE bulk_items ADD COLUMN cost_kobo INTEGER;
    ALTER TABLE bulk_items ADD COLUMN next_requery_ms INTEGER;
    ALTER TABLE bulk_items ADD COLUMN requery_tries INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX bulk_jobs_profile ON bulk_jobs (profile_id, created_at);

    INSERT INTO settings (key, value, updated_at)
      SELECT 'bulk.settings:' || c.id, s.value, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      FROM (SELECT id FROM profiles UNION SELECT profile_id FROM bulk_jobs) c
      JOIN settings s ON s.key = 'bulk.settings'
      WHERE true
      ON CONFLICT (key) DO NOTHING;
  `,
};
