/**
 * An approved team job runs on any team desktop that holds a token for the same organisation
 * (issue 18), not only on the preparer's:
 *
 * - `teamJobPayload` (teamRunSpec.ts) is what the preparer's desktop stores in PostgreSQL at prepare time (through
 *   `prepare_bulk_job`, team schema 003): every item the job buys (spreadsheet row, recipient,
 *   amount, plan, meter or smartcard fields) and the run spec — which service (base URL) and which
 *   organisation (the NGN wallet's account number and name) it was prepared for, the bulk kind,
 *   the sheet and its columns.
 * - `adoptTeamJob` makes a local job on another desktop from those items, linked to the same team
 *   job, and runs it through the bulk service's approved path. It refuses a desktop connected to
 *   another service or organisation (`team_other_organisation`): a team job's rows are bought from
 *   the wallet the approver saw.
 *
 * Running it twice (two desktops, or one after the other) buys nothing twice: each row is claimed
 * in PostgreSQL by spreadsheet row, file hash and the row's content before it is sent, and a row
 * another desktop claimed for this team job is settled here from the service's log, never sent
 * again (`claimBeforeSend` in bulkApproval.ts, sentElsewhere.ts). Before its first claim this
 * desktop adopts the job (`adopt_job`, team schema 7), which lets it finish the team job once every
 * row is claimed.
 */
import { AppError } from '../../shared/appError';
import type { BulkJobView } from '../../shared/contract/bulk';
import type { App, AppPart, Session } from '../appContext';
import { createBulkService } from '../buying/bulkService';
import { awaitingApproval } from './awaitingApproval';
import { serviceIdentity, type TeamItem, type TeamRunSpec } from './teamRunSpec';
import { teamWorkspace } from './teamWorkspace';

interface AdoptableRecord {
  id: string;
  state: string;
  file_name: string | null;
  file_sha256: string | null;
  item_count: number;
  total_kobo: string;
  prepared_by: string;
  desktop_name: string;
  run_spec: TeamRunSpec | null;
}

/** The local job this desktop runs a team job as, if it has one. */
function localJobOf(app: AppPart<'db'>, teamJobId: string): string | null {
  const row = app.db.prepare('SELECT local_job_id FROM team_job_links WHERE team_job_id = ?').get(teamJobId) as { local_job_id: string } | undefined;
  return row?.local_job_id ?? null;
}

function otherOrganisation(what: string): AppError {
  return new AppError(
    'team_other_organisation',
    `This desktop cannot run the team job: ${what} Nothing was bought.`,
    'Connect to the same service with a token of the organisation the job was prepared for (Settings → Connection profiles, or --base-url and VENDESK_TOKEN), or run it on the preparer’s desktop.',
  );
}

/** Refuses a desktop connected to another service or organisation than the one the job was prepared for. */
async function checkSameOrganisation(session: Session, spec: TeamRunSpec, preparedOn: string): Promise<void> {
  const here = await serviceIdentity(session);
  if (session.connection.kind !== 'live') {
    throw otherOrganisation(`it was prepared on a LIVE connection (${spec.baseUrl}) and this desktop uses the sandbox.`);
  }
  if (here.baseUrl !== spec.baseUrl) {
    throw otherOrganisation(`it was prepared for the service at ${spec.baseUrl} (on ${preparedOn}) and this desktop is connected to ${here.baseUrl}.`);
  }
  if (spec.accountNumber === null) {
    throw otherOrganisation(`its organisation was not recorded when it was prepared (the wallet could not be read then), so it cannot be checked here.`);
  }
  if (here.accountNumber === null) {
    throw otherOrganisation('the wallet of this connection could not be read, so its organisation cannot be checked. Check the connection and try again.');
  }
  if (here.accountNumber !== spec.accountNumber) {
    throw otherOrganisation(
      `it was prepared for ${spec.accountName ?? 'another organisation'} (wallet account ${spec.accountNumber}) and this desktop's token is for ${here.accountName ?? 'another organisation'} (wallet account ${here.accountNumber}).`,
    );
  }
}

async function readAdoptable(app: AppPart<'service'>, teamJobId: string): Promise<{ job: AdoptableRecord; items: TeamItem[] }> {
  return teamWorkspace(app).withClient(async (client) => {
    const r = await client.query<AdoptableRecord>(
      'SELECT id::text, state, file_name, file_sha256, item_count, total_kobo::text, prepared_by, desktop_name, run_spec FROM vendesk.jobs WHERE id::text = $1',
      [teamJobId],
    );
    if (r.rows.length === 0) throw new AppError('team_job_not_found', `There is no team job ${teamJobId}.`, 'Check the job id (run `vendesk approvals --state all`).');
    // The cost centre is kept in its own column (team schema 9), not in the item.
    const items = await client.query<{ item: TeamItem }>(
      "SELECT item || jsonb_build_object('costCentre', cost_centre) AS item FROM vendesk.job_items WHERE job_id = $1 ORDER BY seq",
      [teamJobId],
    );
    return { job: r.rows[0], items: items.rows.map((i) => i.item) };
  });
}

function notRunnable(job: AdoptableRecord): AppError | null {
  switch (job.state) {
    case 'approved':
    case 'running':
      return null;
    case 'awaiting_approval':
      return awaitingApproval(`Team job ${job.id} (prepared by ${job.prepared_by}) still waits for approval. Nothing was bought.`, { teamJobId: job.id, next: 'adopt' });
    case 'finished':
      return new AppError(
        'team_job_state',
        `Team job ${job.id} is finished: every row has been sent. Nothing was bought.`,
        'See its rows with `vendesk approvals --state all`, or on the desktop that ran it.',
      );
    default:
      return new AppError('team_job_state', `Team job ${job.id} was ${job.state}. Nothing was bought.`, 'Prepare a new job if it is still wanted.');
  }
}

/**
 * Runs an approved team job on this desktop: the local job already linked to it (the preparer's,
 * or one adopted before) is resumed; otherwise one is made from the items stored at prepare time,
 * after checking this desktop is connected to the same service and organisation.
 */
export async function adoptTeamJob(app: App, session: Session, teamJobId: string, wait: boolean): Promise<BulkJobView> {
  // Checked against the organisation on `session`'s connection, and run there or not at all.
  const bulk = app.service(createBulkService);
  const existing = localJobOf(app, teamJobId);
  if (existing) return bulk.resume(session, existing, wait);
  const team = teamWorkspace(app);
  const { job, items } = await readAdoptable(app, teamJobId);
  const refusal = notRunnable(job);
  if (refusal) throw refusal;
  if (!job.run_spec || items.length !== job.item_count) {
    throw new AppError(
      'team_job_not_runnable_here',
      `Team job ${job.id} can only run on the desktop it was prepared on (${job.desktop_name}): its rows are not in the team database (it was prepared by an older vendesk). Nothing was bought.`,
      `Run it there with \`vendesk bulk resume\`, or prepare the spreadsheet again on this desktop and send it for approval.`,
    );
  }
  await checkSameOrganisation(session, job.run_spec, job.desktop_name);
  session.refuseIfSwitched();
  const spec = job.run_spec;
  const settings = bulk.settingsView(session.connection);
  const c = session.connection;
  // Linked to the team job, it waits as the preparer's job does, and is confirmed from there (approved: it runs).
  const localId = bulk.teamJobs.createWaiting(
    {
      kind: spec.bulkKind,
      profileId: c.profileId,
      connectionKind: c.kind,
      baseUrl: c.baseUrl,
      fileName: job.file_name ?? `team job ${job.id}`,
      fileHash: job.file_sha256 ?? `team:${job.id}`,
      sheetName: spec.sheetName,
      headers: spec.headers,
      mapping: spec.mapping,
      rowsTotal: spec.rowsTotal,
      batchSize: settings.batchSize,
      concurrency: settings.concurrency,
    },
    items.map((i) => ({ ...i, duplicateOf: null, state: 'queued' as const })),
    (localId) => `Bulk job ${localId} runs team job ${job.id}, prepared by ${job.prepared_by} on ${job.desktop_name}. Nothing was bought yet.`,
    (localId) =>
      app.db
        .prepare('INSERT INTO team_job_links (local_job_id, team_job_id, team_url, total_kobo, items, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(localId, job.id, team.link()?.url ?? '', Number(job.total_kobo), job.item_count, new Date().toISOString()),
  );
  return bulk.resume(session, localId, wait);
}
