import type { TeamMigration } from './teamMigration';

/**
 * Issue 18, second part: the audit rows a desktop records about itself.
 * - `record_desktop_cap_change`: a desktop's bulk spending caps changed (`cap_change`, with the
 *   per-job cap as the amount and every cap before and after in the detail).
 * - `record_reconcile_run` now writes the run's counts and amounts into its audit row (the row
 *   said only which run before), with the run's figure as the amount.
 * Single purchases above the threshold need nothing new: they are team jobs of kind `single` with
 * one item (claim scope `job:<id>`), claimed and settled like a bulk row.
 */
export const singlePurchasesAndAuditMigration: TeamMigration = {
  version: 2,
  name: 'audit rows for desktop cap changes; reconcile runs with their figures',
  sql: String.raw`
CREATE FUNCTION vendesk.record_desktop_cap_change(p_desktop_id text, p_desktop_name text, p_amount_kobo bigint, p_detail jsonb)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'record a change of spending caps');
  RETURN (vendesk.audit_append(p_desktop_id, p_desktop_name, 'cap_change', NULL, p_amount_kobo,
    coalesce(p_detail, '{}'::jsonb) || jsonb_build_object('scope', 'desktop'))).seq;
END $$;

CREATE OR REPLACE FUNCTION vendesk.record_reconcile_run(p_desktop_id text, p_desktop_name text, p_from timestamptz,
  p_to timestamptz, p_summary jsonb) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = vendesk, pg_temp AS $$
DECLARE
  run_id uuid;
BEGIN
  PERFORM vendesk.require_role('vendesk_member', 'record a reconcile run');
  INSERT INTO vendesk.reconcile_runs (desktop_id, run_by, period_from, period_to, summary)
    VALUES (p_desktop_id, session_user, p_from, p_to, p_summary) RETURNING id INTO run_id;
  PERFORM vendesk.audit_append(p_desktop_id, p_desktop_name, 'reconcile', NULL,
    CASE WHEN jsonb_typeof(p_summary -> 'amountKobo') = 'number' THEN (p_summary ->> 'amountKobo')::bigint END,
    jsonb_build_object('runId', run_id, 'from', p_from, 'to', p_to) || coalesce(p_summary, '{}'::jsonb));
  RETURN run_id;
END $$;

REVOKE EXECUTE ON FUNCTION vendesk.record_desktop_cap_change(text, text, bigint, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vendesk.record_desktop_cap_change(text, text, bigint, jsonb) TO vendesk_member;
`,
};
