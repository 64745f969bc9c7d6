// Longer than 400 lines on purpose: a migration is one SQL document, applied in one transaction,
// whose functions replace each other's rules together; split, it would no longer read as the one
// change it makes (issue 23: an approval binds exactly what is bought).
import type { TeamMigration } from './teamMigration';

/**
 * Issue 23, the database core: an approval binds exactly what is bought.
 * - Every job stores its items (`job_items`), single purchases too (`prepare_single_job`), and
 *   `prepare_job` is no longer callable by members. The preview the approver is shown is derived
 *   from the stored items; one the preparer sends must match them row by row (row, phone, amount)
 *   or the job is refused.
 * - `jobs.items_digest`: SHA-256 over a canonical text of the items (row, phone, meter or smartcard,
 *   network, product code or plan, operator, meter type, amount), computed here
 *   (`items_digest`), written into the `prepare` and `approve` audit rows and each approval; a
 *   desktop checks it against the items it is about to send (src/main/team/itemsDigest.ts).
 * - `claim_item` accepts only a row of the job's items at its approved amount, and no new claim
 *   once the approval is older than the team's `approval_valid_minutes`.
 * - Approval policy: above `dual_approval_above_kobo` a job needs two approvals by two different
 *   approvers (neither the preparer); `approvals` may hold one row per approver of a job.
 * - Finishing a job (`finish_job(job, desktop id, name)`, audited as `finish`) or cancelling it is
 *   for the desktop running it (a member holding a claim on it), its preparer, or an admin.
 * - Desktops are registered (`desktops`): `record_join` binds a desktop id to the role that first
 *   joined with it, and `audit_append` refuses a desktop id not registered to `session_user` and
 *   writes the registered name, whatever name the caller passes.
 * - Functions the schema's owner creates are no longer executable by PUBLIC by default; internal
 *   helpers are not executable by members.
 */
export const approvalBindsItemsMigration: TeamMigration = {
  version: 4,
  name: 'an approval binds its items: digest, row-by-row preview, claims of approved rows only, policy, registered desktops',
  sql: String.raw`
ALTER DEFAULT PRIVILEGES FOR ROLE vendesk_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- ---------------------------------------------------------------- registered desktops
CREATE TABLE vendesk.desktops (
  desktop_id text PRIMARY KEY CHECK (length(desktop_id) BETWEEN 1 AND 200),
  desktop_name text NOT NULL CHECK (length(desktop_name) BETWEEN 1 AND 200),
  role name NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
);
-- Desktops that joined before this step: each id belongs to the role that first joined with it.
INSERT INTO vendesk.desktops (desktop_id, desktop_name, role, registered_at)
  SELECT DISTINCT ON (desktop_id) desktop_id, desktop_name, actor, at
  FROM vendesk.audit_trail WHERE action = 'join' AND length(desktop_id) BETWEEN 1 AND 200 AND length(desktop_name) BETWEEN 1 AND 200
  ORDER BY desktop_id, seq;

-- The registered name of a desktop of session_user (internal); refuses any other desktop id.
CREATE FUNCTION vendesk.desktop_name_of(p_desktop_id text) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  desk vendesk.desktops;
BEGIN
  SELECT * INTO desk FROM vendesk.desktops WHERE desktop_id = p_desktop_id;
  IF NOT FOUND OR desk.role <> session_user THEN
    RAISE EXCEPTION 'This desktop (%) is not registered to %: join the team again on it', p_desktop_id, session_user
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN desk.desktop_name;
END $$;

CREATE OR REPLACE FUNCTION vendesk.audit_append(p_desktop_id text, p_desktop_name text, p_action text, p_job_id uuid,
  p_amount_kobo bigint, p_detail jsonb) RETURNS vendesk.audit_trail
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  last_row vendesk.audit_trail;
  next_seq bigint;
  prev text;
  stamp timestamptz := date_trunc('milliseconds', clock_timestamp());
  detail_text text := coalesce(p_detail, '{}'::jsonb)::text;
  desk_name text := vendesk.desktop_name_of(p_desktop_id);
  row_out vendesk.audit_trail;
BEGIN
  LOCK TABLE vendesk.audit_trail IN SHARE ROW EXCLUSIVE MODE;
  SELECT * INTO last_row FROM vendesk.audit_trail ORDER BY seq DESC LIMIT 1;
  next_seq := coalesce(last_row.seq, 0) + 1;
  prev := coalesce(last_row.hash, repeat('0', 64));
  INSERT INTO vendesk.audit_trail (seq, at, actor, desktop_id, desktop_name, action, job_id, amount_kobo, detail, prev_hash, hash)
  VALUES (next_seq, stamp, session_user, p_desktop_id, desk_name, p_action, p_job_id, p_amount_kobo, detail_text, prev,
    vendesk.audit_row_hash(prev, next_seq, (extract(epoch FROM stamp) * 1000000)::bigint, session_user, p_desktop_id,
      desk_name, p_action, p_job_id, p_amount_kobo, detail_text))
  RETURNING * INTO row_out;
  RETURN row_out;
END $$;

-- A desktop joins (or re-joins, perhaps under a new name): its id is bound to the role that first
-- joined with it; another role using that id is refused.
CREATE OR REPLACE FUNCTION vendesk.record_join(p_desktop_id text, p_desktop_name text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  desk vendesk.desktops;
BEGIN
  IF p_desktop_id IS NULL OR length(p_desktop_id) NOT BETWEEN 1 AND 200 OR p_desktop_name IS NULL OR length(btrim(p_desktop_name)) NOT BETWEEN 1 AND 200 THEN
    RAISE EXCEPTION 'A desktop needs an id and a name (1 to 200 characters)' USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO vendesk.desktops (desktop_id, desktop_name, role) VALUES (p_desktop_id, btrim(p_desktop_name), session_user)
    ON CONFLICT (desktop_id) DO NOTHING;
  SELECT * INTO desk FROM vendesk.desktops WHERE desktop_id = p_desktop_id FOR UPDATE;
  IF desk.role <> session_user THEN
    RAISE EXCEPTION 'Desktop % is registered to another team member: % cannot join with it', p_desktop_id, session_user
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'desktop_of_another_member';
  END IF;
  UPDATE vendesk.desktops SET desktop_name = btrim(p_desktop_name) WHERE desktop_id = p_desktop_id;
  RETURN (vendesk.audit_append(p_desktop_id, p_desktop_name, 'join', NULL, NULL, '{}'::jsonb)).seq;
END $$;

-- ---------------------------------------------------------------- audit actions
ALTER TABLE vendesk.audit_trail DROP CONSTRAINT audit_trail_action_check;
ALTER TABLE vendesk.audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('join', 'prepare', 'approve', 'reject',
  'cancel', 'send', 'settle', 'reconcile', 'resolve', 'cap_change', 'profile_change', 'finish'));

-- ---------------------------------------------------------------- the items' digest
-- One item as canonical text: each field as "<bytes>:<text>", "-" for none or empty, then ";".
-- src/main/team/itemsDigest.ts computes the same in vendesk's code.
CREATE FUNCTION vendesk.item_digest_text(p_item_index integer, p_amount_kobo bigint, p_item jsonb) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT string_agg(CASE WHEN coalesce(f, '') = '' THEN '-' ELSE octet_length(f)::text || ':' || f END, '' ORDER BY n) || ';'
  FROM unnest(ARRAY[p_item_index::text, p_item->>'phone', p_item->>'account', p_item->>'network', p_item->>'productCode',
    p_item->>'operator', p_item->>'vendType', p_amount_kobo::text]) WITH ORDINALITY AS t(f, n)
$$;

-- The digest of a list of items (a JSON array, in order): SHA-256 (hex) of their canonical texts.
CREATE FUNCTION vendesk.items_digest(p_items jsonb) RETURNS text
LANGUAGE sql IMMUTABLE SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
  SELECT encode(sha256(convert_to(coalesce(string_agg(
    vendesk.item_digest_text((e.v->>'rowNumber')::integer, (e.v->>'amountKobo')::bigint, e.v), '' ORDER BY e.n), ''), 'UTF8')), 'hex')
  FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(v, n)
$$;

-- The digest of a stored job's items.
CREATE FUNCTION vendesk.job_items_digest(p_job_id uuid) RETURNS text
LANGUAGE sql STABLE SET search_path = vendesk, pg_temp AS $$
  SELECT encode(sha256(convert_to(coalesce(string_agg(
    vendesk.item_digest_text(i.item_index, i.amount_kobo, i.item), '' ORDER BY i.seq), ''), 'UTF8')), 'hex')
  FROM vendesk.job_items i WHERE i.job_id = p_job_id
$$;

ALTER TABLE vendesk.jobs ADD COLUMN items_digest text CHECK (items_digest ~ '^[0-9a-f]{64}$');
UPDATE vendesk.jobs j SET items_digest = vendesk.job_items_digest(j.id)
  WHERE EXISTS (SELECT 1 FROM vendesk.job_items i WHERE i.job_id = j.id);

-- ---------------------------------------------------------------- preparing a job with its items
-- Internal: the one way a job is written from now on. The items must be exactly the job's count
-- and total; the preview the preparer sends must show the stored items (row, phone, amount, in
-- order); what is stored as the preview is derived from the items; the digest is computed here.
CREATE FUNCTION vendesk.prepare_job_with_items(p_kind text, p_desktop_id text, p_desktop_name text, p_local_job_id text,
  p_file_name text, p_file_sha256 text, p_repeat boolean, p_item_count integer, p_total_kobo bigint,
  p_wallet_kobo bigint, p_preview jsonb, p_run_spec jsonb, p_items jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  new_id uuid := gen_random_uuid();
  job vendesk.jobs;
  n integer;
  kobo bigint;
  shown integer;
  wrong record;
  derived jsonb;
  digest text;
BEGIN
  PERFORM vendesk.require_role('vendesk_preparer', 'prepare a job');
  IF jsonb_typeof(p_items) IS DISTINCT FROM 'array' OR jsonb_typeof(p_preview) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'A job needs its items (an array) and its preview (an object)' USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_items) AS e(v)
             WHERE jsonb_typeof(e.v) <> 'object' OR jsonb_typeof(e.v->'rowNumber') IS DISTINCT FROM 'number'
                OR jsonb_typeof(e.v->'amountKobo') IS DISTINCT FROM 'number') THEN
    RAISE EXCEPTION 'Each item needs its spreadsheet row (rowNumber) and amount in kobo (amountKobo)' USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO vendesk.jobs (id, kind, desktop_id, desktop_name, local_job_id, file_name, file_sha256, claim_scope,
    item_count, total_kobo, wallet_kobo, preview, prepared_by, run_spec)
  VALUES (new_id, p_kind, p_desktop_id, p_desktop_name, p_local_job_id, p_file_name, p_file_sha256,
    CASE WHEN p_file_sha256 IS NULL THEN 'job:' || new_id
         WHEN p_repeat THEN p_file_sha256 || ':repeat:' || new_id
         ELSE p_file_sha256 END,
    p_item_count, p_total_kobo, p_wallet_kobo, '{}'::jsonb, session_user, p_run_spec)
  RETURNING * INTO job;
  INSERT INTO vendesk.job_items (job_id, seq, item_index, amount_kobo, item)
    SELECT job.id, e.n::integer, (e.v->>'rowNumber')::integer, (e.v->>'amountKobo')::bigint, e.v
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(v, n);
  SELECT count(*), coalesce(sum(amount_kobo), 0) INTO n, kobo FROM vendesk.job_items WHERE job_id = job.id;
  IF n <> p_item_count OR kobo <> p_total_kobo THEN
    RAISE EXCEPTION 'The items (% for % kobo) are not the job''s count and total (% for % kobo)', n, kobo, p_item_count, p_total_kobo
      USING ERRCODE = 'check_violation';
  END IF;
  -- The preview's rows, position by position, against the stored items.
  shown := CASE WHEN jsonb_typeof(p_preview->'rows') = 'array' THEN jsonb_array_length(p_preview->'rows') ELSE 0 END;
  IF shown > n THEN
    RAISE EXCEPTION 'The preview shows % rows but the job has % items: what the approver sees must be what is bought', shown, n
      USING ERRCODE = 'check_violation';
  END IF;
  SELECT r.n AS pos, r.v AS shown_row, i.item_index, i.item->>'phone' AS phone, i.amount_kobo INTO wrong
    FROM jsonb_array_elements(CASE WHEN shown > 0 THEN p_preview->'rows' ELSE '[]'::jsonb END) WITH ORDINALITY AS r(v, n)
    JOIN vendesk.job_items i ON i.job_id = job.id AND i.seq = r.n
    WHERE (r.v->>'row') IS DISTINCT FROM i.item_index::text
       OR coalesce(r.v->>'phone', '') IS DISTINCT FROM coalesce(i.item->>'phone', '')
       OR (r.v->>'amountKobo') IS DISTINCT FROM i.amount_kobo::text
    ORDER BY r.n LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Preview row % (row %, phone %, % kobo) is not the item the job buys there (row %, phone %, % kobo): what the approver sees must be what is bought',
      wrong.pos, wrong.shown_row->>'row', wrong.shown_row->>'phone', wrong.shown_row->>'amountKobo', wrong.item_index, wrong.phone, wrong.amount_kobo
      USING ERRCODE = 'check_violation';
  END IF;
  SELECT jsonb_build_object(
      'kind', coalesce(p_preview->>'kind', p_kind),
      'rows', coalesce(jsonb_agg(jsonb_build_object('row', i.item_index, 'phone', coalesce(i.item->>'phone', ''),
        'network', nullif(i.item->>'network', ''),
        'product', coalesce(nullif(i.item->>'productCode', ''), nullif(i.item->>'description', ''), p_preview->>'kind', p_kind),
        'amountKobo', i.amount_kobo) ORDER BY i.seq), '[]'::jsonb),
      'moreRows', greatest(0, n - 500))
    INTO derived
    FROM (SELECT * FROM vendesk.job_items WHERE job_id = job.id ORDER BY seq LIMIT 500) i;
  IF p_preview ? 'purchase' THEN
    derived := derived || jsonb_build_object('purchase', p_preview->'purchase');
  END IF;
  digest := vendesk.job_items_digest(job.id);
  UPDATE vendesk.jobs SET preview = derived, items_digest = digest, desktop_name = vendesk.desktop_name_of(p_desktop_id)
    WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'prepare', job.id, p_total_kobo,
    jsonb_build_object('kind', p_kind, 'items', p_item_count, 'file', p_file_name, 'fileSha256', p_file_sha256,
      'repeat', p_repeat, 'itemsDigest', digest));
  RETURN job;
END $$;

CREATE OR REPLACE FUNCTION vendesk.prepare_bulk_job(p_desktop_id text, p_desktop_name text, p_local_job_id text,
  p_file_name text, p_file_sha256 text, p_repeat boolean, p_item_count integer, p_total_kobo bigint,
  p_wallet_kobo bigint, p_preview jsonb, p_run_spec jsonb, p_items jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  IF jsonb_typeof(p_items) IS DISTINCT FROM 'array' OR jsonb_typeof(p_run_spec) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'A bulk job needs its items (an array) and its run spec (an object)' USING ERRCODE = 'check_violation';
  END IF;
  RETURN vendesk.prepare_job_with_items('bulk', p_desktop_id, p_desktop_name, p_local_job_id, p_file_name, p_file_sha256,
    p_repeat, p_item_count, p_total_kobo, p_wallet_kobo, p_preview, p_run_spec, p_items);
END $$;

-- A single purchase: one item (row 1), whose recipient and amount must be the purchase the
-- approver is shown (preview.purchase).
CREATE FUNCTION vendesk.prepare_single_job(p_desktop_id text, p_desktop_name text, p_file_name text, p_wallet_kobo bigint,
  p_preview jsonb, p_item jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  purchase jsonb := p_preview->'purchase';
BEGIN
  IF jsonb_typeof(p_item) IS DISTINCT FROM 'object' OR jsonb_typeof(purchase) IS DISTINCT FROM 'object'
     OR jsonb_typeof(p_item->'amountKobo') IS DISTINCT FROM 'number' THEN
    RAISE EXCEPTION 'A single purchase needs its item and the purchase the approver is shown' USING ERRCODE = 'check_violation';
  END IF;
  IF (p_item->>'rowNumber') IS DISTINCT FROM '1' THEN
    RAISE EXCEPTION 'A single purchase is one item, row 1' USING ERRCODE = 'check_violation';
  END IF;
  IF (purchase->>'account') IS DISTINCT FROM (p_item->>'account') OR (purchase->>'phone') IS DISTINCT FROM (p_item->>'phone')
     OR (purchase->>'amountKobo') IS DISTINCT FROM (p_item->>'amountKobo') THEN
    RAISE EXCEPTION 'The purchase shown (% for %, % kobo) is not the one bought (% for %, % kobo): what the approver sees must be what is bought',
      purchase->>'account', purchase->>'phone', purchase->>'amountKobo', p_item->>'account', p_item->>'phone', p_item->>'amountKobo'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN vendesk.prepare_job_with_items('single', p_desktop_id, p_desktop_name, NULL, p_file_name, NULL, false, 1,
    (p_item->>'amountKobo')::bigint, p_wallet_kobo, p_preview, NULL, jsonb_build_array(p_item));
END $$;

-- ---------------------------------------------------------------- approval policy
INSERT INTO vendesk.team_settings (key, value, changed_by) VALUES
  ('dual_approval_above_kobo', 'null'::jsonb, session_user),
  ('approval_valid_minutes', 'null'::jsonb, session_user)
  ON CONFLICT (key) DO NOTHING;

CREATE OR REPLACE FUNCTION vendesk.set_team_setting(p_key text, p_value jsonb, p_desktop_id text, p_desktop_name text)
RETURNS vendesk.team_settings
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  before jsonb;
  setting vendesk.team_settings;
BEGIN
  PERFORM vendesk.require_role('vendesk_admin', 'change team settings');
  IF p_key NOT IN ('single_purchase_approval_kobo', 'dual_approval_above_kobo', 'approval_valid_minutes') THEN
    RAISE EXCEPTION 'There is no team setting %', p_key USING ERRCODE = 'check_violation';
  END IF;
  IF jsonb_typeof(p_value) NOT IN ('null', 'number') OR (jsonb_typeof(p_value) = 'number' AND (p_value::numeric < 0 OR p_value::numeric <> trunc(p_value::numeric))) THEN
    RAISE EXCEPTION 'The setting % is a whole number, 0 or more, or null for none', p_key USING ERRCODE = 'check_violation';
  END IF;
  IF p_key = 'approval_valid_minutes' AND jsonb_typeof(p_value) = 'number' AND p_value::numeric NOT BETWEEN 1 AND 5256000 THEN
    RAISE EXCEPTION 'An approval is valid for 1 minute to 10 years, or without limit (null)' USING ERRCODE = 'check_violation';
  END IF;
  SELECT value INTO before FROM vendesk.team_settings WHERE key = p_key FOR UPDATE;
  UPDATE vendesk.team_settings SET value = p_value, changed_by = session_user, changed_at = now()
    WHERE key = p_key RETURNING * INTO setting;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'cap_change', NULL,
    CASE WHEN jsonb_typeof(p_value) = 'number' AND p_key LIKE '%\_kobo' THEN p_value::text::bigint END,
    jsonb_build_object('setting', p_key, 'from', before, 'to', p_value));
  RETURN setting;
END $$;

-- One approval row per approver of a job (two are needed above the dual-approval amount); still
-- append-only, and never by the preparer.
ALTER TABLE vendesk.approvals DROP CONSTRAINT approvals_pkey;
ALTER TABLE vendesk.approvals ADD PRIMARY KEY (job_id, decided_by);
ALTER TABLE vendesk.approvals ADD COLUMN items_digest text;

-- How many approvals a job needs now: two above the team's dual-approval amount, else one.
CREATE FUNCTION vendesk.approvals_needed(p_total_kobo bigint) RETURNS integer
LANGUAGE sql STABLE SET search_path = vendesk, pg_temp AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'number' AND p_total_kobo > value::text::numeric THEN 2 ELSE 1 END
  FROM vendesk.team_settings WHERE key = 'dual_approval_above_kobo'
$$;

CREATE OR REPLACE FUNCTION vendesk.decide_job(p_job_id uuid, p_decision text, p_note text, p_desktop_id text,
  p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  needed integer;
  given integer;
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
  IF EXISTS (SELECT 1 FROM vendesk.approvals WHERE job_id = job.id AND decided_by = session_user) THEN
    RAISE EXCEPTION 'You approved job % already: it needs another approver, neither you nor its preparer', p_job_id
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, note, desktop_id, desktop_name, items_digest)
    VALUES (job.id, job.prepared_by, p_decision, session_user, coalesce(p_note, ''), p_desktop_id, vendesk.desktop_name_of(p_desktop_id),
      job.items_digest);
  needed := vendesk.approvals_needed(job.total_kobo);
  SELECT count(*) INTO given FROM vendesk.approvals WHERE job_id = job.id AND decision = 'approved';
  IF p_decision = 'rejected' OR given >= needed THEN
    UPDATE vendesk.jobs SET state = p_decision WHERE id = job.id RETURNING * INTO job;
  END IF;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name,
    CASE p_decision WHEN 'approved' THEN 'approve' ELSE 'reject' END, job.id, job.total_kobo,
    jsonb_build_object('note', coalesce(p_note, ''), 'preparedBy', job.prepared_by, 'itemsDigest', job.items_digest,
      'items', job.item_count, 'approvals', given, 'approvalsNeeded', needed));
  RETURN job;
END $$;

-- ---------------------------------------------------------------- claims of approved rows only
CREATE OR REPLACE FUNCTION vendesk.claim_item(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_request_ref text,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
  approved_row vendesk.job_items;
  valid jsonb;
  approved_at timestamptz;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'send an item');
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  SELECT * INTO approved_row FROM vendesk.job_items WHERE job_id = p_job_id AND item_index = p_item_index;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Row % is not one of the rows of job %: only an approved row is sent', p_item_index, p_job_id
      USING ERRCODE = 'check_violation';
  END IF;
  IF approved_row.amount_kobo <> p_amount_kobo THEN
    RAISE EXCEPTION 'Row % of job % was approved at % kobo, not %: only the approved amount is sent', p_item_index, p_job_id,
      approved_row.amount_kobo, p_amount_kobo USING ERRCODE = 'check_violation';
  END IF;
  -- A new claim only while the approval is valid (the team's approval_valid_minutes).
  IF job.state IN ('approved', 'running')
     AND NOT EXISTS (SELECT 1 FROM vendesk.item_claims WHERE claim_scope = job.claim_scope AND item_index = p_item_index) THEN
    SELECT value INTO valid FROM vendesk.team_settings WHERE key = 'approval_valid_minutes';
    IF jsonb_typeof(valid) = 'number' THEN
      SELECT max(decided_at) INTO approved_at FROM vendesk.approvals WHERE job_id = p_job_id AND decision = 'approved';
      IF approved_at + make_interval(mins => valid::text::integer) < now() THEN
        RAISE EXCEPTION 'The approval of job % expired at % (approvals are valid for % minutes): nothing more is sent under it; prepare it again',
          p_job_id, to_char((approved_at + make_interval(mins => valid::text::integer)) AT TIME ZONE 'Africa/Lagos', 'YYYY-MM-DD HH24:MI'),
          valid::text USING ERRCODE = 'object_not_in_prerequisite_state';
      END IF;
    END IF;
  END IF;
  -- 003's rules: mark an approved job running first (the row lock queues a second first claim),
  -- answer a finished job from its claims, then claim through 001's function.
  UPDATE vendesk.jobs SET state = 'running' WHERE id = p_job_id AND state = 'approved';
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR SHARE;
  IF FOUND AND job.state = 'finished' THEN
    SELECT * INTO claim FROM vendesk.item_claims WHERE claim_scope = job.claim_scope AND item_index = p_item_index;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Job % is finished: row % was not sent then and is not sent now', p_job_id, p_item_index
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN claim;
  END IF;
  RETURN vendesk.claim_item_of_open_job(p_job_id, p_item_index, p_amount_kobo, p_request_ref, p_desktop_id, p_desktop_name);
END $$;

-- ---------------------------------------------------------------- who finishes or cancels
-- The desktop running the job (a member holding a claim on it), its preparer, or an admin.
CREATE FUNCTION vendesk.may_end_job(p_job vendesk.jobs) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
  SELECT p_job.prepared_by = session_user
    OR pg_has_role(session_user, 'vendesk_admin', 'MEMBER')
    OR EXISTS (SELECT 1 FROM vendesk.item_claims c WHERE c.job_id = p_job.id AND c.claimed_by = session_user)
$$;

DROP FUNCTION vendesk.finish_job(uuid);
CREATE FUNCTION vendesk.finish_job(p_job_id uuid, p_desktop_id text, p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'finish a job');
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  IF job.state NOT IN ('approved', 'running') THEN
    RETURN job;
  END IF;
  IF NOT vendesk.may_end_job(job) THEN
    RAISE EXCEPTION 'Only the desktop running job %, its preparer (%) or an admin may finish it', p_job_id, job.prepared_by
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  UPDATE vendesk.jobs SET state = 'finished' WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'finish', job.id,
    (SELECT coalesce(sum(amount_kobo), 0)::bigint FROM vendesk.item_claims WHERE job_id = job.id AND outcome = 'succeeded'),
    jsonb_build_object('claims', (SELECT count(*) FROM vendesk.item_claims WHERE job_id = job.id),
      'succeeded', (SELECT count(*) FROM vendesk.item_claims WHERE job_id = job.id AND outcome = 'succeeded')));
  RETURN job;
END $$;

CREATE OR REPLACE FUNCTION vendesk.cancel_job(p_job_id uuid, p_desktop_id text, p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'cancel a job');
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  IF NOT vendesk.may_end_job(job) THEN
    RAISE EXCEPTION 'Only the preparer of job % (%) or an admin may cancel it', p_job_id, job.prepared_by USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF job.state NOT IN ('awaiting_approval', 'approved') THEN
    RAISE EXCEPTION 'Job % is % and cannot be cancelled', p_job_id, job.state USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  UPDATE vendesk.jobs SET state = 'cancelled' WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'cancel', job.id, job.total_kobo, '{}'::jsonb);
  RETURN job;
END $$;

-- ---------------------------------------------------------------- grants
-- Members call only the functions below; internal helpers (audit_append, require_role,
-- claim_item_of_open_job, prepare_job, prepare_job_with_items, may_end_job, refuse_change, the
-- digest helpers) run only inside them, as the owner.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA vendesk FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.prepare_job(text, text, text, text, text, text, boolean, integer, bigint, bigint, jsonb) FROM vendesk_preparer;
REVOKE EXECUTE ON FUNCTION vendesk.cancel_job(uuid, text, text) FROM vendesk_preparer;
GRANT EXECUTE ON FUNCTION vendesk.cancel_job(uuid, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.finish_job(uuid, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.prepare_single_job(text, text, text, bigint, jsonb, jsonb) TO vendesk_preparer;
GRANT EXECUTE ON FUNCTION vendesk.items_digest(jsonb) TO vendesk_member;
GRANT SELECT ON vendesk.desktops TO vendesk_member;
`,
};
