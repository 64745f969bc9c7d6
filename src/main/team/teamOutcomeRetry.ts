/**
 * Outcomes the team database missed: when PostgreSQL could not be reached as a job ended, its
 * claims stay `claimed` there and the team job stays `running`, though this desktop knows how each
 * row ended (of its own claims: another member's are theirs to settle). `writePendingTeamOutcomes` writes them (claims settled succeeded/failed, job finished,
 * each settle an audit row — through `reportTeamOutcomes`) for every local job linked to a team job
 * that the database still shows open. It runs:
 * - every minute in an app the shell keeps open (`startTeamOutcomeRetry`, from backgroundLoops.ts);
 * - at the start of the command line's next team command (`cli/main.ts`).
 * It never throws: a database still unreachable is simply tried again next time.
 */
import type { App, AppPart } from '../appContext';
import type { JobOrigin } from '../buying/jobRows';
import { teamJobsOf } from '../buying/teamJobs';
import { periodicPass, type PeriodicPass } from '../periodicPass';
import { reportTeamOutcomes } from './bulkApproval';
import { teamWorkspace } from './teamWorkspace';

/** Between two passes of the loop. */
export const TEAM_OUTCOMES_EVERY_MS = 60_000;

/** The command-line commands that work with the team database (the first word, or `bulk adopt`). */
const TEAM_COMMAND_WORDS = new Set(['team', 'approvals', 'approve', 'reject', 'audit']);

export function isTeamCommand(path: readonly string[]): boolean {
  return TEAM_COMMAND_WORDS.has(path[0] ?? '') || (path[0] === 'bulk' && path[1] === 'adopt');
}

/** Writes what the team database has not been told yet (of single purchases only, with `only`); returns how many jobs were written. */
export async function writePendingTeamOutcomes(app: AppPart<'db' | 'service'>, only?: JobOrigin): Promise<number> {
  const team = teamWorkspace(app);
  if (!team.link()) return 0;
  const links = app.db
    .prepare(
      "SELECT l.local_job_id, l.team_job_id FROM team_job_links l JOIN bulk_jobs j ON j.id = l.local_job_id WHERE j.state NOT IN ('draft', 'awaiting_approval') AND j.origin = coalesce(?, j.origin)",
    )
    .all(only ?? null) as {
    local_job_id: string;
    team_job_id: string;
  }[];
  if (links.length === 0) return 0;
  let open: Set<string>;
  try {
    open = await team.withClient(async (client) => {
      const r = await client.query<{ id: string }>(
        `SELECT j.id::text FROM vendesk.jobs j WHERE j.id::text = ANY($1::text[]) AND (j.state IN ('approved', 'running')
           OR EXISTS (SELECT 1 FROM vendesk.item_claims c WHERE c.job_id = j.id AND c.outcome IN ('claimed', 'uncertain') AND c.claimed_by = session_user))`,
        [links.map((l) => l.team_job_id)],
      );
      return new Set(r.rows.map((row) => row.id));
    });
  } catch {
    return 0; // still unreachable: the next pass tries again
  }
  const jobs = teamJobsOf(app.db);
  let written = 0;
  for (const link of links) {
    if (!open.has(link.team_job_id)) continue;
    await reportTeamOutcomes(app, jobs, link.local_job_id);
    written++;
  }
  return written;
}

/** The loop of one app (`app.service(createTeamOutcomeRetry)`); stops with the app. */
export function createTeamOutcomeRetry(app: App): PeriodicPass {
  // The outcomes of every job linked to a team job: a spreadsheet's, or an approved single purchase bought here.
  return periodicPass(app, TEAM_OUTCOMES_EVERY_MS, () => writePendingTeamOutcomes(app));
}

/** Starts the loop of this app (idempotent). */
export function startTeamOutcomeRetry(app: AppPart<'service'>): void {
  const loop = app.service(createTeamOutcomeRetry);
  if (!loop.running) loop.start();
}
