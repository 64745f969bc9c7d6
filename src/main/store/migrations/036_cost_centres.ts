import type { Migration } from './migration';

/**
 * Cost centres (issue 41): the department each purchase's spend is charged to.
 *
 * - `bulk_items.cost_centre`: the cost centre recorded on vendesk's own purchase. Every purchase
 *   vendesk makes is a bulk item — a spreadsheet's row, or the one item of a single purchase's job
 *   (`origin = 'single'`, steps 14 and 23) — so this one column is the purchase's cost centre,
 *   whatever its kind. NULL: none was given (the recipients list's rule then applies).
 * - `recipients`: the recipients list, imported from a spreadsheet: a phone number (11-digit local),
 *   meter or smartcard → the person or site's name and its cost centre. One row per identifier, for
 *   the log entries vendesk did not make (or made without a cost centre). Not per connection: it is
 *   the business's own list, as true of the sandbox's numbers as of the live service's.
 * - `cost_centre_changes`: every later change of a purchase's cost centre — which item, its service
 *   reference (the log's `transaction_id`) when it had one, from what, to what, who (the Windows/Unix
 *   user, or in a team the team member) and when (`changed_at`, UTC ISO on the service's clock, so a
 *   closed month can tell a change made after it closed).
 * - `log_cost_centres`: the view that gives every mirrored log entry its cost centre (see
 *   src/main/costCentres/logCostCentres.ts for its columns and its rule).
 */
export const COST_CENTRE_VIEW = `
    CREATE VIEW log_cost_centres AS
    SELECT
      e.rowid AS entry_rowid,
      e.profile_id AS profile_id,
      e.id AS id,
      e.transaction_id AS transaction_id,
      e.created_at AS created_at,
      e.type AS type,
      e.network AS network,
      e.status AS status,
      e.phone_number AS phone_number,
      e.amount_kobo AS amount_kobo,
      e.cost_kobo AS cost_kobo,
      e.commission_kobo AS commission_kobo,
      coalesce(CASE WHEN j.id IS NOT NULL THEN b.cost_centre END, rm.cost_centre, rp.cost_centre, 'Unassigned') AS cost_centre,
      CASE
        WHEN j.id IS NOT NULL AND b.cost_centre IS NOT NULL THEN 'purchase'
        WHEN rm.cost_centre IS NOT NULL OR rp.cost_centre IS NOT NULL THEN 'recipient'
        ELSE 'unassigned'
      END AS cost_centre_source,
      coalesce(rm.name, rp.name) AS recipient_name,
      b.job_id AS job_id,
      b.seq AS item_seq
    FROM log_entries e
    LEFT JOIN bulk_items b INDEXED BY bulk_items_reference_cost_centre ON b.reference = e.transaction_id
    LEFT JOIN bulk_jobs j ON j.id = b.job_id AND j.profile_id = e.profile_id
    LEFT JOIN recipients rm
      ON rm.kind = CASE e.type WHEN 'ELECTRICITY' THEN 'meter' WHEN 'CABLETV' THEN 'smartcard' END
      AND rm.identifier = CASE e.type
        WHEN 'ELECTRICITY' THEN CASE WHEN instr(e.description, ' for meter ') > 0 THEN trim(substr(e.description, instr(e.description, ' for meter ') + 11)) END
        WHEN 'CABLETV' THEN CASE WHEN instr(e.description, ' for smartcard ') > 0 THEN trim(substr(e.description, instr(e.description, ' for smartcard ') + 15)) END
      END
    LEFT JOIN recipients rp ON rp.kind = 'phone' AND rp.identifier = e.phone_number;`;

export const costCentresMigration: Migration = {
  version: 36,
  name: 'cost centres: on each purchase, the recipients list, the history of changes, and every log entry’s',
  up: `
    ALTER TABLE bulk_items ADD COLUMN cost_centre TEXT;
    -- The view's one probe per log entry into vendesk's own purchases, answered from the index alone.
    CREATE INDEX bulk_items_reference_cost_centre ON bulk_items (reference, cost_centre, job_id, seq) WHERE reference IS NOT NULL;

    CREATE TABLE recipients (
      kind TEXT NOT NULL CHECK (kind IN ('phone', 'meter', 'smartcard')),
      identifier TEXT NOT NULL,
      name TEXT NOT NULL DEFAULT '',
      cost_centre TEXT NOT NULL,
      source TEXT NOT NULL DEFAULT '',
      updated_at TEXT NOT NULL,
      PRIMARY KEY (kind, identifier)
    ) WITHOUT ROWID;

    CREATE TABLE cost_centre_changes (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      job_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      reference TEXT,
      from_centre TEXT,
      to_centre TEXT,
      actor TEXT NOT NULL,
      actor_kind TEXT NOT NULL CHECK (actor_kind IN ('desktop', 'team')),
      changed_at TEXT NOT NULL
    );
    CREATE INDEX cost_centre_changes_item ON cost_centre_changes (job_id, seq, id);
    CREATE INDEX cost_centre_changes_time ON cost_centre_changes (profile_id, changed_at);
    ${COST_CENTRE_VIEW}
  `,
};
