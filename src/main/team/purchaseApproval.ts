/**
 * Maker-checker for single purchases (airtime, data, electricity, cable TV) on a LIVE connection
 * when this desktop is joined to a team and the team's admin set an amount above which a single
 * purchase needs approval (`team_settings.single_purchase_approval_kobo`).
 *
 * Each single purchase asks its gate (`single` of `buying/teamGate.ts`, which `team/teamGates.ts`
 * fills) once everything about it is checked, just before its job is written and sent (a bulk
 * row never asks: it has its job's approval):
 * - No team applies (sandbox, not joined, no threshold, or the amount is not above it): `none`,
 *   and it is bought as before.
 * - Above the threshold, the first time: it is sent for approval as a team job of kind `single`
 *   with one item, and its own job of one item is written waiting in `awaiting_approval`, linked
 *   to that team job in `team_job_links` (with the request exactly as prepared), as a
 *   spreadsheet's job is, all by this one call; the purchase answers `awaiting_approval`: nothing
 *   is bought.
 * - The same purchase asked again (the same kind, number/meter/smartcard and amount), or resumed
 *   by its team job id (`purchases.resume`): while it waits, `awaiting_approval` again (no second
 *   team job); rejected or cancelled, it says so, its job is cancelled (nothing bought) and the
 *   next try prepares it anew; approved, the item is claimed in the team database (one claim per
 *   team job, so another desktop cannot buy it too) and the caller buys it as its waiting job,
 *   begun from `awaiting_approval` once (`JobLifecycle.beginApprovedSingle`, before its request
 *   leaves). A second attempt (a retry, a second window, a second process) finds it begun and buys
 *   nothing; one whose run stopped before its item left waits to be bought again, as approved.
 * If the team database cannot be reached when the threshold must be read, the purchase is
 * refused (nothing is bought): a purchase that may need approval is never bought without it.
 */
import { AppError } from '../../shared/appError';
import type { WaitingPurchaseView } from '../../shared/contract/purchases';
import { awaitingApprovalHint, type SinglePurchaseKind, type SinglePurchaseSummary, type TeamJobPreview } from '../../shared/contract/team';
import { formatNaira } from '../../shared/money';
import type { App, AppPart, Connection, Session } from '../appContext';
import { approvalBegun, type SingleApproval, type SingleGateOptions, type SinglePurchase } from '../buying/teamGate';
import { singleJobName } from '../buying/singleTopUp';
import { createBulkService } from '../buying/bulkService';
import type { ItemState, JobState } from '../buying/jobStates';
import { walletKoboOrNull } from '../transactions/balanceSnapshots';
import { checkItemsDigest, itemsDigest, type DigestItem } from './itemsDigest';
import { teamWorkspace } from './teamWorkspace';
import { callTeam } from './teamCall';

/** A single purchase sent for approval from this desktop: its link, its job and its one item. */
export interface SingleLink {
  local_job_id: string;
  team_job_id: string;
  request: string;
  profile_id: string;
  kind: SinglePurchaseKind;
  job_state: JobState;
  /** The meter or smartcard, or the phone number of airtime and data. */
  account: string;
  amount_kobo: number;
  description: string;
  item_state: ItemState;
  sent_ms: number | null;
  purchase_id: string | null;
}

const SINGLE_LINKS = `SELECT l.local_job_id, l.team_job_id, l.request, j.profile_id, j.kind, j.state AS job_state, coalesce(i.account, i.phone) AS account,
    i.amount_kobo, i.description, i.state AS item_state, i.sent_ms, i.purchase_id
  FROM team_job_links l JOIN bulk_jobs j ON j.id = l.local_job_id JOIN bulk_items i ON i.job_id = j.id AND i.seq = 1
  WHERE j.origin = 'single' AND l.request IS NOT NULL`;

export function singleLink(app: AppPart<'db'>, teamJobId: string): SingleLink | undefined {
  return app.db.prepare(`${SINGLE_LINKS} AND l.team_job_id = ?`).get(teamJobId) as SingleLink | undefined;
}

function matchingWaiting(app: AppPart<'db'>, connection: Connection, p: SinglePurchase): SingleLink | undefined {
  return app.db
    .prepare(
      `${SINGLE_LINKS} AND j.profile_id = ? AND j.state = 'awaiting_approval' AND j.kind = ? AND coalesce(i.account, i.phone) = ? AND i.amount_kobo = ? ORDER BY j.created_at DESC LIMIT 1`,
    )
    .get(connection.profileId, p.kind, p.account, p.amountKobo) as SingleLink | undefined;
}

/**
 * What the purchase was bought as, once its item left: its `purchases` row (electricity, cable)
 * or its job (airtime, data, whose receipt is the job's). Null while it was never sent.
 */
export function boughtAs(link: SingleLink): string | null {
  if (link.purchase_id) return link.purchase_id;
  if (link.item_state === 'queued' || (link.item_state === 'cancelled' && link.sent_ms === null)) return null;
  return link.kind === 'electricity' || link.kind === 'cable' ? null : link.local_job_id;
}

function what(p: Pick<SinglePurchaseSummary, 'amountKobo' | 'description' | 'account'>): string {
  return `${formatNaira(p.amountKobo)} of ${p.description} for ${p.account}`;
}

/** The purchase waiting for approval, as `purchases.buy*` answer it. */
function waiting(
  teamJobId: string,
  jobId: string,
  p: Pick<SinglePurchaseSummary, 'kind' | 'amountKobo' | 'description' | 'account'>,
  thresholdKobo: number | null,
): WaitingPurchaseView {
  const above = thresholdKobo === null ? '' : `: it is above the team's ${formatNaira(thresholdKobo)} for a single purchase`;
  return {
    state: 'awaiting_approval',
    teamJobId,
    jobId,
    kind: p.kind,
    amountKobo: p.amountKobo,
    description: p.description,
    account: p.account,
    message: `The purchase of ${what(p)} waits for approval by another team member${above} (team job ${teamJobId}). Nothing was bought.`,
    hint: awaitingApprovalHint('purchase'),
  };
}

/** A purchase the team will not have bought (rejected, cancelled): its waiting job ends, nothing bought. */
function close(app: AppPart<'service'>, link: SingleLink, reason: string): void {
  app.service(createBulkService).teamJobs.closeWaiting(link.local_job_id, reason);
}

/** The team's threshold, read now; refuses (nothing bought) when the database cannot say. */
async function thresholdKobo(app: AppPart<'service'>): Promise<number | null> {
  try {
    return await teamWorkspace(app).withClient(async (client) => {
      const r = await client.query<{ value: number | null }>("SELECT value FROM vendesk.team_settings WHERE key = 'single_purchase_approval_kobo'");
      return r.rows[0]?.value ?? null;
    });
  } catch (error) {
    const e = error instanceof AppError ? error : new AppError('team_database', String(error));
    throw new AppError(
      e.code,
      `${e.message} vendesk could not check whether this purchase needs a team member's approval, so nothing was bought.`,
      `${e.hint ?? ''} Buy again once the team database answers (or leave the team on this desktop: \`vendesk team leave\`).`.trim(),
    );
  }
}

/** The one item a single purchase's team job stores (row 1): what is bought, for whom, for how much. */
export function singleItem(p: Pick<SinglePurchaseSummary, 'kind' | 'account' | 'phone' | 'amountKobo' | 'description'>): DigestItem {
  return { rowNumber: 1, phone: p.phone, account: p.account, network: p.kind, productCode: p.description, amountKobo: p.amountKobo };
}

/** Sends the purchase for approval and writes its job waiting, on `session`'s connection; nothing is bought. */
async function prepare(app: App, session: Session, p: SinglePurchase, threshold: number): Promise<WaitingPurchaseView> {
  const team = teamWorkspace(app);
  const desktop = team.desktop();
  const summary: SinglePurchaseSummary = { kind: p.kind, account: p.account, phone: p.phone, amountKobo: p.amountKobo, description: p.description, customerName: p.customerName };
  const preview: TeamJobPreview = {
    kind: p.kind,
    rows: [{ row: 1, phone: p.phone, network: null, product: p.description, amountKobo: p.amountKobo }],
    moreRows: 0,
    purchase: summary,
  };
  const wallet = await walletKoboOrNull(app, 'purchase', session);
  const teamJobId = await team.withClient(async (client) => {
    const r = await callTeam<'prepare_single_job', { id: string }>(
      client,
      'prepare_single_job',
      {
        desktopId: desktop.id,
        desktopName: desktop.name,
        fileName: singleJobName(p),
        walletKobo: wallet,
        preview: JSON.stringify(preview),
        item: JSON.stringify(singleItem(p)),
      },
      { columns: 'id' },
    );
    return r.rows[0].id;
  });
  const { message } = waiting(teamJobId, '', p, threshold);
  const jobId = app
    .service(createBulkService)
    .teamJobs.createWaitingSingle(p.kind, session.connection, singleJobName(p), p.item, message, (id) =>
      app.db
        .prepare('INSERT INTO team_job_links (local_job_id, team_job_id, team_url, total_kobo, items, created_at, request) VALUES (?, ?, ?, ?, 1, ?, ?)')
        .run(id, teamJobId, team.link()?.url ?? '', p.amountKobo, new Date().toISOString(), JSON.stringify(p.request)),
    );
  return waiting(teamJobId, jobId, p, threshold);
}

/**
 * A purchase whose job left `awaiting_approval` is never bought again: one whose run stopped before
 * its item left waits again (and is bought from there); otherwise says whether it was bought (and
 * where its receipt is), is being bought now, or ended without being bought. Returns the link as
 * it stands, waiting.
 */
function stillWaiting(app: AppPart<'db' | 'service'>, connection: Connection, link: SingleLink): SingleLink {
  if (link.job_state === 'awaiting_approval') return link;
  const bulk = app.service(createBulkService);
  // A run no process holds any more (its vendesk stopped) counts as stopped at once, its lease unexpired or not.
  const interrupted = link.job_state === 'running' && bulk.status(connection, link.local_job_id).interrupted;
  if (bulk.teamJobs.backToApproval(link.local_job_id, `Approved, but not sent: its run stopped before it was sent (team job ${link.team_job_id}).`, interrupted)) {
    return singleLink(app, link.team_job_id) ?? link;
  }
  const bought = boughtAs(link);
  if (bought) {
    throw new AppError(
      'approval_used',
      `Team job ${link.team_job_id} was bought already (purchase ${bought}). Nothing more was bought.`,
      `See its receipt: \`vendesk purchases resume ${link.team_job_id}\`.`,
    );
  }
  if (link.job_state === 'cancelled' || link.job_state === 'completed') {
    throw new AppError('approval_used', `Team job ${link.team_job_id} was rejected, cancelled or used. Nothing was bought.`, 'Buy it again to send it for approval again.');
  }
  throw approvalBegun(link.team_job_id);
}

/** See the file's comment. On `session`: the connection the purchase is checked and bought on. */
export async function gateSinglePurchase(app: App, p: SinglePurchase, session: Session, options: SingleGateOptions = {}): Promise<SingleApproval> {
  // A sandbox purchase never waits for a team's approval.
  if (options.approvedTeamJob === undefined && session.connection.kind !== 'live') return { status: 'none' };
  const team = teamWorkspace(app);
  if (options.approvedTeamJob === undefined && team.link() === null) return { status: 'none' };
  let found: SingleLink | undefined;
  if (options.approvedTeamJob !== undefined) {
    found = singleLink(app, options.approvedTeamJob);
    if (!found || found.profile_id !== session.connection.profileId) {
      throw new AppError(
        'team_job_not_found',
        `No single purchase of this connection waits for team job ${options.approvedTeamJob}.`,
        'Check the id (`vendesk approvals --state all`) and the connection in use.',
      );
    }
    if (found.kind !== p.kind || found.account !== p.account || found.amount_kobo !== p.amountKobo) {
      throw new AppError(
        'approval_mismatch',
        `${what({ amountKobo: found.amount_kobo, description: found.description, account: found.account })} was approved, but the purchase is now ${what(p)}. Nothing was bought.`,
        'Buy it again as it is now: it is sent for approval again when it is above the team threshold.',
      );
    }
  } else {
    found = matchingWaiting(app, session.connection, p);
  }
  if (!found) {
    const threshold = await thresholdKobo(app);
    if (threshold === null || p.amountKobo <= threshold) return { status: 'none' };
    return { status: 'waiting', waiting: await prepare(app, session, p, threshold) };
  }
  const link = stillWaiting(app, session.connection, found);
  const teamJob = await team.job(link.team_job_id);
  // Another attempt on this desktop (a retry, a second window) may have bought it while the team
  // was asked: a team job finished by that purchase says so, not "nothing was bought".
  stillWaiting(app, session.connection, singleLink(app, link.team_job_id) ?? link);
  switch (teamJob.state) {
    case 'awaiting_approval':
      return { status: 'waiting', waiting: waiting(teamJob.id, link.local_job_id, p, null) };
    case 'rejected': {
      const why = `The purchase of ${what(p)} was rejected by ${teamJob.decidedBy ?? 'an approver'}: ${teamJob.decisionNote ?? ''}. Nothing was bought.`;
      close(app, link, why);
      throw new AppError('approval_rejected', why, 'Buy it again only if it is still wanted: it is sent for approval again.');
    }
    case 'cancelled':
    case 'finished': {
      const why = `Team job ${teamJob.id} is ${teamJob.state}. Nothing was bought.`;
      close(app, link, why);
      throw new AppError('approval_cancelled', why, 'Buy it again to send it for approval again.');
    }
    default:
      break;
  }
  // Approved: what is bought now must be the item the approver approved.
  checkItemsDigest(teamJob.id, teamJob.itemsDigest, itemsDigest([singleItem(p)]), `The purchase of ${what(p)}`);
  // Approved: claim the one item. The reference is the same for every attempt on this desktop,
  // so a retry after a crash finds its own claim; another desktop's claim stops it here.
  const desktop = team.desktop();
  const ref = `${desktop.id}:single:${link.team_job_id}`;
  const claim = await team.withClient(async (client) => {
    const r = await callTeam<'claim_item', { request_ref: string; desktop_id: string }>(
      client,
      'claim_item',
      {
        jobId: link.team_job_id,
        itemIndex: 1,
        amountKobo: link.amount_kobo,
        // What is about to be bought: the team database refuses anything but the approved item.
        item: JSON.stringify(singleItem(p)),
        requestRef: ref,
        desktopId: desktop.id,
        desktopName: desktop.name,
      },
      { columns: 'request_ref, desktop_id' },
    );
    return r.rows[0];
  }, 'claim');
  if (claim.request_ref !== ref) {
    throw new AppError(
      'approval_used',
      `Team job ${link.team_job_id} was already bought from another desktop (${claim.desktop_id}). Nothing was bought here.`,
      'See `vendesk approvals --state all`.',
    );
  }
  return { status: 'approved', jobId: link.local_job_id, teamJobId: link.team_job_id };
}
