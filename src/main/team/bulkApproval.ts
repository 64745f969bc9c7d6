/**
 * Maker-checker for bulk jobs on a LIVE connection when this desktop is joined to a team:
 *
 * - Confirming a job the first time sends it for approval (the team's `prepare_bulk_job`, with the
 *   preview an approver sees): the job waits in the state `awaiting_approval`; nothing is bought.
 * - Confirming (or resuming) it again proceeds only once another member approved it, and only if
 *   the job is still what was approved (same items, same total).
 * - While it runs, each item is claimed in the team database before its request leaves
 *   (`claimBeforeSend`): a row the same spreadsheet's other job already claimed (on any desktop)
 *   is not sent here.
 *
 * The bulk service asks its gate (`buying/teamGate.ts`, which `team/teamGates.ts` fills):
 * `teamApprovalFor` at confirm and `claimBeforeSend` when it builds a runner; a desktop that never
 * joined a team, or a sandbox connection, is untouched.
 */
import type pg from 'pg';
import { AppError } from '../../shared/appError';
import type { TeamJobPreview } from '../../shared/contract/team';
import { formatNaira } from '../../shared/money';
import type { AppPart, Session } from '../appContext';
import type { TeamApproval } from '../buying/teamGate';
import type { LogReader } from '../api/logLookup';
import type { ItemRow, JobRow } from '../buying/jobRows';
import type { TeamJobs } from '../buying/teamJobs';
import { checkItemsDigest, itemsDigest } from './itemsDigest';
import { teamItem, teamJobPayload } from './teamRunSpec';
import { sentElsewhereSettler, type SentElsewhere } from './sentElsewhere';
import { teamWorkspace } from './teamWorkspace';
import { callTeam } from './teamCall';

const PREVIEW_ROWS = 500;

interface LinkRow {
  local_job_id: string;
  team_job_id: string;
  team_url: string;
  total_kobo: number;
  items: number;
}

function linkOf(app: AppPart<'db'>, localJobId: string): LinkRow | undefined {
  return app.db.prepare('SELECT * FROM team_job_links WHERE local_job_id = ?').get(localJobId) as LinkRow | undefined;
}

/** The digest of the rows a local job buys (all but the duplicates left out), read a page at a time. */
function localItemsDigest(jobs: TeamJobs, localJobId: string): string {
  const PAGE = 5_000;
  function* rows(): Generator<ReturnType<typeof teamItem>> {
    for (let offset = 0; ; offset += PAGE) {
      const page = jobs.items(localJobId, { offset, limit: PAGE });
      for (const i of page) if (i.state !== 'excluded') yield teamItem(i);
      if (page.length < PAGE) return;
    }
  }
  return itemsDigest(rows());
}

/** The team job a local job was sent for approval as, or null. */
export function teamJobIdOf(app: AppPart<'db'>, localJobId: string): string | null {
  return linkOf(app, localJobId)?.team_job_id ?? null;
}

/** Whether a job must go through the team: a LIVE connection on a desktop joined to a team. */
function teamApplies(app: AppPart<'service'>, job: JobRow): boolean {
  return job.connection_kind === 'live' && teamWorkspace(app).link() !== null;
}

function waitingMessage(localJobId: string, teamJobId: string, who: string | null): string {
  return `Bulk job ${localJobId} waits for approval by another team member (team job ${teamJobId}${who ? `, prepared by ${who}` : ''}). Nothing was bought.`;
}

/** Where a job stands with the team (see the file's comment). Throws when it was rejected or cancelled, or changed since it was approved. */
export async function teamApprovalFor(
  app: AppPart<'db' | 'service'>,
  jobs: TeamJobs,
  job: JobRow,
  current: { totalKobo: number; items: number },
  session: Session,
): Promise<TeamApproval> {
  const link = linkOf(app, job.id);
  if (!link && !teamApplies(app, job)) return { status: 'none' };
  const team = teamWorkspace(app);
  if (!link) {
    return {
      status: 'unsent',
      async submit(figures) {
        const desktop = team.desktop();
        const rows = jobs.items(job.id, { states: ['queued'], limit: PREVIEW_ROWS });
        const preview: TeamJobPreview = {
          kind: job.kind,
          rows: rows.map((i) => ({
            row: i.row_number,
            phone: i.phone,
            network: i.network || null,
            product: i.product_code || i.description || job.kind,
            amountKobo: i.amount_kobo,
          })),
          moreRows: Math.max(0, figures.items - rows.length),
        };
        const sha = /^[0-9a-f]{64}$/.test(job.file_hash) ? job.file_hash : null;
        // The job stores its items and run spec: the database checks the preview against them, the
        // approver sees them, and another team desktop can run it (teamJobRun.ts).
        const payload = await teamJobPayload(session, job, jobs.items(job.id, { states: ['queued'] }));
        const teamJobId = await team.withClient(async (client) => {
          const r = await callTeam<'prepare_bulk_job', { id: string }>(
            client,
            'prepare_bulk_job',
            {
              desktopId: desktop.id,
              desktopName: desktop.name,
              localJobId: job.id,
              fileName: job.file_name,
              fileSha256: sha,
              repeat: false,
              itemCount: figures.items,
              totalKobo: figures.totalKobo,
              walletKobo: figures.walletKobo,
              preview: JSON.stringify(preview),
              runSpec: JSON.stringify(payload.runSpec),
              items: JSON.stringify(payload.items),
            },
            { columns: 'id' },
          );
          return r.rows[0].id;
        });
        // The job waits in its own state, linked to its team job, in one transaction.
        jobs.awaitApproval(job.id, waitingMessage(job.id, teamJobId, null), () =>
          app.db
            .prepare('INSERT INTO team_job_links (local_job_id, team_job_id, team_url, total_kobo, items, created_at) VALUES (?, ?, ?, ?, ?, ?)')
            .run(job.id, teamJobId, team.link()?.url ?? '', figures.totalKobo, figures.items, new Date().toISOString()),
        );
      },
    };
  }
  const teamJob = await team.job(link.team_job_id);
  switch (teamJob.state) {
    case 'awaiting_approval':
      return { status: 'waiting', message: waitingMessage(job.id, teamJob.id, teamJob.preparedBy) };
    case 'rejected':
      throw new AppError(
        'approval_rejected',
        `Team job ${teamJob.id} was rejected by ${teamJob.decidedBy ?? 'an approver'}: ${teamJob.decisionNote ?? ''}. Nothing was bought.`,
        'Correct the spreadsheet and prepare a new job, or discard this one.',
      );
    case 'cancelled':
      throw new AppError('approval_cancelled', `Team job ${teamJob.id} was cancelled. Nothing was bought.`, 'Prepare a new job if it is still wanted.');
    default:
      break;
  }
  if (current.totalKobo !== link.total_kobo || current.items !== link.items) {
    throw new AppError(
      'approval_mismatch',
      `This job changed after it was sent for approval: it now buys ${current.items} item(s) for ${formatNaira(current.totalKobo)}, but ${link.items} item(s) for ${formatNaira(link.total_kobo)} were approved. Nothing was bought.`,
      'Prepare the job again from the spreadsheet and send it for approval.',
    );
  }
  checkItemsDigest(teamJob.id, teamJob.itemsDigest, localItemsDigest(jobs, job.id), `The rows of bulk job ${job.id}`);
  return { status: 'approved' };
}

/**
 * The runner's hook before a batch leaves: claims each item (by its spreadsheet row) in the team
 * database, and returns the items this desktop may send. An item another job already claimed is
 * rejected here with the reason (nothing is charged for it); one this job claimed with another
 * request (another desktop running it) is settled from the log, never resent (sentElsewhere.ts).
 * Undefined when the job was never sent for approval.
 */
export function claimBeforeSend(app: AppPart<'db' | 'service'>, jobs: TeamJobs, job: JobRow, log: LogReader): ((batch: ItemRow[]) => Promise<ItemRow[]>) | undefined {
  const link = linkOf(app, job.id);
  if (!link) return undefined;
  const team = teamWorkspace(app);
  const desktop = team.desktop();
  let checked = false;
  const ownRefs = `${desktop.id}:${job.id}:`;
  // One read of the log settles the rows other requests claimed, for the whole run (sentElsewhere.ts).
  const settleElsewhere = sentElsewhereSettler(app, jobs, job, log, async () => {
    const r = await team.withClient((client) =>
      client.query<{ earliest: string | null; now: string; n: number }>(
        'SELECT (extract(epoch FROM min(claimed_at)) * 1000)::bigint::text AS earliest, (extract(epoch FROM now()) * 1000)::bigint::text AS now, count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1 AND left(request_ref, length($2)) <> $2',
        [link.team_job_id, ownRefs],
      ),
    );
    return { earliestMs: r.rows[0].earliest === null ? null : Number(r.rows[0].earliest), nowMs: Number(r.rows[0].now), count: r.rows[0].n };
  });
  return async (batch) => {
    if (!checked) {
      // Before the first request of this run leaves: the rows here are the rows approved; and a job
      // another member prepared is adopted by this desktop (an adopt row), which lets it finish the job.
      const local = localItemsDigest(jobs, job.id);
      await team.withClient(async (client) => {
        const r = await client.query<{ d: string | null; state: string; own: boolean }>(
          'SELECT items_digest AS d, state, prepared_by = session_user AS own FROM vendesk.jobs WHERE id = $1',
          [link.team_job_id],
        );
        const teamJob = r.rows[0];
        checkItemsDigest(link.team_job_id, teamJob?.d ?? null, local, `The rows of bulk job ${job.id}`);
        if (!teamJob.own && (teamJob.state === 'approved' || teamJob.state === 'running')) {
          await callTeam(client, 'adopt_job', { jobId: link.team_job_id, desktopId: desktop.id, desktopName: desktop.name });
        }
      }, 'adopt');
      checked = true;
    }
    const mine: ItemRow[] = [];
    const elsewhere: SentElsewhere[] = [];
    await team.withClient(async (client) => {
      for (const item of batch) {
        const ref = `${ownRefs}${item.seq}`;
        const r = await callTeam<'claim_item', { job_id: string; request_ref: string; claimed_by: string; desktop_id: string; claimed_ms: string }>(
          client,
          'claim_item',
          // What is about to be sent, as the team database stores it: it refuses anything but the approved row.
          {
            jobId: link.team_job_id,
            itemIndex: item.row_number,
            amountKobo: item.amount_kobo,
            item: JSON.stringify(teamItem(item)),
            requestRef: ref,
            desktopId: desktop.id,
            desktopName: desktop.name,
          },
          { columns: 'job_id::text, request_ref, claimed_by, desktop_id, (extract(epoch FROM claimed_at) * 1000)::bigint::text AS claimed_ms' },
        );
        const claim = r.rows[0];
        if (claim.request_ref === ref) mine.push(item);
        else if (claim.job_id === link.team_job_id) {
          elsewhere.push({ item, claim: { desktopId: claim.desktop_id, claimedBy: claim.claimed_by, claimedMs: Number(claim.claimed_ms) } });
        } else {
          jobs.refuse(
            job.id,
            [item.seq],
            `Not sent: row ${item.row_number} of this spreadsheet was already sent by team job ${claim.job_id} (by ${claim.claimed_by}). Nothing was charged for it here.`,
          );
        }
      }
    }, 'claim');
    await settleElsewhere(elsewhere);
    return mine;
  };
}

/**
 * Writes the outcomes this desktop learned back to the team database: each claim of the job this
 * member made that is still open there is settled as the local item stands (success → succeeded;
 * failed, refused or not bought → failed; anything still open is left) — another member's claims
 * are theirs to settle — and the team job is finished once the local job completes (or is
 * cancelled on its preparer's desktop: cancelled where it was adopted, it stays open for the
 * preparer). Never throws: what the database could not take now is written on the next follow-up.
 */
export async function reportTeamOutcomes(app: AppPart<'db' | 'service'>, jobs: TeamJobs, localJobId: string): Promise<void> {
  const link = linkOf(app, localJobId);
  if (!link) return;
  const team = teamWorkspace(app);
  const desktop = team.desktop();
  try {
    await team.withClient(async (client) => {
      const open = await client.query<{ item_index: number }>(
        "SELECT item_index FROM vendesk.item_claims WHERE job_id = $1 AND outcome IN ('claimed', 'uncertain') AND claimed_by = session_user",
        [link.team_job_id],
      );
      const job = jobs.job(localJobId);
      if (open.rows.length > 0) {
        const items = jobs.items(localJobId);
        // A spreadsheet's rows are claimed by row; a single purchase's one item is item 1 of its team job.
        const byRow = new Map(job?.origin === 'single' ? [[1, items[0]]] : items.map((i) => [i.row_number, i]));
        for (const { item_index: row } of open.rows) {
          const state = byRow.get(row)?.state;
          const outcome = state === 'success' ? 'succeeded' : state === 'failed' || state === 'rejected' || state === 'cancelled' ? 'failed' : null;
          if (outcome) await callTeam(client, 'settle_item', { jobId: link.team_job_id, itemIndex: row, outcome, desktopId: desktop.id, desktopName: desktop.name });
        }
      }
      const ends = job?.state === 'completed' || (job?.state === 'cancelled' && (await preparedBySessionUser(client, link.team_job_id)));
      if (ends) await callTeam(client, 'finish_job', { jobId: link.team_job_id, desktopId: desktop.id, desktopName: desktop.name });
    });
  } catch {
    // The team database is unreachable or refused: tried again on the next follow-up of this job.
  }
}

/** Whether the signed-in member prepared the team job. */
async function preparedBySessionUser(client: pg.ClientBase, teamJobId: string): Promise<boolean> {
  const r = await client.query<{ own: boolean }>('SELECT prepared_by = session_user AS own FROM vendesk.jobs WHERE id = $1', [teamJobId]);
  return r.rows[0]?.own === true;
}

/**
 * Before a draft that was sent for approval is discarded here: its team job is cancelled, so no
 * approver is left deciding a job nobody will run. One already decided, rejected or cancelled is
 * left as it is. Throws (and the draft is kept) when the team database cannot be told.
 */
export async function cancelSentForApproval(app: AppPart<'db' | 'service'>, localJobId: string): Promise<void> {
  const link = linkOf(app, localJobId);
  if (!link) return;
  const team = teamWorkspace(app);
  const desktop = team.desktop();
  const teamJob = await team.job(link.team_job_id);
  if (teamJob.state !== 'awaiting_approval' && teamJob.state !== 'approved') return;
  // A job adopted from another desktop's preparer (teamJobRun.ts) stays theirs: discarding it here only forgets it here.
  if (teamJob.preparedBy !== team.link()?.user) return;
  await team.withClient((client) => callTeam(client, 'cancel_job', { jobId: link.team_job_id, desktopId: desktop.id, desktopName: desktop.name }));
}
