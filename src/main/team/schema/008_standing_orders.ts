// Longer than 400 lines on purpose: a migration is one SQL document, applied in one transaction;
// split, it would no longer read as the one change it makes (issue 40: a team's standing orders).
import type { TeamMigration } from './teamMigration';

/**
 * Issue 40, the team's half of standing orders.
 * - **Shared orders.** A LIVE order made on a joined desktop is published by its creator (a
 *   preparer) with every confirmed version and its rows (`publish_standing_version`); the database
 *   computes the rows' digest (`items_digest`, as a job's). Every desktop and server of the team
 *   reads the same versions. Only the creator or an admin publishes a new version, pauses, resumes
 *   or ends the order (`move_standing_order`).
 * - **Occurrences claimed once.** `claim_standing_occurrence` claims (order, scheduled day) — a
 *   primary key — in one transaction with its team job, an ordinary bulk job whose rows are then
 *   claimed row by row as any team job's. A second claim, from any desktop or server, answers the
 *   first. Each job item must be a row of the version it names (rows that wait are left out, never
 *   changed). `skip_standing_occurrence` records a person's Skip. Each is an audit row.
 * - **Standing approvals.** An approver — never the member who published the version — approves
 *   the order's rows once (`approve_standing_order`): the rows' digest, a ceiling per run in kobo,
 *   a number of runs or an end date; above the team's two-approver amount (of the ceiling) two
 *   different approvers. A claim within it makes its job approved at once (an `approve` audit row
 *   naming the standing approval). One that is not — another connection, past its end by the
 *   database's clock (`clock_timestamp()`) or by the occurrence's day, used up, a total above its
 *   ceiling, other rows — makes a job that waits for approval as any job, and the claim says why.
 *   A run counts against the approval when it is claimed, whatever its rows' outcome (bought,
 *   failed, or not known yet): money that may have left the wallet is counted.
 */
export const standingOrdersMigration: TeamMigration = {
  version: 8,
  name: "a team's standing orders: shared versions, occurrences claimed once with their job, standing approvals",
  sql: String.raw`
ALTER TABLE vendesk.audit_trail DROP CONSTRAINT audit_trail_action_check;
ALTER TABLE vendesk.audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('join', 'prepare', 'approve', 'reject',
  'cancel', 'send', 'settle', 'reconcile', 'resolve', 'cap_change', 'profile_change', 'finish', 'adopt',
  'standing_publish', 'standing_move', 'standing_approve', 'standing_claim', 'standing_skip'));

CREATE TABLE vendesk.standing_orders (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('airtime', 'data', 'electricity', 'cable')),
  base_url text NOT NULL,
  account_number text,
  name text NOT NULL,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused', 'ended')),
  state_by name,
  state_at timestamptz,
  created_by name NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE vendesk.standing_versions (
  order_id uuid NOT NULL REFERENCES vendesk.standing_orders (id),
  version integer NOT NULL CHECK (version >= 1),
  name text NOT NULL,
  rule text NOT NULL,
  weekend text NOT NULL CHECK (weekend IN ('next', 'previous', 'none')),
  grace_days integer NOT NULL CHECK (grace_days BETWEEN 0 AND 31),
  effective_from date NOT NULL,
  rows jsonb NOT NULL CHECK (jsonb_typeof(rows) = 'array'),
  item_count integer NOT NULL CHECK (item_count > 0),
  total_kobo bigint NOT NULL CHECK (total_kobo >= 0),
  rows_digest text NOT NULL CHECK (rows_digest ~ '^[0-9a-f]{64}$'),
  published_by name NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (order_id, version)
);

CREATE TABLE vendesk.standing_approvals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES vendesk.standing_orders (id),
  version integer NOT NULL,
  rows_digest text NOT NULL CHECK (rows_digest ~ '^[0-9a-f]{64}$'),
  base_url text NOT NULL,
  account_number text,
  ceiling_kobo bigint NOT NULL CHECK (ceiling_kobo > 0),
  runs integer CHECK (runs > 0),
  until date,
  approvals_needed integer NOT NULL CHECK (approvals_needed IN (1, 2)),
  granted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (runs IS NOT NULL OR until IS NOT NULL),
  FOREIGN KEY (order_id, version) REFERENCES vendesk.standing_versions (order_id, version)
);

CREATE TABLE vendesk.standing_approval_signers (
  approval_id uuid NOT NULL REFERENCES vendesk.standing_approvals (id),
  approver name NOT NULL,
  note text NOT NULL DEFAULT '',
  desktop_id text NOT NULL,
  signed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (approval_id, approver)
);

CREATE TABLE vendesk.standing_occurrences (
  order_id uuid NOT NULL REFERENCES vendesk.standing_orders (id),
  scheduled_day date NOT NULL,
  due_day date NOT NULL,
  state text NOT NULL CHECK (state IN ('started', 'skipped')),
  version integer,
  job_id uuid UNIQUE REFERENCES vendesk.jobs (id),
  approval_id uuid REFERENCES vendesk.standing_approvals (id),
  note text,
  by_hand boolean NOT NULL DEFAULT false,
  decided_by name NOT NULL,
  desktop_id text NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (order_id, scheduled_day),
  CHECK ((state = 'started') = (job_id IS NOT NULL))
);

ALTER TABLE vendesk.jobs ADD COLUMN standing_approval_id uuid REFERENCES vendesk.standing_approvals (id);

-- Versions, signers and occurrences are kept as written (an approval's grant is its only change).
CREATE TRIGGER standing_versions_append_only BEFORE UPDATE OR DELETE ON vendesk.standing_versions
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER standing_signers_append_only BEFORE UPDATE OR DELETE ON vendesk.standing_approval_signers
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER standing_occurrences_append_only BEFORE UPDATE OR DELETE ON vendesk.standing_occurrences
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER standing_versions_no_truncate BEFORE TRUNCATE ON vendesk.standing_versions
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER standing_signers_no_truncate BEFORE TRUNCATE ON vendesk.standing_approval_signers
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER standing_occurrences_no_truncate BEFORE TRUNCATE ON vendesk.standing_occurrences
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();

-- Any member runs an occurrence (a server's login may hold no preparer role): the internal writer of
-- a job (step 4's, renamed by step 7) leaves the preparer check to its callers — step 7's
-- prepare_job_with_items, in front of every job a person prepares, keeps it; the occurrence's job is
-- prepared in the name of the member who published its rows. Its body is otherwise kept as it is.
DO $do$
DECLARE
  fn regprocedure := 'vendesk.store_job_with_items(text, text, text, text, text, text, boolean, integer, bigint, bigint, jsonb, jsonb, jsonb)';
  src text := pg_get_functiondef(fn);
  check_line text := 'PERFORM vendesk.require_role(''vendesk_preparer'', ''prepare a job'');';
BEGIN
  IF position(check_line IN src) = 0 THEN
    RAISE EXCEPTION 'store_job_with_items no longer holds the preparer check this step moves to its callers';
  END IF;
  EXECUTE replace(src, check_line, '-- (the preparer check is its callers'': team schema 8)');
END $do$;

-- A row of an order as the digest writes it, its operator aside (a job's item may carry the one the
-- catalog gives; the version's row is what was confirmed).
CREATE FUNCTION vendesk.standing_row_text(p_item jsonb) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT vendesk.item_digest_text((p_item->>'rowNumber')::integer, (p_item->>'amountKobo')::bigint, p_item - 'operator')
$$;

-- ---------------------------------------------------------------- publishing a version
CREATE FUNCTION vendesk.publish_standing_version(p_order_id uuid, p_kind text, p_name text, p_base_url text, p_account_number text,
  p_version integer, p_rule text, p_weekend text, p_grace_days integer, p_effective_from date, p_rows jsonb,
  p_desktop_id text, p_desktop_name text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  o vendesk.standing_orders;
  v vendesk.standing_versions;
  digest text;
  n integer;
  kobo bigint;
BEGIN
  PERFORM vendesk.require_role('vendesk_preparer', 'publish a standing order');
  PERFORM vendesk.desktop_name_of(p_desktop_id);
  PERFORM vendesk.refuse_unseen('The order''s name', p_name);
  PERFORM vendesk.refuse_unseen('The schedule', p_rule, true);
  IF jsonb_typeof(p_rows) IS DISTINCT FROM 'array' OR jsonb_array_length(p_rows) = 0 THEN
    RAISE EXCEPTION 'A standing order needs its rows (a non-empty array)' USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_rows) AS e(v)
             WHERE jsonb_typeof(e.v) <> 'object' OR jsonb_typeof(e.v->'rowNumber') IS DISTINCT FROM 'number'
                OR jsonb_typeof(e.v->'amountKobo') IS DISTINCT FROM 'number' OR (e.v->>'amountKobo')::numeric < 0) THEN
    RAISE EXCEPTION 'Each row needs its spreadsheet row (rowNumber) and amount in kobo (amountKobo)' USING ERRCODE = 'check_violation';
  END IF;
  PERFORM vendesk.refuse_unseen_in_items(p_rows);
  SELECT * INTO o FROM vendesk.standing_orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND THEN
    IF p_version <> 1 THEN
      RAISE EXCEPTION 'Standing order % is not in the team database: it is published from its first version' , p_order_id
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    INSERT INTO vendesk.standing_orders (id, kind, base_url, account_number, name, created_by)
      VALUES (p_order_id, p_kind, p_base_url, p_account_number, p_name, session_user) RETURNING * INTO o;
  ELSIF o.created_by <> session_user AND NOT pg_has_role(session_user, 'vendesk_admin', 'MEMBER') THEN
    RAISE EXCEPTION 'Only the creator of standing order % (%) or an admin may change it', p_order_id, o.created_by
      USING ERRCODE = 'insufficient_privilege';
  ELSIF o.state = 'ended' THEN
    RAISE EXCEPTION 'Standing order % has ended: it does not change any more', p_order_id USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  digest := vendesk.items_digest(p_rows);
  SELECT * INTO v FROM vendesk.standing_versions WHERE order_id = o.id AND version = p_version;
  IF FOUND THEN
    -- Published before (a desktop that stopped before it wrote its confirmation): the same version again answers it.
    IF v.rows_digest <> digest OR v.rule <> p_rule THEN
      RAISE EXCEPTION 'Version % of standing order % was published with other rows or another schedule: refresh and make a new version', p_version, o.id
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN v.rows_digest;
  END IF;
  IF p_version <> coalesce((SELECT max(version) FROM vendesk.standing_versions WHERE order_id = o.id), 0) + 1 THEN
    RAISE EXCEPTION 'Standing order % has a newer version in the team database than this desktop knows: refresh, then make the change again', o.id
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  SELECT count(*), coalesce(sum((e.v->>'amountKobo')::bigint), 0) INTO n, kobo FROM jsonb_array_elements(p_rows) AS e(v);
  INSERT INTO vendesk.standing_versions (order_id, version, name, rule, weekend, grace_days, effective_from, rows, item_count, total_kobo,
    rows_digest, published_by)
    VALUES (o.id, p_version, p_name, p_rule, p_weekend, p_grace_days, p_effective_from, p_rows, n, kobo, digest, session_user);
  UPDATE vendesk.standing_orders SET name = p_name WHERE id = o.id;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'standing_publish', NULL, kobo,
    jsonb_build_object('order', o.id, 'name', p_name, 'version', p_version, 'rows', n, 'rowsDigest', digest, 'rule', p_rule));
  RETURN digest;
END $$;

-- Pause, resume or end: the creator or an admin.
CREATE FUNCTION vendesk.move_standing_order(p_order_id uuid, p_move text, p_desktop_id text, p_desktop_name text)
RETURNS vendesk.standing_orders
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  o vendesk.standing_orders;
  target text;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'change a standing order');
  SELECT * INTO o FROM vendesk.standing_orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no standing order % in the team database', p_order_id USING ERRCODE = 'no_data_found';
  END IF;
  IF o.created_by <> session_user AND NOT pg_has_role(session_user, 'vendesk_admin', 'MEMBER') THEN
    RAISE EXCEPTION 'Only the creator of standing order % (%) or an admin may change it', p_order_id, o.created_by
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  target := CASE p_move WHEN 'pause' THEN 'paused' WHEN 'resume' THEN 'active' WHEN 'end' THEN 'ended' END;
  IF target IS NULL OR (p_move = 'pause' AND o.state <> 'active') OR (p_move = 'resume' AND o.state <> 'paused')
     OR (p_move = 'end' AND o.state = 'ended') THEN
    RAISE EXCEPTION 'Standing order % is %: it cannot be %', p_order_id, o.state, coalesce(p_move, 'moved')
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  UPDATE vendesk.standing_orders SET state = target, state_by = session_user, state_at = now() WHERE id = o.id RETURNING * INTO o;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'standing_move', NULL, NULL,
    jsonb_build_object('order', o.id, 'move', p_move, 'state', target));
  RETURN o;
END $$;

-- ---------------------------------------------------------------- standing approvals
-- Why a standing approval does not let a run through now, or NULL when it does. Arguments left NULL
-- are not checked (the view of an approval knows no occurrence, total or connection).
CREATE FUNCTION vendesk.standing_approval_refusal(p_approval vendesk.standing_approvals, p_rows_digest text, p_total_kobo bigint,
  p_due_day date, p_base_url text, p_account_number text) RETURNS text
LANGUAGE plpgsql VOLATILE SET search_path = vendesk, pg_temp AS $$
DECLARE
  used integer;
  ends timestamptz;
BEGIN
  IF p_approval.granted_at IS NULL THEN
    RETURN format('its standing approval %s has %s of %s approvals: it needs another approver', p_approval.id,
      (SELECT count(*) FROM vendesk.standing_approval_signers WHERE approval_id = p_approval.id), p_approval.approvals_needed);
  END IF;
  IF p_base_url IS NOT NULL AND (p_base_url <> p_approval.base_url OR p_account_number IS DISTINCT FROM p_approval.account_number) THEN
    RETURN format('it runs on another connection (%s, wallet account %s) than its standing approval covers (%s, wallet account %s)',
      p_base_url, coalesce(p_account_number, 'unknown'), p_approval.base_url, coalesce(p_approval.account_number, 'unknown'));
  END IF;
  IF p_approval.until IS NOT NULL THEN
    ends := (p_approval.until + 1)::timestamp AT TIME ZONE 'Africa/Lagos';
    IF clock_timestamp() >= ends THEN
      RETURN format('its standing approval expired at the end of %s', to_char(p_approval.until, 'DD Mon YYYY'));
    END IF;
    IF p_due_day IS NOT NULL AND p_due_day > p_approval.until THEN
      RETURN format('its day (%s) is after the end of its standing approval (%s): the approval has expired for it',
        to_char(p_due_day, 'DD Mon YYYY'), to_char(p_approval.until, 'DD Mon YYYY'));
    END IF;
  END IF;
  IF p_approval.runs IS NOT NULL THEN
    SELECT count(*) INTO used FROM vendesk.standing_occurrences WHERE approval_id = p_approval.id;
    IF used >= p_approval.runs THEN
      RETURN format('its standing approval is used up (%s of %s run(s))', used, p_approval.runs);
    END IF;
  END IF;
  IF p_total_kobo IS NOT NULL AND p_total_kobo > p_approval.ceiling_kobo THEN
    RETURN format('its total (%s kobo) is above the standing approval''s ceiling of %s kobo per run', p_total_kobo, p_approval.ceiling_kobo);
  END IF;
  IF p_rows_digest IS NOT NULL AND p_rows_digest <> p_approval.rows_digest THEN
    RETURN format('its rows changed since the standing approval (the rows'' digest is %s, the approved one %s)',
      left(p_rows_digest, 12), left(p_approval.rows_digest, 12));
  END IF;
  RETURN NULL;
END $$;

-- The order's standing approval in force: the one granted last, else the one waiting for its second approver.
CREATE FUNCTION vendesk.standing_approval_of(p_order_id uuid) RETURNS vendesk.standing_approvals
LANGUAGE sql STABLE SET search_path = vendesk, pg_temp AS $$
  SELECT * FROM vendesk.standing_approvals WHERE order_id = p_order_id
   ORDER BY granted_at IS NULL, granted_at DESC, created_at DESC LIMIT 1
$$;

-- An approver approves the version in force's rows once, for a ceiling per run and a number of runs
-- or an end date. Never the member who published that version; above the team's two-approver amount
-- (of the ceiling) a second, different approver completes the same terms.
CREATE FUNCTION vendesk.approve_standing_order(p_order_id uuid, p_version integer, p_rows_digest text, p_ceiling_kobo bigint,
  p_runs integer, p_until date, p_note text, p_desktop_id text, p_desktop_name text) RETURNS vendesk.standing_approvals
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  o vendesk.standing_orders;
  v vendesk.standing_versions;
  a vendesk.standing_approvals;
  given integer;
BEGIN
  PERFORM vendesk.require_role('vendesk_approver', 'approve a standing order');
  PERFORM vendesk.desktop_name_of(p_desktop_id);
  PERFORM vendesk.refuse_unseen('The note', p_note, true);
  SELECT * INTO o FROM vendesk.standing_orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no standing order % in the team database', p_order_id USING ERRCODE = 'no_data_found';
  END IF;
  IF o.state = 'ended' THEN
    RAISE EXCEPTION 'Standing order % has ended', p_order_id USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  SELECT * INTO v FROM vendesk.standing_versions WHERE order_id = o.id ORDER BY version DESC LIMIT 1;
  IF v.version IS DISTINCT FROM p_version OR v.rows_digest IS DISTINCT FROM p_rows_digest THEN
    RAISE EXCEPTION 'The rows approved (version %, digest %) are not the order''s in the team database (version %, digest %): refresh and look again',
      p_version, left(coalesce(p_rows_digest, '-'), 12), v.version, left(coalesce(v.rows_digest, '-'), 12)
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF v.published_by = session_user OR o.created_by = session_user THEN
    RAISE EXCEPTION 'The approver cannot be the preparer: % made standing order % (version %)', session_user, o.id, v.version
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF p_ceiling_kobo IS NULL OR p_ceiling_kobo < v.total_kobo THEN
    RAISE EXCEPTION 'The ceiling (% kobo) is below the order''s total per run (% kobo): a standing approval covers at least one whole run',
      coalesce(p_ceiling_kobo, 0), v.total_kobo USING ERRCODE = 'check_violation';
  END IF;
  IF (p_runs IS NULL AND p_until IS NULL) OR p_runs < 1 THEN
    RAISE EXCEPTION 'A standing approval is for a number of runs (1 or more) or until a day' USING ERRCODE = 'check_violation';
  END IF;
  IF p_until IS NOT NULL AND p_until < (clock_timestamp() AT TIME ZONE 'Africa/Lagos')::date THEN
    RAISE EXCEPTION 'The end of the approval (%) is past', p_until USING ERRCODE = 'check_violation';
  END IF;
  -- The same terms waiting for their second approver are completed; other terms start a new approval.
  SELECT * INTO a FROM vendesk.standing_approvals
   WHERE order_id = o.id AND granted_at IS NULL AND rows_digest = v.rows_digest AND ceiling_kobo = p_ceiling_kobo
     AND runs IS NOT DISTINCT FROM p_runs AND until IS NOT DISTINCT FROM p_until
   ORDER BY created_at DESC LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO vendesk.standing_approvals (order_id, version, rows_digest, base_url, account_number, ceiling_kobo, runs, until, approvals_needed)
      VALUES (o.id, v.version, v.rows_digest, o.base_url, o.account_number, p_ceiling_kobo, p_runs, p_until,
        vendesk.approvals_needed(p_ceiling_kobo))
      RETURNING * INTO a;
  ELSIF EXISTS (SELECT 1 FROM vendesk.standing_approval_signers WHERE approval_id = a.id AND approver = session_user) THEN
    RAISE EXCEPTION 'You approved standing order % already: it needs another approver, neither you nor its preparer', o.id
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  INSERT INTO vendesk.standing_approval_signers (approval_id, approver, note, desktop_id)
    VALUES (a.id, session_user, coalesce(p_note, ''), p_desktop_id);
  SELECT count(*) INTO given FROM vendesk.standing_approval_signers WHERE approval_id = a.id;
  IF given >= a.approvals_needed THEN
    UPDATE vendesk.standing_approvals SET granted_at = clock_timestamp() WHERE id = a.id RETURNING * INTO a;
  END IF;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'standing_approve', NULL, p_ceiling_kobo,
    jsonb_build_object('order', o.id, 'approval', a.id, 'version', v.version, 'rowsDigest', v.rows_digest, 'runs', p_runs,
      'until', p_until, 'note', coalesce(p_note, ''), 'approvals', given, 'approvalsNeeded', a.approvals_needed));
  RETURN a;
END $$;

-- ---------------------------------------------------------------- occurrences
-- How a claimed or skipped occurrence answers: the row, and whether this call made it.
CREATE TYPE vendesk.standing_claim AS (
  claimed_here boolean,
  state text,
  job_id uuid,
  job_state text,
  decided_by name,
  desktop_name text,
  approved_by text,
  note text
);

CREATE FUNCTION vendesk.standing_claim_of(p_order_id uuid, p_scheduled_day date, p_here boolean) RETURNS vendesk.standing_claim
LANGUAGE sql STABLE SET search_path = vendesk, pg_temp AS $$
  SELECT p_here, c.state, c.job_id, j.state, c.decided_by, coalesce(d.desktop_name, c.desktop_id),
    CASE WHEN c.state = 'skipped' THEN NULL WHEN j.standing_approval_id IS NOT NULL THEN 'standing_approval' ELSE 'approval' END,
    c.note
  FROM vendesk.standing_occurrences c
  LEFT JOIN vendesk.jobs j ON j.id = c.job_id
  LEFT JOIN vendesk.desktops d ON d.desktop_id = c.desktop_id
  WHERE c.order_id = p_order_id AND c.scheduled_day = p_scheduled_day
$$;

-- Claims an occurrence with its team job, once: the job's items must be rows of the version named;
-- a standing approval that covers the run approves the job at once, else it waits for approval as
-- any job and the answer says why. A second claim answers the first.
CREATE FUNCTION vendesk.claim_standing_occurrence(p_order_id uuid, p_scheduled_day date, p_due_day date, p_version integer,
  p_file_name text, p_file_sha256 text, p_wallet_kobo bigint, p_run_spec jsonb, p_items jsonb, p_by_hand boolean,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.standing_claim
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  o vendesk.standing_orders;
  v vendesk.standing_versions;
  a vendesk.standing_approvals;
  job vendesk.jobs;
  n integer;
  kobo bigint;
  stranger integer;
  why text;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'run a standing order');
  PERFORM vendesk.desktop_name_of(p_desktop_id);
  SELECT * INTO o FROM vendesk.standing_orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no standing order % in the team database', p_order_id USING ERRCODE = 'no_data_found';
  END IF;
  IF EXISTS (SELECT 1 FROM vendesk.standing_occurrences WHERE order_id = o.id AND scheduled_day = p_scheduled_day) THEN
    RETURN vendesk.standing_claim_of(o.id, p_scheduled_day, false);
  END IF;
  IF o.state <> 'active' THEN
    RAISE EXCEPTION 'Standing order % is % in the team: nothing is bought for it', o.id, o.state USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  SELECT * INTO v FROM vendesk.standing_versions WHERE order_id = o.id AND version = p_version;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Standing order % has no version % in the team database', o.id, p_version USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF jsonb_typeof(p_items) IS DISTINCT FROM 'array' OR jsonb_array_length(p_items) = 0 OR jsonb_typeof(p_run_spec) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'An occurrence''s job needs its items (a non-empty array) and its run spec (an object)' USING ERRCODE = 'check_violation';
  END IF;
  -- Every item is a row of the version, as confirmed (a row that waits is left out, never changed), each once.
  SELECT count(*) INTO stranger FROM jsonb_array_elements(p_items) AS e(v)
   WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v.rows) AS r(v) WHERE vendesk.standing_row_text(r.v) = vendesk.standing_row_text(e.v));
  IF stranger > 0 THEN
    RAISE EXCEPTION '% item(s) of this occurrence are not rows of version % of standing order %: only the order''s rows are bought', stranger, v.version, o.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF (SELECT count(DISTINCT e.v->>'rowNumber') FROM jsonb_array_elements(p_items) AS e(v)) <> jsonb_array_length(p_items) THEN
    RAISE EXCEPTION 'A row of standing order % is in this occurrence twice: each row is bought once', o.id USING ERRCODE = 'check_violation';
  END IF;
  SELECT count(*), coalesce(sum((e.v->>'amountKobo')::bigint), 0) INTO n, kobo FROM jsonb_array_elements(p_items) AS e(v);
  job := vendesk.store_job_with_items('bulk', p_desktop_id, p_desktop_name, NULL, p_file_name, p_file_sha256, false, n, kobo, p_wallet_kobo,
    jsonb_build_object('kind', o.kind), p_run_spec, p_items);
  -- The order's rows were prepared by the member who published them: that member never approves its job.
  UPDATE vendesk.jobs SET prepared_by = v.published_by WHERE id = job.id RETURNING * INTO job;
  a := vendesk.standing_approval_of(o.id);
  IF a.id IS NULL THEN
    why := 'it has no standing approval';
  ELSE
    why := vendesk.standing_approval_refusal(a, v.rows_digest, kobo, p_due_day, p_run_spec->>'baseUrl', p_run_spec->>'accountNumber');
  END IF;
  IF why IS NULL THEN
    UPDATE vendesk.jobs SET state = 'approved', standing_approval_id = a.id WHERE id = job.id RETURNING * INTO job;
    PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'approve', job.id, kobo,
      jsonb_build_object('standingApproval', a.id, 'order', o.id, 'occurrence', p_scheduled_day, 'preparedBy', job.prepared_by,
        'itemsDigest', job.items_digest, 'items', n,
        'approvedBy', (SELECT jsonb_agg(approver ORDER BY signed_at) FROM vendesk.standing_approval_signers WHERE approval_id = a.id)));
  END IF;
  INSERT INTO vendesk.standing_occurrences (order_id, scheduled_day, due_day, state, version, job_id, approval_id, note, by_hand, decided_by, desktop_id)
    VALUES (o.id, p_scheduled_day, p_due_day, 'started', v.version, job.id, CASE WHEN why IS NULL THEN a.id END,
      CASE WHEN why IS NULL THEN NULL ELSE 'It waits for approval: ' || why || '.' END, coalesce(p_by_hand, false), session_user, p_desktop_id);
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'standing_claim', job.id, kobo,
    jsonb_build_object('order', o.id, 'occurrence', p_scheduled_day, 'due', p_due_day, 'version', v.version, 'items', n,
      'byHand', coalesce(p_by_hand, false), 'standingApproval', CASE WHEN why IS NULL THEN a.id END, 'waitsBecause', why));
  RETURN vendesk.standing_claim_of(o.id, p_scheduled_day, true);
END $$;

-- A person's Skip (or an occurrence the order was paused on): nothing is bought for it, once.
CREATE FUNCTION vendesk.skip_standing_occurrence(p_order_id uuid, p_scheduled_day date, p_due_day date, p_reason text,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.standing_claim
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  o vendesk.standing_orders;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'skip a standing order''s occurrence');
  PERFORM vendesk.desktop_name_of(p_desktop_id);
  PERFORM vendesk.refuse_unseen('The reason', p_reason, true);
  SELECT * INTO o FROM vendesk.standing_orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no standing order % in the team database', p_order_id USING ERRCODE = 'no_data_found';
  END IF;
  IF EXISTS (SELECT 1 FROM vendesk.standing_occurrences WHERE order_id = o.id AND scheduled_day = p_scheduled_day) THEN
    RETURN vendesk.standing_claim_of(o.id, p_scheduled_day, false);
  END IF;
  INSERT INTO vendesk.standing_occurrences (order_id, scheduled_day, due_day, state, note, decided_by, desktop_id)
    VALUES (o.id, p_scheduled_day, p_due_day, 'skipped', p_reason, session_user, p_desktop_id);
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'standing_skip', NULL, NULL,
    jsonb_build_object('order', o.id, 'occurrence', p_scheduled_day, 'due', p_due_day, 'reason', p_reason));
  RETURN vendesk.standing_claim_of(o.id, p_scheduled_day, true);
END $$;

-- ---------------------------------------------------------------- grants
GRANT SELECT ON vendesk.standing_orders, vendesk.standing_versions, vendesk.standing_approvals, vendesk.standing_approval_signers,
  vendesk.standing_occurrences TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.publish_standing_version(uuid, text, text, text, text, integer, text, text, integer, date, jsonb, text, text)
  TO vendesk_preparer;
GRANT EXECUTE ON FUNCTION vendesk.move_standing_order(uuid, text, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.approve_standing_order(uuid, integer, text, bigint, integer, date, text, text, text) TO vendesk_approver;
GRANT EXECUTE ON FUNCTION vendesk.claim_standing_occurrence(uuid, date, date, integer, text, text, bigint, jsonb, jsonb, boolean, text, text)
  TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.skip_standing_occurrence(uuid, date, date, text, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.standing_approval_refusal(vendesk.standing_approvals, text, bigint, date, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.standing_approval_of(uuid) TO vendesk_member;
`,
};
