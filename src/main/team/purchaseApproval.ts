/**
 * Maker-checker for single purchases (airtime, data, electricity, cable TV) on a LIVE connection
 * when this desktop is joined to a team and the team's admin set an amount above which a single
 * purchase needs approval (`team_settings.single_purchase_approval_kobo`).
 *
 * Each single purchase asks its gate (`single` of `bulk/teamGate.ts`, which `team/teamGates.ts`
 * fills) once everything about it is checked, just before its job is written and sent (a bulk
 * row never asks: it has its job's approval):
 * - No team applies (sandbox, not joined, no threshold, or the amount is not above it): `null`,
 *   and it is bought as before.
 * - Above the threshold, the first time: it is sent for approval as a team job of kind `single`
 *   with one item (the request kept here in `team_single_purchases`, exactly as prepared) and the
 *   call stops with `awaiting_approval`: nothing is bought.
 * - The same purchase asked again (the same kind, number/meter/smartcard and amount), or resumed
 *   by its team job id (`purchases.resume`): while it waits, `awaiting_approval` again (no second
 *   team job); rejected or cancelled, it says so and the next try prepares it anew; approved, the
 *   item is claimed in the team database (one claim per team job, so another desktop cannot buy
 *   it too) and the caller buys it, linking its purchase in the transaction that writes the
 *   purchase before the request leaves (`ApprovedBuy.written`). A second attempt (a retry, a
 *   second window, a second process) finds the approval used and buys nothing.
 * If the team database cannot be reached when the threshold must be read, the purchase is
 * refused (nothing is bought): a purchase that may need approval is never bought without it.
 */
import { AppError } from '../../shared/appError';
import type { SinglePurchaseKind, SinglePurchaseSummary, TeamJobPreview } from '../../shared/contract/team';
import { formatNaira } from '../../shared/money';
import type { App, AppPart } from '../appContext';
import type { ApprovedBuy, SingleGateOptions, SinglePurchase } from '../bulk/teamGate';
import { walletKoboOrNull } from '../transactions/balanceSnapshots';
import { awaitingApproval } from './awaitingApproval';
import { checkItemsDigest, itemsDigest, type DigestItem } from './itemsDigest';
import { teamWorkspace } from './teamWorkspace';
import { callTeam } from './teamCall';

export interface HoldRow {
  team_job_id: string;
  profile_id: string;
  kind: SinglePurchaseKind;
  request: string;
  account: string;
  amount_kobo: number;
  description: string;
  state: 'waiting' | 'bought' | 'closed';
  purchase_id: string | null;
  settled_outcome: string | null;
  created_at: string;
}

export function holdRow(app: AppPart<'db'>, teamJobId: string): HoldRow | undefined {
  return app.db.prepare('SELECT * FROM team_single_purchases WHERE team_job_id = ?').get(teamJobId) as HoldRow | undefined;
}

function matchingHold(app: AppPart<'connection' | 'db'>, p: SinglePurchase): HoldRow | undefined {
  return app.db
    .prepare("SELECT * FROM team_single_purchases WHERE profile_id = ? AND kind = ? AND account = ? AND amount_kobo = ? AND state = 'waiting' ORDER BY created_at DESC LIMIT 1")
    .get(app.connection.profileId, p.kind, p.account, p.amountKobo) as HoldRow | undefined;
}

function what(p: Pick<SinglePurchaseSummary, 'amountKobo' | 'description' | 'account'>): string {
  return `${formatNaira(p.amountKobo)} of ${p.description} for ${p.account}`;
}

function awaiting(teamJobId: string, p: Pick<SinglePurchaseSummary, 'amountKobo' | 'description' | 'account'>, thresholdKobo: number | null): AppError {
  const above = thresholdKobo === null ? '' : `: it is above the team's ${formatNaira(thresholdKobo)} for a single purchase`;
  return awaitingApproval(`The purchase of ${what(p)} waits for approval by another team member${above} (team job ${teamJobId}). Nothing was bought.`, {
    teamJobId,
    next: 'purchase',
  });
}

function close(app: AppPart<'db'>, teamJobId: string): void {
  app.db.prepare("UPDATE team_single_purchases SET state = 'closed' WHERE team_job_id = ? AND state = 'waiting'").run(teamJobId);
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

async function prepare(app: App, p: SinglePurchase, threshold: number): Promise<never> {
  const team = teamWorkspace(app);
  const desktop = team.desktop();
  const summary: SinglePurchaseSummary = { kind: p.kind, account: p.account, phone: p.phone, amountKobo: p.amountKobo, description: p.description, customerName: p.customerName };
  const preview: TeamJobPreview = {
    kind: p.kind,
    rows: [{ row: 1, phone: p.phone, network: null, product: p.description, amountKobo: p.amountKobo }],
    moreRows: 0,
    purchase: summary,
  };
  const wallet = await walletKoboOrNull(app, 'purchase');
  const teamJobId = await team.withClient(async (client) => {
    const r = await callTeam<'prepare_single_job', { id: string }>(
      client,
      'prepare_single_job',
      {
        desktopId: desktop.id,
        desktopName: desktop.name,
        fileName: `${p.description} for ${p.account}`,
        walletKobo: wallet,
        preview: JSON.stringify(preview),
        item: JSON.stringify(singleItem(p)),
      },
      { columns: 'id' },
    );
    return r.rows[0].id;
  });
  app.db
    .prepare('INSERT INTO team_single_purchases (team_job_id, profile_id, kind, request, account, amount_kobo, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(teamJobId, app.connection.profileId, p.kind, JSON.stringify(p.request), p.account, p.amountKobo, p.description, new Date().toISOString());
  throw awaiting(teamJobId, p, threshold);
}

/** A hold that was bought or closed is never bought (again): says which, and where its receipt is. */
function refuseSettledHold(hold: HoldRow): void {
  if (hold.state === 'bought') {
    throw new AppError(
      'approval_used',
      `Team job ${hold.team_job_id} was bought already (purchase ${hold.purchase_id}). Nothing more was bought.`,
      `See its receipt: \`vendesk receipt ${hold.purchase_id}\`.`,
    );
  }
  if (hold.state === 'closed') {
    throw new AppError('approval_used', `Team job ${hold.team_job_id} was rejected, cancelled or used. Nothing was bought.`, 'Buy it again to send it for approval again.');
  }
}

/** See the file's comment. */
export async function gateSinglePurchase(app: App, p: SinglePurchase, options: SingleGateOptions = {}): Promise<ApprovedBuy | null> {
  const team = teamWorkspace(app);
  if (options.approvedTeamJob === undefined && (app.connection.kind !== 'live' || team.link() === null)) return null;
  let hold: HoldRow | undefined;
  if (options.approvedTeamJob !== undefined) {
    hold = holdRow(app, options.approvedTeamJob);
    if (!hold || hold.profile_id !== app.connection.profileId) {
      throw new AppError(
        'team_job_not_found',
        `No single purchase of this connection waits for team job ${options.approvedTeamJob}.`,
        'Check the id (`vendesk approvals --state all`) and the connection in use.',
      );
    }
    if (hold.kind !== p.kind || hold.account !== p.account || hold.amount_kobo !== p.amountKobo) {
      throw new AppError(
        'approval_mismatch',
        `${what({ amountKobo: hold.amount_kobo, description: hold.description, account: hold.account })} was approved, but the purchase is now ${what(p)}. Nothing was bought.`,
        'Buy it again as it is now: it is sent for approval again when it is above the team threshold.',
      );
    }
  } else {
    hold = matchingHold(app, p);
  }
  if (!hold) {
    const threshold = await thresholdKobo(app);
    if (threshold === null || p.amountKobo <= threshold) return null;
    return prepare(app, p, threshold);
  }
  refuseSettledHold(hold);
  const teamJob = await team.job(hold.team_job_id);
  // Another attempt on this desktop (a retry, a second window) may have bought it while the team
  // was asked: a team job finished by that purchase says so, not "nothing was bought".
  refuseSettledHold(holdRow(app, hold.team_job_id) ?? hold);
  switch (teamJob.state) {
    case 'awaiting_approval':
      throw awaiting(teamJob.id, p, null);
    case 'rejected':
      close(app, hold.team_job_id);
      throw new AppError(
        'approval_rejected',
        `The purchase of ${what(p)} was rejected by ${teamJob.decidedBy ?? 'an approver'}: ${teamJob.decisionNote ?? ''}. Nothing was bought.`,
        'Buy it again only if it is still wanted: it is sent for approval again.',
      );
    case 'cancelled':
    case 'finished':
      close(app, hold.team_job_id);
      throw new AppError('approval_cancelled', `Team job ${teamJob.id} is ${teamJob.state}. Nothing was bought.`, 'Buy it again to send it for approval again.');
    default:
      break;
  }
  // Approved: what is bought now must be the item the approver approved.
  checkItemsDigest(teamJob.id, teamJob.itemsDigest, itemsDigest([singleItem(p)]), `The purchase of ${what(p)}`);
  // Approved: claim the one item. The reference is the same for every attempt on this desktop,
  // so a retry after a crash finds its own claim; another desktop's claim stops it here.
  const desktop = team.desktop();
  const ref = `${desktop.id}:single:${hold.team_job_id}`;
  const claim = await team.withClient(async (client) => {
    const r = await callTeam<'claim_item', { request_ref: string; desktop_id: string }>(
      client,
      'claim_item',
      {
        jobId: hold.team_job_id,
        itemIndex: 1,
        amountKobo: hold.amount_kobo,
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
      `Team job ${hold.team_job_id} was already bought from another desktop (${claim.desktop_id}). Nothing was bought here.`,
      'See `vendesk approvals --state all`.',
    );
  }
  const teamJobId = hold.team_job_id;
  return {
    teamJobId,
    written(purchaseId) {
      const r = app.db.prepare("UPDATE team_single_purchases SET state = 'bought', purchase_id = ? WHERE team_job_id = ? AND state = 'waiting'").run(purchaseId, teamJobId);
      if (r.changes !== 1) {
        throw new AppError(
          'approval_used',
          `Team job ${teamJobId} is being bought or was bought already. Nothing more was bought.`,
          `See \`vendesk purchases resume ${teamJobId}\` for its receipt.`,
        );
      }
    },
  };
}
