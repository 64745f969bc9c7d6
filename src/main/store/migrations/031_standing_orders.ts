import type { Migration } from './migration';

/**
 * The occurrence state table as this step wrote it into the database's triggers (a test holds it
 * equal to `OCCURRENCE_STATE_TABLE` in standing/occurrenceMoves.ts): the state an occurrence may be
 * written in first, and the moves from each state. `started` and `skipped` are final.
 */
export const OCCURRENCE_MOVES_AT_31 = {
  first: ['waiting', 'started', 'skipped'],
  next: { waiting: ['waiting', 'started', 'skipped'], started: [], skipped: [] },
} as const;

const list = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');
const refuse = (why: string) => `SELECT RAISE(ABORT, '${why.replaceAll("'", "''")}')`;

const moves = Object.entries(OCCURRENCE_MOVES_AT_31.next)
  .filter(([, to]) => to.length > 0)
  .map(([from, to]) => `(OLD.state = '${from}' AND NEW.state IN (${list(to)}))`)
  .join(' OR ');

/**
 * Standing orders (issue 40): an order and its versions (who changed what, when; a version's rows
 * and rule are never changed once confirmed, only followed by another), and its occurrences — one
 * row per order and scheduled Lagos day, the unit of exactly-once: written `started` with its one
 * bulk job in the transaction that creates the job, and never moved again.
 *
 * The occurrences' states are refused by triggers outside the table above: a first state other
 * than waiting, started or skipped; any move out of started or skipped; a started occurrence without
 * its job; a job once given that changes; a deletion.
 */
export const standingOrdersMigration: Migration = {
  version: 31,
  name: 'standing orders, their versions and their occurrences',
  up: `
    CREATE TABLE standing_orders (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('airtime', 'data', 'electricity', 'cable')),
      profile_id TEXT NOT NULL,
      connection_kind TEXT NOT NULL CHECK (connection_kind IN ('sandbox', 'live')),
      base_url TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('draft', 'active', 'paused', 'ended')),
      version INTEGER,
      team INTEGER NOT NULL DEFAULT 0 CHECK (team IN (0, 1)),
      created_by TEXT NOT NULL,
      created_at TEXT NOT NULL,
      state_by TEXT,
      state_at TEXT,
      -- The Lagos day, on the service's clock, its state last changed (a pause's day: what resume skips from).
      state_day TEXT
    );
    CREATE INDEX standing_orders_profile ON standing_orders (profile_id, state);

    CREATE TABLE standing_order_versions (
      order_id TEXT NOT NULL REFERENCES standing_orders (id) ON DELETE CASCADE,
      version INTEGER NOT NULL CHECK (version >= 1),
      name TEXT NOT NULL,
      rule TEXT NOT NULL,
      weekend TEXT NOT NULL CHECK (weekend IN ('next', 'previous', 'none')),
      grace_days INTEGER NOT NULL CHECK (grace_days BETWEEN 0 AND 60),
      effective_from TEXT NOT NULL,
      rows_json TEXT NOT NULL,
      rows_digest TEXT,
      item_count INTEGER NOT NULL CHECK (item_count > 0),
      total_kobo INTEGER NOT NULL CHECK (total_kobo > 0),
      source TEXT NOT NULL,
      change TEXT NOT NULL,
      changed_by TEXT NOT NULL,
      changed_at TEXT NOT NULL,
      confirmed_by TEXT,
      confirmed_at TEXT,
      PRIMARY KEY (order_id, version)
    );
    CREATE TRIGGER standing_versions_kept BEFORE UPDATE ON standing_order_versions WHEN OLD.confirmed_at IS NOT NULL
      BEGIN ${refuse('a confirmed version of a standing order is kept as it was: make a new version')}; END;
    CREATE TRIGGER standing_versions_not_deleted BEFORE DELETE ON standing_order_versions WHEN OLD.confirmed_at IS NOT NULL
      BEGIN ${refuse('a confirmed version of a standing order is kept as it was')}; END;

    CREATE TABLE standing_occurrences (
      order_id TEXT NOT NULL REFERENCES standing_orders (id),
      scheduled_day TEXT NOT NULL,
      due_day TEXT NOT NULL,
      state TEXT NOT NULL,
      reason_code TEXT,
      reason TEXT,
      version INTEGER,
      job_id TEXT,
      team_job_id TEXT,
      claimed_here INTEGER NOT NULL DEFAULT 1 CHECK (claimed_here IN (0, 1)),
      waiting_rows_json TEXT,
      missing_kobo INTEGER,
      decided_by TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (order_id, scheduled_day)
    );
    CREATE UNIQUE INDEX standing_occurrences_job ON standing_occurrences (job_id) WHERE job_id IS NOT NULL;
    CREATE INDEX standing_occurrences_state ON standing_occurrences (state, order_id);

    CREATE TRIGGER standing_occurrences_first_state BEFORE INSERT ON standing_occurrences
      WHEN NEW.state NOT IN (${list(OCCURRENCE_MOVES_AT_31.first)})
      BEGIN ${refuse(`an occurrence is first written ${OCCURRENCE_MOVES_AT_31.first.join(', ')}`)}; END;
    CREATE TRIGGER standing_occurrences_moves BEFORE UPDATE OF state ON standing_occurrences
      WHEN NOT (${moves})
      BEGIN ${refuse('an occurrence moves only along its state table (standing/occurrenceMoves.ts): started and skipped are final')}; END;
    CREATE TRIGGER standing_occurrences_started_has_job_insert BEFORE INSERT ON standing_occurrences
      WHEN NEW.state = 'started' AND NEW.job_id IS NULL AND NEW.team_job_id IS NULL
      BEGIN ${refuse('a started occurrence has its job')}; END;
    CREATE TRIGGER standing_occurrences_started_has_job_update BEFORE UPDATE ON standing_occurrences
      WHEN NEW.state = 'started' AND NEW.job_id IS NULL AND NEW.team_job_id IS NULL
      BEGIN ${refuse('a started occurrence has its job')}; END;
    CREATE TRIGGER standing_occurrences_one_job BEFORE UPDATE OF job_id, team_job_id ON standing_occurrences
      WHEN (OLD.job_id IS NOT NULL AND NEW.job_id IS NOT OLD.job_id) OR (OLD.team_job_id IS NOT NULL AND NEW.team_job_id IS NOT OLD.team_job_id)
      BEGIN ${refuse('an occurrence becomes one job, never another')}; END;
    CREATE TRIGGER standing_occurrences_kept BEFORE DELETE ON standing_occurrences
      BEGIN ${refuse("an occurrence is kept: it is the order's history")}; END;`,
};
