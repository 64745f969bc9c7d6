import type { TeamMigration } from './teamMigration';

/**
 * Issue 41, the team half: a month closed in the team database, and each item's cost centre kept
 * with the job.
 * - **Month closes** (`month_closes`: one row per organisation and month, its state now;
 *   `month_close_events`: every close and reopen, append-only). Only an approver or an admin closes
 *   or reopens (`close_month`, `reopen_month`: a preparer is refused by the role check and has no
 *   EXECUTE); the actor is the login (`session_user`), never a value a desktop sends. Months close
 *   in order (never one before a later closed month) and reopen from the latest; a reopen needs a
 *   reason of at least 3 characters that reads as written (team schema 7's check, line breaks
 *   allowed). Each is an audit row (`month_close`, `month_reopen`) written in the same transaction,
 *   its event row naming that audit row's `seq`. The organisation is the service's address and its
 *   wallet's account number, as the desktop read them (`teamMonthCloses.ts`). Whether the month is
 *   over is the service's clock's to say, which the database cannot read: the desktop checks it and
 *   sends the service's time (`p_service_at`), kept beside the database's own.
 * - **An item's cost centre** (`job_items.cost_centre`, text checked as team schema 7 checks text,
 *   at most 64 characters): taken out of the item a desktop sends (`costCentre`) into its own
 *   column on insert, so a desktop that adopts the job gives each row the cost centre it was
 *   prepared with. The digest and the claims are unchanged (they never read it).
 * Written not to depend on any other step after 7: the audit trail's list of actions is extended
 * from whatever it is when this step runs.
 */
export const monthCloseMigration: TeamMigration = {
  version: 9,
  name: 'month closes by an approver or admin, audited; the cost centre of a team job item',
  sql: String.raw`
-- ---------------------------------------------------------------- the audit trail's actions
DO $$
DECLARE
  actions text[];
BEGIN
  SELECT array_agg(m[1]) INTO actions
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
   WHERE c.conname = 'audit_trail_action_check' AND c.conrelid = 'vendesk.audit_trail'::regclass;
  actions := actions || ARRAY['month_close', 'month_reopen'];
  ALTER TABLE vendesk.audit_trail DROP CONSTRAINT audit_trail_action_check;
  EXECUTE 'ALTER TABLE vendesk.audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('
    || (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(actions) AS a) || '))';
END $$;

-- ---------------------------------------------------------------- month closes
CREATE TABLE vendesk.month_closes (
  organisation text NOT NULL CHECK (length(organisation) BETWEEN 1 AND 300),
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  state text NOT NULL CHECK (state IN ('closed', 'reopened')),
  closed_by name NOT NULL,
  closed_at timestamptz NOT NULL,
  service_closed_at timestamptz NOT NULL,
  PRIMARY KEY (organisation, month)
);
CREATE TRIGGER month_closes_no_delete BEFORE DELETE ON vendesk.month_closes
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER month_closes_no_truncate BEFORE TRUNCATE ON vendesk.month_closes
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();

CREATE TABLE vendesk.month_close_events (
  id bigserial PRIMARY KEY,
  organisation text NOT NULL,
  month text NOT NULL,
  action text NOT NULL CHECK (action IN ('close', 'reopen')),
  actor name NOT NULL,
  at timestamptz NOT NULL,
  service_at timestamptz NOT NULL,
  reason text,
  audit_seq bigint NOT NULL,
  CONSTRAINT reopen_has_reason CHECK (action = 'close' OR coalesce(length(btrim(reason)), 0) >= 3)
);
CREATE TRIGGER month_close_events_append_only BEFORE UPDATE OR DELETE ON vendesk.month_close_events
  FOR EACH ROW EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER month_close_events_no_truncate BEFORE TRUNCATE ON vendesk.month_close_events
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.refuse_change();
CREATE TRIGGER month_closes_notify AFTER INSERT OR UPDATE ON vendesk.month_closes
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();

-- What a close and a reopen share: only an approver or admin, the service's time given, the
-- months in order (no later month closed, under a lock taken before anything is read), then the
-- audit row and the event naming it, in the caller's transaction.
CREATE FUNCTION vendesk.record_month_action(p_organisation text, p_month text, p_action text, p_service_at timestamptz,
  p_reason text, p_amount_kobo bigint, p_detail jsonb, p_desktop_id text, p_desktop_name text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  later text;
  audit vendesk.audit_trail;
BEGIN
  PERFORM vendesk.require_role('vendesk_approver', p_action || ' a month');
  PERFORM vendesk.refuse_unseen('The organisation', p_organisation);
  IF p_service_at IS NULL THEN
    RAISE EXCEPTION 'A % needs the time on the service''s clock', p_action USING ERRCODE = 'check_violation';
  END IF;
  LOCK TABLE vendesk.month_closes IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM vendesk.month_closes WHERE organisation = p_organisation AND month = p_month AND state = 'closed') <> (p_action = 'reopen') THEN
    RAISE EXCEPTION '% is %', p_month, CASE WHEN p_action = 'reopen' THEN 'not closed' ELSE 'already closed' END
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  SELECT max(month) INTO later FROM vendesk.month_closes WHERE organisation = p_organisation AND month > p_month AND state = 'closed';
  IF later IS NOT NULL THEN
    RAISE EXCEPTION '% cannot be % while a later month is closed (%): months close in order and reopen from the latest', p_month,
      CASE WHEN p_action = 'close' THEN 'closed' ELSE 'reopened' END, later
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  audit := vendesk.audit_append(p_desktop_id, p_desktop_name, 'month_' || p_action, NULL, p_amount_kobo,
    coalesce(p_detail, '{}'::jsonb) || jsonb_build_object('organisation', p_organisation, 'month', p_month, 'serviceAt', p_service_at));
  INSERT INTO vendesk.month_close_events (organisation, month, action, actor, at, service_at, reason, audit_seq)
    VALUES (p_organisation, p_month, p_action, session_user, audit.at, p_service_at, p_reason, audit.seq);
END $$;

-- Closes p_month of p_organisation (p_summary: the month's figures for the audit row).
CREATE FUNCTION vendesk.close_month(p_organisation text, p_month text, p_service_at timestamptz, p_summary jsonb,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.month_closes
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  closed vendesk.month_closes;
BEGIN
  PERFORM vendesk.refuse_unseen_in_json('The month''s summary', p_summary);
  PERFORM vendesk.record_month_action(p_organisation, p_month, 'close', p_service_at, NULL, (p_summary->>'spendKobo')::bigint, p_summary,
    p_desktop_id, p_desktop_name);
  INSERT INTO vendesk.month_closes (organisation, month, state, closed_by, closed_at, service_closed_at)
    VALUES (p_organisation, p_month, 'closed', session_user, clock_timestamp(), p_service_at)
    ON CONFLICT (organisation, month) DO UPDATE SET state = 'closed', closed_by = excluded.closed_by, closed_at = excluded.closed_at,
      service_closed_at = excluded.service_closed_at
    RETURNING * INTO closed;
  RETURN closed;
END $$;

-- Reopens p_month, the latest closed month, with a reason.
CREATE FUNCTION vendesk.reopen_month(p_organisation text, p_month text, p_reason text, p_service_at timestamptz,
  p_desktop_id text, p_desktop_name text) RETURNS vendesk.month_closes
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  reopened vendesk.month_closes;
BEGIN
  IF p_reason IS NULL OR length(btrim(p_reason)) < 3 THEN
    RAISE EXCEPTION 'A month is reopened with a reason: say why (at least 3 characters)' USING ERRCODE = 'check_violation';
  END IF;
  PERFORM vendesk.refuse_unseen('The reason', p_reason, true);
  PERFORM vendesk.record_month_action(p_organisation, p_month, 'reopen', p_service_at, p_reason, NULL, jsonb_build_object('reason', p_reason),
    p_desktop_id, p_desktop_name);
  UPDATE vendesk.month_closes SET state = 'reopened' WHERE organisation = p_organisation AND month = p_month RETURNING * INTO reopened;
  RETURN reopened;
END $$;

REVOKE EXECUTE ON FUNCTION vendesk.record_month_action(text, text, text, timestamptz, text, bigint, jsonb, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.close_month(text, text, timestamptz, jsonb, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION vendesk.reopen_month(text, text, text, timestamptz, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.close_month(text, text, timestamptz, jsonb, text, text) TO vendesk_approver;
GRANT EXECUTE ON FUNCTION vendesk.reopen_month(text, text, text, timestamptz, text, text) TO vendesk_approver;
GRANT SELECT ON vendesk.month_closes, vendesk.month_close_events TO vendesk_member;

-- ---------------------------------------------------------------- an item's cost centre
ALTER TABLE vendesk.job_items ADD COLUMN cost_centre text
  CONSTRAINT cost_centre_reads_as_written CHECK (cost_centre IS NULL OR (length(cost_centre) BETWEEN 1 AND 64 AND vendesk.unseen_character(cost_centre, false) IS NULL));

CREATE FUNCTION vendesk.item_cost_centre_column() RETURNS trigger
LANGUAGE plpgsql SET search_path = vendesk, pg_temp AS $$
BEGIN
  IF NEW.item ? 'costCentre' THEN
    NEW.cost_centre := nullif(NEW.item->>'costCentre', '');
    NEW.item := NEW.item - 'costCentre';
  END IF;
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION vendesk.item_cost_centre_column() FROM PUBLIC;
CREATE TRIGGER job_items_cost_centre BEFORE INSERT ON vendesk.job_items
  FOR EACH ROW EXECUTE FUNCTION vendesk.item_cost_centre_column();
`,
};
