import type { TeamMigration } from './teamMigration';

/**
 * What another team desktop needs to run an approved bulk job (issue 18: "resumes on any team
 * desktop that has [a token]"): the job's items — spreadsheet row, kind, recipient, amount and
 * the plan, meter or smartcard fields the runner sends — and which service and organisation it
 * was prepared for (`run_spec`: base URL, the wallet's account number and name, the bulk kind, the
 * sheet and its columns). Written once, only by `prepare_bulk_job` (which is `prepare_job` plus
 * these, in one transaction, and checks that the items add up to the count and total the approver
 * is shown); members may only read them; triggers refuse UPDATE, DELETE and TRUNCATE of the items.
 * `claim_item` also answers for a finished job (with its existing claims, never a new one), so a
 * desktop that resumes a job another desktop finished settles its rows from the log.
 */
export const teamJobItemsMigration: TeamMigration = {
  version: 3,
  name: 'team job items and run spec: an approved job can run on another desktop',
  sql: String.raw`
ALTER TABLE vendesk.jobs ADD COLUMN run_spec jsonb;

CREATE TABLE vendesk.job_items (
  job_id uuid NOT NULL REFERENCES vendesk.jobs (id),
  seq integer NOT NULL CHECK (seq >= 1),
  item_index integer NOT NULL CHECK (item_index >= 1 AND item_index <= 1048576),
  amount_kobo bigint NOT NULL CHECK (amount_kobo > 0),
  item jsonb NOT NULL CHECK (jsonb_typeof(item) = 'object'),
  PRIMARY KEY (job_id, seq),
  UNIQUE (job_id, item_index)
);

CREATE TRIGGER job_items_append_only BEFORE UPDATE OR DELETE ON vendesk.job_items
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER job_items_no_truncate BEFORE TRUNCATE ON vendesk.job_items
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();

-- prepare_job, plus the items and run spec another desktop needs, in one transaction. The items
-- must be exactly the job's count and total: what runs is what the approver was shown.
CREATE FUNCTION vendesk.prepare_bulk_job(p_desktop_id text, p_desktop_name text, p_local_job_id text,
  p_file_name text, p_file_sha256 text, p_repeat boolean, p_item_count integer, p_total_kobo bigint,
  p_wallet_kobo bigint, p_preview jsonb, p_run_spec jsonb, p_items jsonb) RETURNS vendesk.jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  n integer;
  kobo bigint;
BEGIN
  IF jsonb_typeof(p_items) <> 'array' OR jsonb_typeof(p_run_spec) <> 'object' THEN
    RAISE EXCEPTION 'A bulk job needs its items (an array) and its run spec (an object)' USING ERRCODE = 'check_violation';
  END IF;
  job := vendesk.prepare_job('bulk', p_desktop_id, p_desktop_name, p_local_job_id, p_file_name, p_file_sha256, p_repeat,
    p_item_count, p_total_kobo, p_wallet_kobo, p_preview);
  INSERT INTO vendesk.job_items (job_id, seq, item_index, amount_kobo, item)
    SELECT job.id, e.n::integer, (e.v->>'rowNumber')::integer, (e.v->>'amountKobo')::bigint, e.v
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(v, n);
  SELECT count(*), coalesce(sum(amount_kobo), 0) INTO n, kobo FROM vendesk.job_items WHERE job_id = job.id;
  IF n <> p_item_count OR kobo <> p_total_kobo THEN
    RAISE EXCEPTION 'The items (% for % kobo) are not the job''s count and total (% for % kobo)', n, kobo, p_item_count, p_total_kobo
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE vendesk.jobs SET run_spec = p_run_spec WHERE id = job.id RETURNING * INTO job;
  RETURN job;
END $$;

-- claim_item of 001 stays as it was, under a new name that only this function may call, and the
-- new claim_item puts two rules in front of it:
-- - A finished job answers with its existing claims: a desktop that runs the job after another
--   finished it (the preparer resuming, say) learns that each row was sent there, settles it from
--   the service's log, and sends nothing. A finished job's row that was never claimed is not sent.
-- - The first claim of an approved job marks it running before the job is read, under the row
--   lock of that update. In 001 two first claims at once each held a share of the job row and then
--   waited for the other (one to insert the claim, the other to mark the job running): a deadlock
--   PostgreSQL ended by failing one of them. Now they queue, and 001's own update never runs.
ALTER FUNCTION vendesk.claim_item(uuid, integer, bigint, text, text, text) RENAME TO claim_item_of_open_job;
REVOKE EXECUTE ON FUNCTION vendesk.claim_item_of_open_job(uuid, integer, bigint, text, text, text) FROM vendesk_member;

CREATE FUNCTION vendesk.claim_item(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_request_ref text,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  job vendesk.jobs;
  claim vendesk.item_claims;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'send an item');
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

REVOKE EXECUTE ON FUNCTION vendesk.claim_item(uuid, integer, bigint, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.claim_item(uuid, integer, bigint, text, text, text) TO vendesk_member;
GRANT SELECT ON vendesk.job_items TO vendesk_member;
REVOKE EXECUTE ON FUNCTION vendesk.prepare_bulk_job(text, text, text, text, text, boolean, integer, bigint, bigint, jsonb, jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.prepare_bulk_job(text, text, text, text, text, boolean, integer, bigint, bigint, jsonb, jsonb, jsonb) TO vendesk_preparer;
`,
};
