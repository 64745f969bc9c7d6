import type { Migration } from './migration';

/**
 * Team workspace (issue 18): which local bulk job was sent for approval as which team job in the
 * team's PostgreSQL database. A linked draft waits for approval there; once approved it runs here,
 * claiming each item in the team database before sending it.
 */
export const teamJobLinksMigration: Migration = {
  version: 16,
  name: 'team workspace: local bulk jobs sent for approval',
  up: `
    CREATE TABLE team_job_links (
      local_job_id TEXT PRIMARY KEY REFERENCES bulk_jobs (id) ON DELETE CASCADE,
      team_job_id TEXT NOT NULL UNIQUE,
      team_url TEXT NOT NULL,
      total_kobo INTEGER NOT NULL,
      items INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
  `,
};
