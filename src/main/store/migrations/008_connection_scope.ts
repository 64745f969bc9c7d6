import type { Migration } from './migration';

/**
 * Every local record belongs to the connection it was made on (the built-in sandbox, a saved live
 * profile, or a connection given on the command line), and every view, export and background loop
 * reads only the active connection's.
 *
 * - Rows made through a command-line connection carried the one key 'override' whatever the
 *   address: they move to the saved live profile of their address when there is one, else to the
 *   key `url:<address>` (taken over by the next command-line connection to that address). The
 *   mirror's own rows of such connections (log entries, checkpoint, catalog cache) name no
 *   address: they are a copy of the service's log, dropped here and read again by the next sync.
 * - Messaging records were keyed `<profile>|<address>`; the embedded sandbox's address changes at
 *   every start, which hid its history: they are keyed by the connection alone now.
 * - Balance snapshots are placed on the service's clock (from its answer's `Date` header) as a
 *   window: `taken_at` (earliest) to `taken_to` (latest); `clock` says 'service', or 'local' for
 *   readings made before this.
 * - A paid message's time on the service's clock, so the wallet roll-forward can place its charge.
 * - When vendesk's own balance readings and purchases left and were answered on this computer's
 *   clock (`local_*_ms`): their order is certain even where the service's clock (known only to
 *   the second) cannot tell which came first.
 * - A live profile's token is bound to the address it was entered for (`token_address`): it is
 *   never sent anywhere else; changing the address clears it.
 * - A failed purchase's refund is concluded from evidence about that purchase (`refund_evidence`),
 *   no longer from the wallet balance, which other purchases move: refunds flagged 'missing' that
 *   way are checked again.
 */
export const connectionScopeMigration: Migration = {
  version: 8,
  name: 'every record of its own connection; service-clock times for balances and messages; refund evidence',
  up: `
    UPDATE purchases SET profile_id = coalesce(
      (SELECT p.id FROM profiles p WHERE p.kind = 'live' AND rtrim(p.base_url, '/') = rtrim(purchases.base_url, '/') ORDER BY p.created_at LIMIT 1),
      'url:' || rtrim(purchases.base_url, '/'))
      WHERE profile_id = 'override';
    UPDATE bulk_jobs SET profile_id = coalesce(
      (SELECT p.id FROM profiles p WHERE p.kind = 'live' AND rtrim(p.base_url, '/') = rtrim(bulk_jobs.base_url, '/') ORDER BY p.created_at LIMIT 1),
      'url:' || rtrim(bulk_jobs.base_url, '/'))
      WHERE profile_id = 'override';
    DELETE FROM log_entries WHERE profile_id = 'override';
    DELETE FROM sync_checkpoints WHERE profile_id = 'override';
    DELETE FROM catalog_cache WHERE profile_id = 'override';

    UPDATE OR REPLACE messaging_contact_uploads SET service_key = CASE
      WHEN substr(service_key, 1, 9) = 'override|' THEN 'url:' || rtrim(substr(service_key, 10), '/')
      ELSE substr(service_key, 1, instr(service_key, '|') - 1) END
      WHERE instr(service_key, '|') > 0;
    UPDATE messaging_imports SET service_key = CASE
      WHEN substr(service_key, 1, 9) = 'override|' THEN 'url:' || rtrim(substr(service_key, 10), '/')
      ELSE substr(service_key, 1, instr(service_key, '|') - 1) END
      WHERE instr(service_key, '|') > 0;
    UPDATE messaging_sends SET service_key = CASE
      WHEN substr(service_key, 1, 9) = 'override|' THEN 'url:' || rtrim(substr(service_key, 10), '/')
      ELSE substr(service_key, 1, instr(service_key, '|') - 1) END
      WHERE instr(service_key, '|') > 0;

    ALTER TABLE balance_snapshots ADD COLUMN taken_to TEXT;
    ALTER TABLE balance_snapshots ADD COLUMN clock TEXT NOT NULL DEFAULT 'local';
    ALTER TABLE balance_snapshots ADD COLUMN local_from_ms INTEGER;
    ALTER TABLE balance_snapshots ADD COLUMN local_to_ms INTEGER;
    UPDATE balance_snapshots SET taken_to = taken_at;

    ALTER TABLE messaging_sends ADD COLUMN service_from_ms INTEGER;
    ALTER TABLE messaging_sends ADD COLUMN service_to_ms INTEGER;

    ALTER TABLE purchases ADD COLUMN refund_evidence TEXT;
    ALTER TABLE purchases ADD COLUMN local_sent_ms INTEGER;
    ALTER TABLE purchases ADD COLUMN local_answered_ms INTEGER;
    UPDATE purchases SET refund_state = 'checking' WHERE refund_state = 'missing';

    ALTER TABLE profiles ADD COLUMN token_address TEXT;

    CREATE INDEX purchases_profile_state ON purchases (profile_id, state, next_requery_ms);
    CREATE INDEX purchases_profile_created ON purchases (profile_id, created_at);
    CREATE INDEX reconcile_runs_profile ON reconcile_runs (profile_id, created_at);
    CREATE INDEX messaging_sends_profile ON messaging_sends (service_key, created_at);
  `,
};
