import type { TeamMigration } from './teamMigration';

/**
 * Issue 23, the rest of "a claim or settle is accepted only for an approved row, at its approved
 * recipient, product and amount". Step 4 bound a claim to an approved row and its amount; what was
 * sent to whom rested on the sending desktop's digest check. Now:
 * - `claim_item` takes the item about to be sent (`p_item`: phone, meter/account or smartcard,
 *   network, product code or plan, operator, meter type — the fields of the items digest) and is
 *   refused unless it is the approved row as stored, compared the way the digest compares it
 *   (`item_digest_text`). The refusal names the field that differs, in words.
 * - The six-argument `claim_item` (no item) is gone: nothing can claim without naming what it
 *   sends. Its rules (an approved row at its amount, the approval's expiry, a finished job answered
 *   from its claims) are step 4's function under the internal name `claim_approved_row`, which the
 *   new `claim_item` calls once the item is checked. A desktop on an older vendesk can no longer
 *   claim: its job pauses with nothing sent until vendesk is updated there.
 * - The `send` and `settle` audit rows carry the row's recipient and product (from the approved
 *   item), besides its row and request reference, so the trail shows what was sent to whom.
 */
export const claimBindsRecipientMigration: TeamMigration = {
  version: 5,
  name: 'a claim binds the approved recipient and product; send and settle rows say what was sent to whom',
  sql: String.raw`
-- ---------------------------------------------------------------- what an item sends, for the trail
-- The recipient and product of an item (its fields of the items digest other than row and amount),
-- empty ones left out: what the send and settle audit rows say was sent.
CREATE FUNCTION vendesk.recipient_and_product(p_item jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = vendesk, pg_temp AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'phone', nullif(p_item->>'phone', ''),
    'account', nullif(p_item->>'account', ''),
    'network', nullif(p_item->>'network', ''),
    'productCode', nullif(p_item->>'productCode', ''),
    'operator', nullif(p_item->>'operator', ''),
    'vendType', nullif(p_item->>'vendType', '')))
$$;

-- The approved item of a job's row, or nothing.
CREATE FUNCTION vendesk.approved_item(p_job_id uuid, p_item_index integer) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = vendesk, pg_temp AS $$
  SELECT item FROM vendesk.job_items WHERE job_id = p_job_id AND item_index = p_item_index
$$;

-- ---------------------------------------------------------------- the send row names the recipient
-- 001's claim of a row of an open job, as before, except that its send row also carries the
-- recipient and product of the approved item.
CREATE OR REPLACE FUNCTION vendesk.claim_item_of_open_job(p_job_id uuid, p_item_index integer, p_amount_kobo bigint,
  p_request_ref text, p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
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
      jsonb_build_object('item', p_item_index, 'requestRef', p_request_ref)
        || coalesce(vendesk.recipient_and_product(vendesk.approved_item(job.id, p_item_index)), '{}'::jsonb));
    RETURN claim;
  END IF;
  SELECT * INTO claim FROM vendesk.item_claims WHERE claim_scope = job.claim_scope AND item_index = p_item_index;
  RETURN claim;
END $$;

-- ---------------------------------------------------------------- a claim names what it sends
-- Step 4's claim_item (an approved row at its approved amount, the approval's expiry, a finished
-- job answered from its claims) becomes internal: only the claim_item below calls it.
ALTER FUNCTION vendesk.claim_item(uuid, integer, bigint, text, text, text) RENAME TO claim_approved_row;
REVOKE EXECUTE ON FUNCTION vendesk.claim_approved_row(uuid, integer, bigint, text, text, text) FROM vendesk_member, PUBLIC;

-- Claims one item before it is sent, naming what is sent (p_item: the item's fields as a desktop
-- stores them in job_items.item). Refused unless it is the approved row: the same recipient,
-- product and amount, compared field by field as the items digest compares them.
CREATE FUNCTION vendesk.claim_item(p_job_id uuid, p_item_index integer, p_amount_kobo bigint, p_item jsonb,
  p_request_ref text, p_desktop_id text, p_desktop_name text) RETURNS vendesk.item_claims
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  approved_row vendesk.job_items;
  differs record;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'send an item');
  IF jsonb_typeof(p_item) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'A claim names the item about to be sent (its recipient, product and amount): nothing is sent without it'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'claim_is_the_approved_item';
  END IF;
  SELECT * INTO approved_row FROM vendesk.job_items WHERE job_id = p_job_id AND item_index = p_item_index;
  -- A row that was not approved, or another amount, is refused by claim_approved_row in its own
  -- words; here, the approved row at its amount with another recipient or product.
  IF FOUND AND approved_row.amount_kobo = p_amount_kobo
     AND vendesk.item_digest_text(p_item_index, p_amount_kobo, p_item)
         IS DISTINCT FROM vendesk.item_digest_text(approved_row.item_index, approved_row.amount_kobo, approved_row.item) THEN
    SELECT f.label,
        coalesce(nullif(approved_row.item->>f.key, ''), 'none') AS approved_value,
        coalesce(nullif(p_item->>f.key, ''), 'none') AS claimed_value
      INTO differs
      FROM (VALUES (1, 'phone', 'phone'), (2, 'account', 'meter, account or smartcard'), (3, 'network', 'network'),
                   (4, 'productCode', 'product or plan'), (5, 'operator', 'operator'), (6, 'vendType', 'meter type'))
        AS f(n, key, label)
      WHERE coalesce(approved_row.item->>f.key, '') IS DISTINCT FROM coalesce(p_item->>f.key, '')
      ORDER BY f.n LIMIT 1;
    RAISE EXCEPTION 'Row % of job % was approved with % %, not %: only what was approved is sent',
      p_item_index, p_job_id, differs.label, differs.approved_value, differs.claimed_value
      USING ERRCODE = 'check_violation', CONSTRAINT = 'claim_is_the_approved_item';
  END IF;
  RETURN vendesk.claim_approved_row(p_job_id, p_item_index, p_amount_kobo, p_request_ref, p_desktop_id, p_desktop_name);
END $$;

-- ---------------------------------------------------------------- the settle row names the recipient
-- 001's settle_item, as before, except that its settle row also carries the row's recipient and product.
CREATE OR REPLACE FUNCTION vendesk.settle_item(p_job_id uuid, p_item_index integer, p_outcome text, p_desktop_id text,
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
    jsonb_build_object('item', p_item_index, 'outcome', p_outcome, 'requestRef', claim.request_ref)
      || coalesce(vendesk.recipient_and_product(vendesk.approved_item(p_job_id, p_item_index)), '{}'::jsonb));
  RETURN claim;
END $$;

-- ---------------------------------------------------------------- grants
GRANT EXECUTE ON FUNCTION vendesk.claim_item(uuid, integer, bigint, jsonb, text, text, text) TO vendesk_member;
`,
};
