import type { Migration } from './migration';

/**
 * Reconciliation runs and their findings. A run keeps what went in (the export's hash, the
 * mirror's and vendesk's purchases' fingerprints, the parameters) and what came out (totals per
 * category and the wallet roll-forward as JSON, every exception as a row). Matched pairs, up to
 * millions, are kept compactly in `matched_pairs` (export row number, mirror rowid and rule per
 * pair) so a run can be reopened and drilled into without storing a million rows.
 */
export const reconcileMigration: Migration = {
  version: 4,
  name: 'reconciliation runs, their items and resolutions',
  up: `
    CREATE TABLE reconcile_runs (
      id TEXT PRIMARY KEY,
      profile_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
      created_at TEXT NOT NULL,
      finished_at TEXT,
      duration_ms INTEGER,
      range_from TEXT NOT NULL,
      range_to TEXT NOT NULL,
      file_name TEXT NOT NULL,
      file_hash TEXT,
      parameters_json TEXT NOT NULL,
      inputs_json TEXT,
      totals_json TEXT,
      matched_by_rule_json TEXT,
      roll_forward_json TEXT,
      unreadable_json TEXT,
      matched_count INTEGER NOT NULL DEFAULT 0,
      matched_pairs BLOB,
      error TEXT
    );
    CREATE INDEX reconcile_runs_created ON reconcile_runs (created_at);

    CREATE TABLE reconcile_items (
      run_id TEXT NOT NULL REFERENCES reconcile_runs (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      category TEXT NOT NULL,
      rule TEXT,
      export_row INTEGER,
      transaction_id TEXT NOT NULL DEFAULT '',
      log_id INTEGER,
      phone TEXT NOT NULL DEFAULT '',
      type TEXT NOT NULL DEFAULT '',
      product TEXT NOT NULL DEFAULT '',
      network TEXT NOT NULL DEFAULT '',
      created_at TEXT,
      export_amount_kobo INTEGER,
      mirror_amount_kobo INTEGER,
      export_cost_kobo INTEGER,
      mirror_cost_kobo INTEGER,
      export_status TEXT,
      mirror_status TEXT,
      local_ref TEXT,
      local_state TEXT,
      amount_kobo INTEGER NOT NULL,
      detail TEXT NOT NULL,
      resolved_at TEXT,
      resolution_note TEXT,
      requery_status TEXT,
      requery_at TEXT,
      PRIMARY KEY (run_id, seq)
    );
    CREATE INDEX reconcile_items_category ON reconcile_items (run_id, category, seq);
  `,
};
