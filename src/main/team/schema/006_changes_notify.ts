import type { TeamMigration } from './teamMigration';

/**
 * Issue 27, "Approvals stops polling": whenever a job, an approval, a claim, a team setting or an
 * audit row is written — by any desktop, through any function — the database notifies the
 * channel `vendesk_team_changed` (TEAM_CHANGES_CHANNEL in team/teamChanges.ts), once per
 * statement and table, delivered when the writing transaction commits. A desktop that keeps its
 * window open listens there and its windows re-read at once. LISTEN needs no grant; the trigger
 * function runs as the writer of the row (the schema's owner, inside the team's functions).
 */
export const changesNotifyMigration: TeamMigration = {
  version: 6,
  name: 'every write to jobs, approvals, claims, settings and the audit trail notifies vendesk_team_changed',
  sql: String.raw`
CREATE FUNCTION vendesk.notify_team_changed() RETURNS trigger
LANGUAGE plpgsql SET search_path = vendesk, pg_temp AS $$
BEGIN
  PERFORM pg_notify('vendesk_team_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_notify AFTER INSERT OR UPDATE OR DELETE ON vendesk.jobs
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();
CREATE TRIGGER approvals_notify AFTER INSERT ON vendesk.approvals
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();
CREATE TRIGGER item_claims_notify AFTER INSERT OR UPDATE OR DELETE ON vendesk.item_claims
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();
CREATE TRIGGER team_settings_notify AFTER INSERT OR UPDATE OR DELETE ON vendesk.team_settings
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();
CREATE TRIGGER audit_trail_notify AFTER INSERT ON vendesk.audit_trail
  FOR EACH STATEMENT EXECUTE FUNCTION vendesk.notify_team_changed();

REVOKE EXECUTE ON FUNCTION vendesk.notify_team_changed() FROM PUBLIC;
`,
};
