import type { Migration } from './migration';
import { stateTriggers } from './020_state_checks';

/** The states a bulk job may hold from this step on (a test holds them equal to the code's). */
export const JOB_STATES_AT_22 = ['draft', 'awaiting_approval', 'running', 'paused', 'cancelled', 'completed', 'needs_attention'] as const;

/**
 * A job sent for a team member's approval has its own state, `awaiting_approval`, instead of being
 * a draft with a row in `team_job_links`: nothing of it is sent, its rows no longer change, and it
 * is confirmed from there once approved. Drafts already sent for approval take the state.
 */
export const jobsAwaitApprovalMigration: Migration = {
  version: 22,
  name: 'a bulk job sent for approval waits in its own state',
  up: `
    DROP TRIGGER bulk_jobs_state_known_insert;
    DROP TRIGGER bulk_jobs_state_known_update;
    ${stateTriggers('bulk_jobs', JOB_STATES_AT_22)}
    UPDATE bulk_jobs SET state = 'awaiting_approval' WHERE state = 'draft' AND id IN (SELECT local_job_id FROM team_job_links);`,
};
