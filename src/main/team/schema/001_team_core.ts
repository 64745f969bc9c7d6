// Longer than 400 lines on purpose: a migration is one SQL document, applied in one transaction,
// whose tables, constraints, triggers and functions refer to each other; split, it would no longer
// read as the one schema it creates.
import type { TeamMigration } from './teamMigration';

/**
 * The shared store of a team: jobs waiting for approval, the approvals themselves, item claims,
 * the audit trail, reconcile runs and resolutions, and team settings. Every table is owned by
 * `vendesk_owner` (a role nobody logs in as); app roles may only SELECT, and change anything only
 * through the SECURITY DEFINER functions below, which take the acting user from `session_user`
 * (the role PostgreSQL authenticated, which a client cannot choose) and write the audit row in
 * the same transaction. The rules a modified client must not be able to break are constraints
 * or triggers, so they hold even for the owner:
 * - the approver is not the preparer: `approvals` carries the job's preparer (checked by a
 *   foreign key against `jobs`) and a CHECK that the decider differs;
 * - an item is sent once: `item_claims` has one row per (claim scope, item), and a claim is only
 *   accepted for an approved job;
 * - the audit trail and the approvals are append-only: triggers refuse UPDATE, DELETE and TRUNCATE,
 *   and each audit row carries the SHA-256 of the previous row's hash and its own fields.
 */
export const teamCoreMigration: TeamMigration = {
  version: 1,
  name: 'team core: jobs, approvals, claims, audit trail, reconcile, settings',
  sql: String.raw`
CREATE TABLE vendesk.team_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  changed_by name NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO vendesk.team_settings (key, value, changed_by)
  VALUES ('single_purchase_approval_kobo', 'null'::jsonb, session_user);

CREATE TABLE vendesk.jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('bulk', 'single')),
  desktop_id text NOT NULL,
  desktop_name text NOT NULL,
  local_job_id text,
  file_name text,
  file_sha256 text CHECK (file_sha256 ~ '^[0-9a-f]{64}$'),
  claim_scope text NOT NULL,
  item_count integer NOT NULL CHECK (item_count > 0),
  total_kobo bigint NOT NULL CHECK (total_kobo >= 0),
  wallet_kobo bigint,
  preview jsonb NOT NULL,
  state text NOT NULL DEFAULT 'awaiting_approval'
    CHECK (state IN ('awaiting_approval', 'approved', 'rejected', 'running', 'finished', 'cancelled')),
  prepared_by name NOT NULL,
  prepared_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, prepared_by)
);
CREATE INDEX jobs_file_sha256 ON vendesk.jobs (file_sha256);
CREATE INDEX jobs_state ON vendesk.jobs (state, prepared_at);

CREATE TABLE vendesk.approvals (
  job_id uuid PRIMARY KEY,
  prepared_by name NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  decided_by name NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now(),
  note text NOT NULL DEFAULT '',
  desktop_id text NOT NULL,
  desktop_name text NOT NULL,
  FOREIGN KEY (job_id, prepared_by) REFERENCES vendesk.jobs (id, prepared_by),
  CONSTRAINT approver_is_not_preparer CHECK (decided_by <> prepared_by),
  CONSTRAINT rejection_has_note CHECK (decision = 'approved' OR length(btrim(note)) > 0)
);

CREATE TABLE vendesk.item_claims (
  claim_scope text NOT NULL,
  item_index integer NOT NULL CHECK (item_index >= 1),
  job_id uuid NOT NULL REFERENCES vendesk.jobs (id),
  desktop_id text NOT NULL,
  claimed_by name NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  request_ref text NOT NULL,
  amount_kobo bigint NOT NULL CHECK (amount_kobo >= 0),
  outcome text NOT NULL DEFAULT 'claimed' CHECK (outcome IN ('claimed', 'succeeded', 'failed', 'uncertain')),
  settled_at timestamptz,
  PRIMARY KEY (claim_scope, item_index)
);
CREATE INDEX item_claims_job ON vendesk.item_claims (job_id);

CREATE TABLE vendesk.reconcile_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  desktop_id text NOT NULL,
  run_by name NOT NULL,
  run_at timestamptz NOT NULL DEFAULT now(),
  period_from timestamptz NOT NULL,
  period_to timestamptz NOT NULL,
  summary jsonb NOT NULL
);

CREATE TABLE vendesk.reconcile_resolutions (
  run_id uuid NOT NULL REFERENCES vendesk.reconcile_runs (id),
  entry_key text NOT NULL,
  resolution text NOT NULL,
  note text NOT NULL DEFAULT '',
  amount_kobo bigint,
  resolved_by name NOT NULL,
  resolved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, entry_key)
);

CREATE TABLE vendesk.audit_trail (
  seq bigint PRIMARY KEY CHECK (seq > 0),
  at timestamptz NOT NULL,
  actor name NOT NULL,
  desktop_id text NOT NULL,
  desktop_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('join', 'prepare', 'approve', 'reject', 'cancel', 'send', 'settle',
    'reconcile', 'resolve', 'cap_change', 'profile_change')),
  job_id uuid,
  amount_kobo bigint,
  detail text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX audit_trail_at ON vendesk.audit_trail (at);

-- The hash of one audit row: SHA-256 (hex) of the previous row's hash, then each field as
-- "<bytes>:<text>" ("-" for none), so no two different rows share an input. vendesk's verifier
-- recomputes it in its own code (src/main/team/auditChain.ts), never by calling this function.
CREATE FUNCTION vendesk.audit_row_hash(prev_hash text, seq bigint, at_us bigint, actor text, desktop_id text,
  desktop_name text, action text, job_id uuid, amount_kobo bigint, detail text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || string_agg(
    CASE WHEN f IS NULL THEN '-' ELSE octet_length(f)::text || ':' || f END, '' ORDER BY n), 'UTF8')), 'hex')
  FROM unnest(ARRAY[seq::text, at_us::text, actor, desktop_id, desktop_name, action, job_id::text,
    amount_kobo::text, detail]) WITH ORDINALITY AS t(f, n)
$$;

CREATE FUNCTION vendesk.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_trail_append_only BEFORE UPDATE OR DELETE ON vendesk.audit_trail
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER audit_trail_no_truncate BEFORE TRUNCATE ON vendesk.audit_trail
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER approvals_append_only BEFORE UPDATE OR DELETE ON vendesk.approvals
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER approvals_no_truncate BEFORE TRUNCATE ON vendesk.approvals
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();

-- Appends one audit row (internal: called by the functions below, never granted to app roles).
CREATE FUNCTION vendesk.audit_append(p_desktop_id text, p_desktop_name text, p_action text, p_job_id uuid,
  p_amount_kobo bigint, p_detail jsonb) RETURNS vendesk.audit_trail
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  last_row vendesk.audit_trail;
  next_seq bigint;
  prev text;
  stamp timestamptz := date_trunc('milliseconds', clock_timestamp());
  detail_text text := coalesce(p_detail, '{}'::jsonb)::text;
  row_out vendesk.audit_trail;
BEGIN
  LOCK TABLE vendesk.audit_trail IN SHARE ROW EXCLUSIVE MODE;
  SELECT * INTO last_row FROM vendesk.audit_trail ORDER BY seq DESC LIMIT 1;
  next_seq := coalesce(last_row.seq, 0) + 1;
  prev := coalesce(last_row.hash, repeat('0', 64));
  INSERT INTO vendesk.audit_trail (seq, at, actor, desktop_id, desktop_name, action, job_id, amount_kobo, detail, prev_hash, hash)
  VALUES (next_seq, stamp, session_user, p_desktop_id, p_desktop_name, p_action, p_job_id, p_amount_kobo, detail_text, prev,
    vendesk.audit_row_hash(prev, next_seq, (extract(epoch FROM stamp) * 1000000)::bigint, session_user, p_desktop_id,
      p_desktop_name, p_action, p_job_id, p_amount_kobo, detail_text))
  RETURNING * INTO row_out;
  RETURN row_out;
END $$;

CREATE FUNCTION vendesk.require_role(p_role text, p_doing text) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  IF NOT pg_has_role(session_user, p_role, 'MEMBER') THEN
    RAISE EXCEPTION 'Only a member of % may %', p_role, p_doing USING ERRCODE = 'insufficient_privilege';
  END IF;
END $$;

-- A desktop records that it joined (or re-joined) the team.
CREATE FUNCTION vendesk.record_join(p_desktop_id text, p_desktop_name text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  RETURN (vendesk.audit_append(p_desktop_id, p_desktop_name, 'join', NULL, NULL, '{}'::jsonb)).seq;
END $$;

-- A desktop notes a change of its connection profile (which service it buys from).
CREATE FUNCTION vendesk.record_profile_change(p_desktop_id text, p_desktop_name text, p_detail jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  RETURN (vendesk.audit_append(p_desktop_id, p_desktop_name, 'profile_change', NULL, NULL, p_detail)).seq;
END $$;

CREATE FUNCTION vendesk.prepare_job(p_kind text, p_desktop_id text, p_desktop_name text, p_local_job_id text,
  p_file_name text, p_file_sha256 text, p_repeat boolean, p_item_count integer, p_total_kobo bigint,
  p_wallet_kobo bigint, p_preview jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  new_id uuid := gen_random_uuid();
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_preparer', 'prepare a job');
  INSERT INTO vendesk.jobs (id, kind, desktop_id, desktop_name, local_job_id, file_name, file_sha256, claim_scope,
    item_count, total_kobo, wallet_kobo, preview, prepared_by)
  VALUES (new_id, p_kind, p_desktop_id, p_desktop_name, p_local_job_id, p_file_name, p_file_sha256,
    CASE WHEN p_file_sha256 IS NULL THEN 'job:' || new_id
         WHEN p_repeat THEN p_file_sha256 || ':repeat:' || new_id
         ELSE p_file_sha256 END,
    p_item_count, p_total_kobo, p_wallet_kobo, p_preview, session_user)
  RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'prepare', job.id, p_total_kobo,
    jsonb_build_object('kind', p_kind, 'items', p_item_count, 'file', p_file_name, 'fileSha256', p_file_sha256,
      'repeat', p_repeat));
  RETURN job;
END $$;

CREATE FUNCTION vendesk.decide_job(p_job_id uuid, p_decision text, p_note text, p_desktop_id text,
  p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_approver', 'approve or reject a job');
  IF p_decision NOT IN ('approved', 'rejected') THEN
    RAISE EXCEPTION 'A decision is approved or rejected, not %', p_decision USING ERRCODE = 'check_violation';
  END IF;
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  IF job.prepared_by = session_user THEN
    RAISE EXCEPTION 'The approver cannot be the preparer: % prepared job %', session_user, p_job_id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF job.state <> 'awaiting_approval' THEN
    RAISE EXCEPTION 'Job % is % and no longer waits for a decision', p_job_id, job.state USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, note, desktop_id, desktop_name)
    VALUES (job.id, job.prepared_by, p_decision, session_user, coalesce(p_note, ''), p_desktop_id, p_desktop_name);
  UPDATE vendesk.jobs SET state = p_decision WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name,
    CASE p_decision WHEN 'approved' THEN 'approve' ELSE 'reject' END, job.id, job.total_kobo,
    jsonb_build_object('note', coalesce(p_note, ''), 'preparedBy', job.prepared_by));
  RETURN job;
END $$;

CREATE FUNCTION vendesk.cancel_job(p_job_id uuid, p_desktop_id text, p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR UPDATE;
  IF NOT FOUND OR job.prepared_by <> session_user THEN
    RAISE EXCEPTION 'Only the preparer of job % may cancel it', p_job_id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF job.state NOT IN ('awaiting_approval', 'approved') THEN
    RAISE EXCEPTION 'Job % is % and cannot be cancelled', p_job_id, job.state USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  UPDATE vendesk.jobs SET state = 'cancelled' WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'cancel', job.id, job.total_kobo, '{}'::jsonb);
  RETURN job;
END $$;

-- Claims one item of an approved job before it is sent. Returns the claim: this desktop's new
-- claim, or the existing one (another job's, or this job's from before a crash) — the caller sends
-- only when the returned claim is its own new one (its request_ref).
CREATE FUNCTION vendesk.claim_item(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_request_ref text,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'send an item');
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  IF job.state NOT IN ('approved', 'running') THEN
    RAISE EXCEPTION 'Job % is % — nothing is sent before it is approved', p_job_id, job.state
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  -- An item is named by its spreadsheet row (1 to 1,048,576, Excel's last), so the same row of the
  -- same spreadsheet is the same claim whichever desktop prepared the job.
  IF p_item_index < 1 OR p_item_index > 1048576 THEN
    RAISE EXCEPTION 'A spreadsheet has no row %', p_item_index USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO vendesk.item_claims (claim_scope, item_index, job_id, desktop_id, claimed_by, request_ref, amount_kobo)
    VALUES (job.claim_scope, p_item_index, job.id, p_desktop_id, session_user, p_request_ref, p_amount_kobo)
    ON CONFLICT (claim_scope, item_index) DO NOTHING
    RETURNING * INTO claim;
  IF FOUND THEN
    IF job.state = 'approved' THEN
      UPDATE vendesk.jobs SET state = 'running' WHERE id = job.id;
    END IF;
    PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'send', job.id, p_amount_kobo,
      jsonb_build_object('item', p_item_index, 'requestRef', p_request_ref));
    RETURN claim;
  END IF;
  SELECT * INTO claim FROM vendesk.item_claims WHERE claim_scope = job.claim_scope AND item_index = p_item_index;
  RETURN claim;
END $$;

CREATE FUNCTION vendesk.settle_item(p_job_id uuid, p_item_index integer, p_outcome text, p_desktop_id text,
  p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'settle an item');
  IF p_outcome NOT IN ('succeeded', 'failed', 'uncertain') THEN
    RAISE EXCEPTION 'An outcome is succeeded, failed or uncertain, not %', p_outcome USING ERRCODE = 'check_violation';
  END IF;
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id;
  SELECT * INTO claim FROM vendesk.item_claims
    WHERE claim_scope = job.claim_scope AND item_index = p_item_index AND job_id = p_job_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Job % has no claim on item %', p_job_id, p_item_index USING ERRCODE = 'no_data_found';
  END IF;
  IF claim.outcome IN ('succeeded', 'failed') THEN
    IF claim.outcome <> p_outcome THEN
      RAISE EXCEPTION 'Item % of job % is already settled as %', p_item_index, p_job_id, claim.outcome
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN claim;
  END IF;
  UPDATE vendesk.item_claims SET outcome = p_outcome, settled_at = now()
    WHERE claim_scope = claim.claim_scope AND item_index = p_item_index RETURNING * INTO claim;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'settle', p_job_id,
    CASE WHEN p_outcome = 'succeeded' THEN claim.amount_kobo ELSE 0 END,
    jsonb_build_object('item', p_item_index, 'outcome', p_outcome, 'requestRef', claim.request_ref));
  RETURN claim;
END $$;

CREATE FUNCTION vendesk.finish_job(p_job_id uuid) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'finish a job');
  UPDATE vendesk.jobs SET state = 'finished' WHERE id = p_job_id AND state IN ('approved', 'running') RETURNING * INTO job;
  IF NOT FOUND THEN
    SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id;
  END IF;
  RETURN job;
END $$;

CREATE FUNCTION vendesk.set_team_setting(p_key text, p_value jsonb, p_desktop_id text, p_desktop_name text)
RETURNS vendesk.team_settings
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  before jsonb;
  setting vendesk.team_settings;
BEGIN
  PERFORM vendesk.require_role('vendesk_admin', 'change team settings');
  IF p_key <> 'single_purchase_approval_kobo' THEN
    RAISE EXCEPTION 'There is no team setting %', p_key USING ERRCODE = 'check_violation';
  END IF;
  IF jsonb_typeof(p_value) NOT IN ('null', 'number') OR (jsonb_typeof(p_value) = 'number' AND (p_value::numeric < 0 OR p_value::numeric <> trunc(p_value::numeric))) THEN
    RAISE EXCEPTION 'The approval threshold is a whole number of kobo, 0 or more, or null for none' USING ERRCODE = 'check_violation';
  END IF;
  SELECT value INTO before FROM vendesk.team_settings WHERE key = p_key FOR UPDATE;
  UPDATE vendesk.team_settings SET value = p_value, changed_by = session_user, changed_at = now()
    WHERE key = p_key RETURNING * INTO setting;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'cap_change', NULL,
    CASE WHEN jsonb_typeof(p_value) = 'number' THEN p_value::text::bigint END,
    jsonb_build_object('setting', p_key, 'from', before, 'to', p_value));
  RETURN setting;
END $$;

CREATE FUNCTION vendesk.record_reconcile_run(p_desktop_id text, p_desktop_name text, p_from timestamptz,
  p_to timestamptz, p_summary jsonb) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  run_id uuid;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'record a reconcile run');
  INSERT INTO vendesk.reconcile_runs (desktop_id, run_by, period_from, period_to, summary)
    VALUES (p_desktop_id, session_user, p_from, p_to, p_summary) RETURNING id INTO run_id;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'reconcile', NULL, NULL,
    jsonb_build_object('runId', run_id, 'from', p_from, 'to', p_to));
  RETURN run_id;
END $$;

CREATE FUNCTION vendesk.resolve_reconcile_entry(p_run_id uuid, p_entry_key text, p_resolution text, p_note text,
  p_amount_kobo bigint, p_desktop_id text, p_desktop_name text) RETURNS vendesk.reconcile_resolutions
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  resolved vendesk.reconcile_resolutions;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'resolve a reconcile entry');
  INSERT INTO vendesk.reconcile_resolutions (run_id, entry_key, resolution, note, amount_kobo, resolved_by)
    VALUES (p_run_id, p_entry_key, p_resolution, coalesce(p_note, ''), p_amount_kobo, session_user)
    ON CONFLICT (run_id, entry_key) DO UPDATE SET resolution = excluded.resolution, note = excluded.note,
      amount_kobo = excluded.amount_kobo, resolved_by = excluded.resolved_by, resolved_at = now()
    RETURNING * INTO resolved;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'resolve', NULL, p_amount_kobo,
    jsonb_build_object('runId', p_run_id, 'entry', p_entry_key, 'resolution', p_resolution, 'note', coalesce(p_note, '')));
  RETURN resolved;
END $$;

-- Grants: app roles read everything and change things only through the functions.
REVOKE ALL ON SCHEMA vendesk FROM PUBLIC;
GRANT USAGE ON SCHEMA vendesk TO vendesk_member;
REVOKE ALL ON ALL TABLES IN SCHEMA vendesk FROM PUBLIC;
GRANT SELECT ON ALL TABLES IN SCHEMA vendesk TO vendesk_member;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA vendesk FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.audit_row_hash(text, bigint, bigint, text, text, text, text, uuid, bigint, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.record_join(text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.record_profile_change(text, text, jsonb) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.prepare_job(text, text, text, text, text, text, boolean, integer, bigint, bigint, jsonb) TO vendesk_preparer;
GRANT EXECUTE ON FUNCTION vendesk.decide_job(uuid, text, text, text, text) TO vendesk_approver;
GRANT EXECUTE ON FUNCTION vendesk.cancel_job(uuid, text, text) TO vendesk_preparer;
GRANT EXECUTE ON FUNCTION vendesk.claim_item(uuid, integer, bigint, text, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.settle_item(uuid, integer, text, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.finish_job(uuid) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.set_team_setting(text, jsonb, text, text) TO vendesk_admin;
GRANT EXECUTE ON FUNCTION vendesk.record_reconcile_run(text, text, timestamptz, timestamptz, jsonb) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.resolve_reconcile_entry(uuid, text, text, text, bigint, text, text) TO vendesk_member;
`,
};
