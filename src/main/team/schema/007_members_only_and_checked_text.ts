// Longer than 400 lines on purpose: a migration is one SQL document, applied in one transaction,
// whose functions replace each other's rules together; split, it would no longer read as the one
// change it makes (issue 37: what a member with psql could still do).
import type { TeamMigration } from './teamMigration';

/**
 * Characters that look alike in a desktop's name, each with the letter it is compared as (after
 * the name is NFKC-normalised and lower-cased): quotes and dashes, the digits and bars read as
 * letters, and the Cyrillic and Greek capitals and small letters drawn like Latin ones (capitals
 * too, since `lower` leaves them on a server whose character type is C).
 */
const LOOKALIKES: [string, string][] = [
  ...[...'’‘ʼʹ′´`'].map((c): [string, string] => [c, "'"]),
  ...[...'“”″'].map((c): [string, string] => [c, '"']),
  ...[...'‐‑‒–—―−'].map((c): [string, string] => [c, '-']),
  ...[...'i1|ıІіӀΙι'].map((c): [string, string] => [c, 'l']),
  ...[...'0ОоΟο'].map((c): [string, string] => [c, 'o']),
  ...[...'АаΑα'].map((c): [string, string] => [c, 'a']),
  ...[...'ВвΒβ'].map((c): [string, string] => [c, 'b']),
  ...[...'ЕеЁёΕε'].map((c): [string, string] => [c, 'e']),
  ...[...'КкΚκ'].map((c): [string, string] => [c, 'k']),
  ...[...'МмΜμ'].map((c): [string, string] => [c, 'm']),
  ...[...'НнΗη'].map((c): [string, string] => [c, 'h']),
  ...[...'Νν'].map((c): [string, string] => [c, 'n']),
  ...[...'РрΡρ'].map((c): [string, string] => [c, 'p']),
  ...[...'Сс'].map((c): [string, string] => [c, 'c']),
  ...[...'ТтΤτ'].map((c): [string, string] => [c, 't']),
  ...[...'ХхΧχ'].map((c): [string, string] => [c, 'x']),
  ...[...'УуΥυ'].map((c): [string, string] => [c, 'y']),
  ...[...'Јј'].map((c): [string, string] => [c, 'j']),
  ...[...'Ѕѕ'].map((c): [string, string] => [c, 's']),
  ...[...'Ԁԁ'].map((c): [string, string] => [c, 'd']),
  ...[...'Ζζ'].map((c): [string, string] => [c, 'z']),
];
const sqlText = (s: string) => s.replaceAll("'", "''");
const LOOKALIKE_FROM = sqlText(LOOKALIKES.map(([from]) => from).join(''));
const LOOKALIKE_TO = sqlText(LOOKALIKES.map(([, to]) => to).join(''));

/**
 * Issue 37, items 2–5 and the database half of item 1: what a member with psql and their own
 * password could still do, refused or recorded.
 * - **Expiry by the clock.** A new claim is refused once the job's approval has expired, checked
 *   against `clock_timestamp()` and again against the time its `send` row is written (under the
 *   trail's lock) — never the transaction's start (`now()`), which a member could hold open past
 *   the expiry. `audit verify` applies the same rule to every `send` row (auditReconcile.ts).
 * - **Claims scoped by content.** A claim is unique per claim scope (the job's file hash, or the
 *   job), spreadsheet row and `item_key`: the SHA-256 of that row's approved item as the digest
 *   writes it, computed here from `job_items`. Only the same row's identical item is found
 *   already sent by another job; a copied file hash no longer makes another job's rows look sent.
 * - **Who ends a job.** Its preparer or an admin; or a desktop that adopted it (`adopt_job`, an
 *   `adopt` row: an approved bulk job whose preparer stored what another desktop needs to run it),
 *   and then only once every row of the job has been claimed. A claim alone grants nothing. Only
 *   the member who claimed a row (or an admin) settles it.
 * - **Text that reads as written.** Desktop ids and names, file names, notes (line breaks
 *   allowed), the items' fields, the purchase shown and a reconcile run's summary are refused when
 *   they hold a control character (C0, DEL, C1: escape, carriage return, tab…) or an invisible
 *   formatting mark (zero-width characters, direction marks and overrides, line separators…).
 *   Rows written before are left as they are (and escaped where they are shown).
 * - **Desktop names are unique in a team**, compared regardless of case, spacing and look-alike
 *   letters ("Ada's PC", "ada’s pc", "ADA'S  PC" are one name): a member may reuse their own
 *   desktop's name, no one else. Desktops already registered under another member's name (the
 *   later ones) are renamed "<name> (<role>, <first 8 of the desktop id>)"; the trail's earlier
 *   rows keep the name they were written with.
 * - **A reconcile run's audit row names its own run**: the summary comes first and the function's
 *   keys (`runId`, `from`, `to`) last, so a summary cannot override them.
 * The database's CONNECT is taken from PUBLIC and given to team members by the migrating role
 * (teamSetup.ts, `admitOnlyTeamMembers`), not here: step SQL runs as `vendesk_owner`, which does
 * not own the database.
 */
export const membersOnlyAndCheckedTextMigration: TeamMigration = {
  version: 7,
  name: 'expiry by the clock, claims by content, who ends a job, text that reads as written, unique desktop names',
  sql: String.raw`
-- ---------------------------------------------------------------- text that reads as written
-- The first character of p_value a person would not see for what it is: C0 controls (a line
-- break only where p_line_breaks allows one), DEL and C1 controls, and invisible formatting marks
-- (soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width characters, direction
-- marks, line and paragraph separators, embeddings, overrides and isolates, word joiners and
-- invisible operators, the byte-order mark, interlinear annotations, tag characters). NULL when
-- none. src/main/team/teamText.ts holds the same set.
CREATE FUNCTION vendesk.unseen_character(p_value text, p_line_breaks boolean) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT substring(CASE WHEN p_line_breaks THEN replace(p_value, E'\n', '') ELSE p_value END
    FROM '[\u0001-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]')
$$;

-- Whether a JSON value holds such a character in any key or string, read from its text without a
-- regular expression over all of it where it can be (a job's items are one value, up to tens of
-- megabytes): C0 controls appear there only as escapes (\n, \u001b), found once the escaped
-- backslashes are dropped; the others are DEL, or beyond ASCII, looked for character by character
-- only when the text is not plain ASCII.
CREATE FUNCTION vendesk.json_has_unseen(p_value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
DECLARE
  t text := p_value::text;
  escapes text;
BEGIN
  IF t IS NULL THEN
    RETURN false;
  END IF;
  IF strpos(t, E'\\') > 0 THEN
    escapes := replace(t, E'\\\\', '');
    IF strpos(escapes, E'\\u00') > 0 OR strpos(escapes, E'\\b') > 0 OR strpos(escapes, E'\\f') > 0 OR strpos(escapes, E'\\n') > 0
       OR strpos(escapes, E'\\r') > 0 OR strpos(escapes, E'\\t') > 0 THEN
      RETURN true;
    END IF;
  END IF;
  IF octet_length(t) = length(t) THEN
    RETURN strpos(t, E'\x7f') > 0;
  END IF;
  RETURN vendesk.unseen_character(t, false) IS NOT NULL;
END $$;

-- The refusal, naming the character by its code point (never showing it).
CREATE FUNCTION vendesk.raise_unseen(p_what text, p_char text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
DECLARE
  named text := 'a character';
BEGIN
  IF p_char IS NOT NULL THEN
    named := 'U+' || lpad(upper(to_hex(ascii(p_char))), 4, '0') || ' (' || CASE
      WHEN ascii(p_char) = 9 THEN 'a tab'
      WHEN ascii(p_char) = 10 THEN 'a line break'
      WHEN ascii(p_char) = 13 THEN 'a carriage return'
      WHEN ascii(p_char) = 27 THEN 'an escape, which starts a terminal code'
      WHEN ascii(p_char) < 32 OR ascii(p_char) BETWEEN 127 AND 159 THEN 'a control character'
      WHEN ascii(p_char) IN (1564, 8206, 8207) OR ascii(p_char) BETWEEN 8234 AND 8238 OR ascii(p_char) BETWEEN 8294 AND 8297 THEN 'a text direction mark'
      WHEN ascii(p_char) IN (8232, 8233) THEN 'a line separator'
      ELSE 'an invisible formatting mark' END || ')';
  END IF;
  RAISE EXCEPTION '% holds %, which is not shown as what it is: the team database keeps only text that reads the same on every screen', p_what, named
    USING ERRCODE = 'check_violation', CONSTRAINT = 'text_reads_as_written';
END $$;

-- Refuses text (p_what says which, in words) holding such a character.
CREATE FUNCTION vendesk.refuse_unseen(p_what text, p_value text, p_line_breaks boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
DECLARE
  found text := vendesk.unseen_character(p_value, p_line_breaks);
BEGIN
  IF found IS NOT NULL THEN
    PERFORM vendesk.raise_unseen(p_what, found);
  END IF;
END $$;

-- Refuses a JSON value (an item, the purchase shown, a summary) holding such a character in a
-- key or string, naming the field that holds it.
CREATE FUNCTION vendesk.refuse_unseen_in_json(p_what text, p_value jsonb) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
DECLARE
  field record;
BEGIN
  IF p_value IS NULL OR NOT vendesk.json_has_unseen(p_value) THEN
    RETURN;
  END IF;
  IF jsonb_typeof(p_value) = 'object' THEN
    FOR field IN SELECT key, value FROM jsonb_each(p_value) ORDER BY key LOOP
      IF vendesk.json_has_unseen(to_jsonb(field.key)) THEN
        PERFORM vendesk.raise_unseen(p_what || ' (the name of one of its fields)', vendesk.unseen_character(field.key, false));
      ELSIF vendesk.json_has_unseen(field.value) THEN
        PERFORM vendesk.raise_unseen(p_what || ' (its ' || field.key || ')',
          CASE WHEN jsonb_typeof(field.value) = 'string' THEN vendesk.unseen_character(field.value #>> '{}', false) END);
      END IF;
    END LOOP;
  END IF;
  PERFORM vendesk.raise_unseen(p_what, CASE WHEN jsonb_typeof(p_value) = 'string' THEN vendesk.unseen_character(p_value #>> '{}', false) END);
END $$;

-- Refuses a job's items when one holds such a character, naming its row and field. The whole list
-- is looked at once; item by item only when it holds one.
CREATE FUNCTION vendesk.refuse_unseen_in_items(p_items jsonb) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
DECLARE
  item record;
BEGIN
  IF jsonb_typeof(p_items) IS DISTINCT FROM 'array' OR NOT vendesk.json_has_unseen(p_items) THEN
    RETURN;
  END IF;
  FOR item IN SELECT e.v, e.n FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(v, n) LOOP
    PERFORM vendesk.refuse_unseen_in_json(CASE WHEN jsonb_typeof(item.v->'rowNumber') = 'number' THEN 'Row ' || (item.v->>'rowNumber') ELSE 'Item ' || item.n END, item.v);
  END LOOP;
END $$;

-- ---------------------------------------------------------------- desktop names, one per member
-- A desktop name as it is compared: NFKC-normalised, invisible marks dropped, spaces collapsed,
-- lower-cased, look-alike characters as the letter they look like.
CREATE FUNCTION vendesk.desktop_name_key(p_name text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT translate(lower(regexp_replace(btrim(regexp_replace(normalize(p_name, NFKC), '[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]', '', 'g')), '\s+', ' ', 'g')),
    '${LOOKALIKE_FROM}', '${LOOKALIKE_TO}')
$$;

-- Desktops registered before this step under another member's name (the later ones) take a name
-- of their own.
UPDATE vendesk.desktops d
   SET desktop_name = left(d.desktop_name, 120) || ' (' || d.role || ', ' || left(d.desktop_id, 8) || ')'
  FROM (SELECT DISTINCT ON (vendesk.desktop_name_key(desktop_name)) vendesk.desktop_name_key(desktop_name) AS name_key, role
          FROM vendesk.desktops ORDER BY vendesk.desktop_name_key(desktop_name), registered_at, desktop_id) first_holder
 WHERE vendesk.desktop_name_key(d.desktop_name) = first_holder.name_key AND d.role <> first_holder.role;

CREATE INDEX desktops_name_key ON vendesk.desktops (vendesk.desktop_name_key(desktop_name));

-- A name (as compared) belongs to the member who registered it first: refused to anyone else, even
-- the owner. record_join takes the table's lock first, so two joins cannot both take it.
CREATE FUNCTION vendesk.desktop_name_is_free() RETURNS trigger
LANGUAGE plpgsql SET search_path = vendesk, pg_temp AS $$
DECLARE
  holder name;
BEGIN
  SELECT d.role INTO holder FROM vendesk.desktops d
   WHERE vendesk.desktop_name_key(d.desktop_name) = vendesk.desktop_name_key(NEW.desktop_name)
     AND d.role <> NEW.role AND d.desktop_id <> NEW.desktop_id
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'The desktop name “%” is taken in this team: a desktop of % has that name (names are compared regardless of case, spacing and look-alike letters)',
      NEW.desktop_name, holder USING ERRCODE = 'unique_violation', CONSTRAINT = 'desktop_name_taken';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER desktops_name_is_free BEFORE INSERT OR UPDATE OF desktop_name, role ON vendesk.desktops
  FOR EACH ROW EXECUTE FUNCTION vendesk.desktop_name_is_free();

-- record_join of step 4 stays as it was, under an internal name; the record_join in front of it
-- refuses an id or name that does not read as written, and takes the table's lock.
ALTER FUNCTION vendesk.record_join(text, text) RENAME TO register_desktop;
CREATE FUNCTION vendesk.record_join(p_desktop_id text, p_desktop_name text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.refuse_unseen('The desktop id', p_desktop_id);
  PERFORM vendesk.refuse_unseen('The desktop name', p_desktop_name);
  LOCK TABLE vendesk.desktops IN SHARE ROW EXCLUSIVE MODE;
  RETURN vendesk.register_desktop(p_desktop_id, p_desktop_name);
END $$;

-- ---------------------------------------------------------------- text of jobs, decisions, resolutions
-- Step 4's prepare_job_with_items (the one way a job is written) under an internal name, behind
-- the check of its file name, items and the purchase an approver is shown.
ALTER FUNCTION vendesk.prepare_job_with_items(text, text, text, text, text, text, boolean, integer, bigint, bigint, jsonb, jsonb, jsonb)
  RENAME TO store_job_with_items;
CREATE FUNCTION vendesk.prepare_job_with_items(p_kind text, p_desktop_id text, p_desktop_name text, p_local_job_id text,
  p_file_name text, p_file_sha256 text, p_repeat boolean, p_item_count integer, p_total_kobo bigint,
  p_wallet_kobo bigint, p_preview jsonb, p_run_spec jsonb, p_items jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.require_role('vendesk_preparer', 'prepare a job');
  PERFORM vendesk.refuse_unseen('The file name', p_file_name);
  PERFORM vendesk.refuse_unseen_in_items(p_items);
  PERFORM vendesk.refuse_unseen_in_json('The purchase the approver is shown', p_preview->'purchase');
  RETURN vendesk.store_job_with_items(p_kind, p_desktop_id, p_desktop_name, p_local_job_id, p_file_name, p_file_sha256, p_repeat,
    p_item_count, p_total_kobo, p_wallet_kobo, p_preview, p_run_spec, p_items);
END $$;

ALTER FUNCTION vendesk.decide_job(uuid, text, text, text, text) RENAME TO record_decision;
CREATE FUNCTION vendesk.decide_job(p_job_id uuid, p_decision text, p_note text, p_desktop_id text,
  p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.require_role('vendesk_approver', 'approve or reject a job');
  PERFORM vendesk.refuse_unseen('The note', p_note, true);
  RETURN vendesk.record_decision(p_job_id, p_decision, p_note, p_desktop_id, p_desktop_name);
END $$;

ALTER FUNCTION vendesk.resolve_reconcile_entry(uuid, text, text, text, bigint, text, text) RENAME TO record_resolution;
CREATE FUNCTION vendesk.resolve_reconcile_entry(p_run_id uuid, p_entry_key text, p_resolution text, p_note text,
  p_amount_kobo bigint, p_desktop_id text, p_desktop_name text) RETURNS vendesk.reconcile_resolutions
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'resolve a reconcile entry');
  PERFORM vendesk.refuse_unseen('The entry', p_entry_key);
  PERFORM vendesk.refuse_unseen('The resolution', p_resolution);
  PERFORM vendesk.refuse_unseen('The note', p_note, true);
  RETURN vendesk.record_resolution(p_run_id, p_entry_key, p_resolution, p_note, p_amount_kobo, p_desktop_id, p_desktop_name);
END $$;

-- A reconcile run's audit row: the summary first, the function's own keys last, so a summary can
-- never rename the run (or the period) the row names.
CREATE OR REPLACE FUNCTION vendesk.record_reconcile_run(p_desktop_id text, p_desktop_name text, p_from timestamptz,
  p_to timestamptz, p_summary jsonb) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  run_id uuid;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'record a reconcile run');
  IF jsonb_typeof(p_summary) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'A reconcile run''s summary is an object of its figures' USING ERRCODE = 'check_violation';
  END IF;
  PERFORM vendesk.refuse_unseen_in_json('The reconcile run''s summary', p_summary);
  INSERT INTO vendesk.reconcile_runs (desktop_id, run_by, period_from, period_to, summary)
    VALUES (p_desktop_id, session_user, p_from, p_to, p_summary) RETURNING id INTO run_id;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'reconcile', NULL,
    CASE WHEN jsonb_typeof(p_summary -> 'amountKobo') = 'number' THEN (p_summary ->> 'amountKobo')::bigint END,
    p_summary || jsonb_build_object('runId', run_id, 'from', p_from, 'to', p_to));
  RETURN run_id;
END $$;

-- ---------------------------------------------------------------- the approval's expiry, by the clock
-- Refuses a claim made at p_at after the job's approval expired: its last approval plus the team's
-- approval_valid_minutes as they stand now. audit verify applies the same rule to each send row.
CREATE FUNCTION vendesk.refuse_after_expiry(p_job_id uuid, p_at timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = vendesk, pg_temp AS $$
DECLARE
  valid jsonb;
  expires timestamptz;
BEGIN
  SELECT value INTO valid FROM vendesk.team_settings WHERE key = 'approval_valid_minutes';
  IF jsonb_typeof(valid) IS DISTINCT FROM 'number' THEN
    RETURN;
  END IF;
  SELECT max(decided_at) + make_interval(mins => valid::text::integer) INTO expires
    FROM vendesk.approvals WHERE job_id = p_job_id AND decision = 'approved';
  IF expires < p_at THEN
    RAISE EXCEPTION 'The approval of job % expired at % (approvals are valid for % minutes): nothing more is sent under it; prepare it again',
      p_job_id, to_char(expires AT TIME ZONE 'Africa/Lagos', 'YYYY-MM-DD HH24:MI:SS'), valid::text
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
END $$;

-- ---------------------------------------------------------------- claims by content
-- What a claim of a row is unique by, besides its scope and row: the SHA-256 of the approved item
-- as the rows digest writes it. Two jobs share a claim only for the same row's identical item.
CREATE FUNCTION vendesk.claim_key(p_row vendesk.job_items) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT encode(sha256(convert_to(vendesk.item_digest_text(p_row.item_index, p_row.amount_kobo, p_row.item), 'UTF8')), 'hex')
$$;

ALTER TABLE vendesk.item_claims ADD COLUMN item_key text;
-- Claims made before: the key of their job's row (a job from before step 3 has no rows: its own).
UPDATE vendesk.item_claims c SET item_key = coalesce(
  (SELECT vendesk.claim_key(i) FROM vendesk.job_items i WHERE i.job_id = c.job_id AND i.item_index = c.item_index), 'job:' || c.job_id);
ALTER TABLE vendesk.item_claims ALTER COLUMN item_key SET NOT NULL;
ALTER TABLE vendesk.item_claims DROP CONSTRAINT item_claims_pkey;
ALTER TABLE vendesk.item_claims ADD PRIMARY KEY (claim_scope, item_index, item_key);
ALTER TABLE vendesk.item_claims ADD CONSTRAINT item_claims_one_per_row UNIQUE (job_id, item_index);

-- Step 4's claim of an approved row, restated: the claim it looks for is the row's by content, and
-- the approval's expiry is checked against the clock.
CREATE OR REPLACE FUNCTION vendesk.claim_approved_row(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_request_ref text,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
  approved_row vendesk.job_items;
  row_key text;
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
  row_key := vendesk.claim_key(approved_row);
  -- A new claim only while the approval is valid now (claim_item_of_open_job checks again at its send row).
  IF job.state IN ('approved', 'running') AND NOT EXISTS (SELECT 1 FROM vendesk.item_claims
       WHERE claim_scope = job.claim_scope AND item_index = p_item_index AND item_key = row_key) THEN
    PERFORM vendesk.refuse_after_expiry(p_job_id, clock_timestamp());
  END IF;
  UPDATE vendesk.jobs SET state = 'running' WHERE id = p_job_id AND state = 'approved';
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR SHARE;
  IF FOUND AND job.state = 'finished' THEN
    SELECT * INTO claim FROM vendesk.item_claims WHERE claim_scope = job.claim_scope AND item_index = p_item_index AND item_key = row_key;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Job % is finished: row % was not sent then and is not sent now', p_job_id, p_item_index
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN claim;
  END IF;
  RETURN vendesk.claim_item_of_open_job(p_job_id, p_item_index, p_amount_kobo, p_request_ref, p_desktop_id, p_desktop_name);
END $$;

-- Step 5's claim of a row of an open job, restated: unique by the row's content, and refused when
-- its send row — written under the trail's lock, stamped by the clock — comes after the expiry.
CREATE OR REPLACE FUNCTION vendesk.claim_item_of_open_job(p_job_id uuid, p_item_index integer, p_amount_kobo bigint,
  p_request_ref text, p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
  approved_row vendesk.job_items;
  sent vendesk.audit_trail;
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
  SELECT * INTO approved_row FROM vendesk.job_items WHERE job_id = p_job_id AND item_index = p_item_index;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Row % is not one of the rows of job %: only an approved row is sent', p_item_index, p_job_id
      USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO vendesk.item_claims (claim_scope, item_index, item_key, job_id, desktop_id, claimed_by, request_ref, amount_kobo)
    VALUES (job.claim_scope, p_item_index, vendesk.claim_key(approved_row), job.id, p_desktop_id, session_user, p_request_ref, p_amount_kobo)
    ON CONFLICT (claim_scope, item_index, item_key) DO NOTHING
    RETURNING * INTO claim;
  IF FOUND THEN
    IF job.state = 'approved' THEN
      UPDATE vendesk.jobs SET state = 'running' WHERE id = job.id;
    END IF;
    sent := vendesk.audit_append(p_desktop_id, p_desktop_name, 'send', job.id, p_amount_kobo,
      jsonb_build_object('item', p_item_index, 'requestRef', p_request_ref) || coalesce(vendesk.recipient_and_product(approved_row.item), '{}'::jsonb));
    PERFORM vendesk.refuse_after_expiry(job.id, sent.at);
    RETURN claim;
  END IF;
  SELECT * INTO claim FROM vendesk.item_claims
    WHERE claim_scope = job.claim_scope AND item_index = p_item_index AND item_key = vendesk.claim_key(approved_row);
  RETURN claim;
END $$;

-- Step 5's claim_item (the item compared with the approved row) under an internal name, behind the
-- check that the item named reads as written.
ALTER FUNCTION vendesk.claim_item(uuid, integer, bigint, jsonb, text, text, text) RENAME TO claim_item_as_approved;
CREATE FUNCTION vendesk.claim_item(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_item jsonb,
  p_request_ref text, p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'send an item');
  PERFORM vendesk.refuse_unseen_in_json('The item claimed', p_item);
  RETURN vendesk.claim_item_as_approved(p_job_id, p_item_index, p_amount_kobo, p_item, p_request_ref, p_desktop_id, p_desktop_name);
END $$;

-- ---------------------------------------------------------------- settling: the claimer, or an admin
CREATE OR REPLACE FUNCTION vendesk.settle_item(p_job_id uuid, p_item_index integer, p_outcome text, p_desktop_id text,
  p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  claim vendesk.item_claims;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'settle an item');
  IF p_outcome NOT IN ('succeeded', 'failed', 'uncertain') THEN
    RAISE EXCEPTION 'An outcome is succeeded, failed or uncertain, not %', p_outcome USING ERRCODE = 'check_violation';
  END IF;
  SELECT * INTO claim FROM vendesk.item_claims WHERE job_id = p_job_id AND item_index = p_item_index FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Job % has no claim on item %', p_job_id, p_item_index USING ERRCODE = 'no_data_found';
  END IF;
  IF claim.claimed_by <> session_user AND NOT pg_has_role(session_user, 'vendesk_admin', 'MEMBER') THEN
    RAISE EXCEPTION 'Row % of job % was claimed by %: only the member who claimed it, or an admin, settles it', p_item_index, p_job_id, claim.claimed_by
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF claim.outcome IN ('succeeded', 'failed') THEN
    IF claim.outcome <> p_outcome THEN
      RAISE EXCEPTION 'Item % of job % is already settled as %', p_item_index, p_job_id, claim.outcome
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN claim;
  END IF;
  UPDATE vendesk.item_claims SET outcome = p_outcome, settled_at = now()
    WHERE job_id = p_job_id AND item_index = p_item_index RETURNING * INTO claim;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'settle', p_job_id,
    CASE WHEN p_outcome = 'succeeded' THEN claim.amount_kobo ELSE 0 END,
    jsonb_build_object('item', p_item_index, 'outcome', p_outcome, 'requestRef', claim.request_ref)
      || coalesce(vendesk.recipient_and_product(vendesk.approved_item(p_job_id, p_item_index)), '{}'::jsonb));
  RETURN claim;
END $$;

-- ---------------------------------------------------------------- adopting and ending a job
ALTER TABLE vendesk.audit_trail DROP CONSTRAINT audit_trail_action_check;
ALTER TABLE vendesk.audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('join', 'prepare', 'approve', 'reject',
  'cancel', 'send', 'settle', 'reconcile', 'resolve', 'cap_change', 'profile_change', 'finish', 'adopt'));

-- The desktops that run another member's approved job (Run here, vendesk bulk adopt).
CREATE TABLE vendesk.job_runners (
  job_id uuid NOT NULL REFERENCES vendesk.jobs (id),
  desktop_id text NOT NULL REFERENCES vendesk.desktops (desktop_id),
  role name NOT NULL,
  adopted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, desktop_id)
);
CREATE TRIGGER job_runners_append_only BEFORE UPDATE OR DELETE ON vendesk.job_runners
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER job_runners_no_truncate BEFORE TRUNCATE ON vendesk.job_runners
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();

-- This member's desktop runs an approved bulk job someone else prepared: recorded once, with an
-- adopt row. Only a job whose preparer stored what another desktop needs to run it (its run spec).
CREATE FUNCTION vendesk.adopt_job(p_job_id uuid, p_desktop_id text, p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'run a job');
  PERFORM vendesk.desktop_name_of(p_desktop_id);
  SELECT * INTO job FROM vendesk.jobs WHERE id = p_job_id FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team job %', p_job_id USING ERRCODE = 'no_data_found';
  END IF;
  IF job.prepared_by = session_user THEN
    RETURN job;
  END IF;
  IF job.kind <> 'bulk' OR job.run_spec IS NULL THEN
    RAISE EXCEPTION 'Job % runs only on its preparer''s desktop: its preparer did not store what another desktop needs to run it', p_job_id
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF job.state NOT IN ('approved', 'running') THEN
    RAISE EXCEPTION 'Job % is %: only an approved job is run on another desktop', p_job_id, job.state
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  INSERT INTO vendesk.job_runners (job_id, desktop_id, role) VALUES (job.id, p_desktop_id, session_user)
    ON CONFLICT (job_id, desktop_id) DO NOTHING;
  IF FOUND THEN
    PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'adopt', job.id, job.total_kobo,
      jsonb_build_object('preparedBy', job.prepared_by, 'items', job.item_count, 'itemsDigest', job.items_digest));
  END IF;
  RETURN job;
END $$;

-- Ending a job on one's own authority (cancelling it, finishing it with rows still unsent): its
-- preparer or an admin. Holding a claim no longer counts.
CREATE OR REPLACE FUNCTION vendesk.may_end_job(p_job vendesk.jobs) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
  SELECT p_job.prepared_by = session_user OR pg_has_role(session_user, 'vendesk_admin', 'MEMBER')
$$;

-- Finishing: its preparer or an admin; or a desktop of this member that adopted it, once every row
-- of the job has been claimed (so that finishing stops nothing the preparer could still send).
CREATE OR REPLACE FUNCTION vendesk.finish_job(p_job_id uuid, p_desktop_id text, p_desktop_name text) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  unsent integer;
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
    IF NOT EXISTS (SELECT 1 FROM vendesk.job_runners r WHERE r.job_id = job.id AND r.desktop_id = p_desktop_id AND r.role = session_user) THEN
      RAISE EXCEPTION 'Only the preparer of job % (%), an admin, or a desktop that adopted the job to run it may finish it: holding a claim on one of its rows is not enough',
        p_job_id, job.prepared_by USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT count(*) INTO unsent FROM vendesk.job_items i
     WHERE i.job_id = job.id AND NOT EXISTS (SELECT 1 FROM vendesk.item_claims c
       WHERE c.claim_scope = job.claim_scope AND c.item_index = i.item_index AND c.item_key = vendesk.claim_key(i));
    IF unsent > 0 THEN
      RAISE EXCEPTION '% row(s) of job % have not been sent by any desktop: only its preparer (%) or an admin may finish it before they are',
        unsent, p_job_id, job.prepared_by USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  UPDATE vendesk.jobs SET state = 'finished' WHERE id = job.id RETURNING * INTO job;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'finish', job.id,
    (SELECT coalesce(sum(amount_kobo), 0)::bigint FROM vendesk.item_claims WHERE job_id = job.id AND outcome = 'succeeded'),
    jsonb_build_object('claims', (SELECT count(*) FROM vendesk.item_claims WHERE job_id = job.id),
      'succeeded', (SELECT count(*) FROM vendesk.item_claims WHERE job_id = job.id AND outcome = 'succeeded')));
  RETURN job;
END $$;

-- ---------------------------------------------------------------- grants
-- The functions renamed above keep the grants they had: members may no longer call them, only
-- the checked functions in front of them.
REVOKE EXECUTE ON FUNCTION vendesk.register_desktop(text, text) FROM vendesk_member, PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.record_decision(uuid, text, text, text, text) FROM vendesk_approver, PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.record_resolution(uuid, text, text, text, bigint, text, text) FROM vendesk_member, PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.claim_item_as_approved(uuid, integer, bigint, jsonb, text, text, text) FROM vendesk_member, PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.store_job_with_items(text, text, text, text, text, text, boolean, integer, bigint, bigint, jsonb, jsonb, jsonb)
  FROM vendesk_preparer, PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.record_join(text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.decide_job(uuid, text, text, text, text) TO vendesk_approver;
GRANT EXECUTE ON FUNCTION vendesk.resolve_reconcile_entry(uuid, text, text, text, bigint, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.claim_item(uuid, integer, bigint, jsonb, text, text, text) TO vendesk_member;
GRANT EXECUTE ON FUNCTION vendesk.adopt_job(uuid, text, text) TO vendesk_member;
GRANT SELECT ON vendesk.job_runners TO vendesk_member;
`,
};
