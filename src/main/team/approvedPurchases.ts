/**
 * Approved single purchases on the desktop that prepared them (see `purchaseApproval.ts`):
 * - `resumeApprovedPurchase` buys one exactly once, from the request kept when it was prepared
 *   (the same checks run again: the meter, the wallet, a purchase still unsettled), and returns
 *   its receipt; asked again, it returns the same receipt and buys nothing.
 * - `settleApprovedPurchases` writes each bought one's outcome to the team database (its claim
 *   `succeeded` or `failed`, a `settle` row in the audit trail, the team job `finished`) once it
 *   is known here; one still pending is written on a later pass. Never throws.
 */
import { AppError } from '../../shared/appError';
import type { ApprovedPurchaseView } from '../../shared/contract/team';
import type { CableRequest, ElectricityRequest } from '../../shared/contract/purchases';
import type { App, AppPart } from '../appContext';
import { createBulkService } from '../bulk/bulkService';
import { buyTopUp, topUpView, type TopUpInput } from '../bulk/singleTopUp';
import { findPurchaseRow, toPurchaseView } from '../purchases';
import { buySingleVending } from '../bulk/singleVending';
import { holdRow, type HoldRow } from './purchaseApproval';
import { teamWorkspace } from './teamWorkspace';
import { callTeam } from './teamCall';

async function receipt(app: AppPart<'connection' | 'db' | 'service'>, hold: HoldRow, purchaseId: string): Promise<ApprovedPurchaseView> {
  if (hold.kind === 'electricity' || hold.kind === 'cable') {
    const row = findPurchaseRow(app, purchaseId);
    if (!row)
      throw new AppError('purchase_not_found', `Purchase ${purchaseId} of team job ${hold.team_job_id} is not on this connection.`, 'Switch to the connection it was bought on.');
    return { teamJobId: hold.team_job_id, purchase: toPurchaseView(row), topUp: null };
  }
  return { teamJobId: hold.team_job_id, purchase: null, topUp: await topUpView(app, purchaseId) };
}

export async function resumeApprovedPurchase(app: App, teamJobId: string): Promise<ApprovedPurchaseView> {
  const hold = holdRow(app, teamJobId);
  if (!hold) {
    throw new AppError(
      'team_job_not_found',
      `Team job ${teamJobId} is not a single purchase prepared on this desktop.`,
      'Buy it on the desktop that prepared it; `vendesk approvals --state all` lists the team jobs.',
    );
  }
  if (hold.profile_id !== app.connection.profileId) {
    throw new AppError(
      'connection_changed',
      `Team job ${teamJobId} was prepared on another connection than the one in use. Nothing was bought.`,
      'Switch to the connection it was prepared on, then buy it.',
    );
  }
  if (hold.state === 'bought' && hold.purchase_id) {
    await settleApprovedPurchases(app);
    return receipt(app, hold, hold.purchase_id);
  }
  const options = { approvedTeamJob: teamJobId };
  let bought: ApprovedPurchaseView;
  switch (hold.kind) {
    case 'electricity':
      bought = {
        teamJobId,
        purchase: toPurchaseView(await buySingleVending(app, { kind: 'electricity', request: JSON.parse(hold.request) as ElectricityRequest }, options)),
        topUp: null,
      };
      break;
    case 'cable':
      bought = { teamJobId, purchase: toPurchaseView(await buySingleVending(app, { kind: 'cable', request: JSON.parse(hold.request) as CableRequest }, options)), topUp: null };
      break;
    default:
      bought = { teamJobId, purchase: null, topUp: await buyTopUp(app, JSON.parse(hold.request) as TopUpInput & { repeat: boolean }, options) };
  }
  await settleApprovedPurchases(app);
  return bought;
}

/** The team outcome of a bought single purchase as it stands here; null while not final. */
function outcomeOf(app: AppPart<'db' | 'service'>, hold: HoldRow): 'succeeded' | 'failed' | null {
  if (!hold.purchase_id) return null;
  let state: string | undefined;
  if (hold.kind === 'electricity' || hold.kind === 'cable') {
    state = (app.db.prepare('SELECT state FROM purchases WHERE id = ?').get(hold.purchase_id) as { state: string } | undefined)?.state;
  } else {
    state = app.service(createBulkService).store.items(hold.purchase_id, { limit: 1 })[0]?.state;
  }
  if (state === 'success') return 'succeeded';
  if (state === 'failed' || state === 'rejected' || state === 'cancelled' || state === 'not_found') return 'failed';
  return null;
}

export async function settleApprovedPurchases(app: AppPart<'db' | 'service'>): Promise<void> {
  const team = teamWorkspace(app);
  if (!team.link()) return;
  const open = app.db.prepare("SELECT * FROM team_single_purchases WHERE state = 'bought' AND settled_outcome IS NULL").all() as HoldRow[];
  const ready = open.map((hold) => ({ hold, outcome: outcomeOf(app, hold) })).filter((h): h is { hold: HoldRow; outcome: 'succeeded' | 'failed' } => h.outcome !== null);
  if (ready.length === 0) return;
  const desktop = team.desktop();
  try {
    await team.withClient(async (client) => {
      for (const { hold, outcome } of ready) {
        await callTeam(client, 'settle_item', { jobId: hold.team_job_id, itemIndex: 1, outcome, desktopId: desktop.id, desktopName: desktop.name });
        await callTeam(client, 'finish_job', { jobId: hold.team_job_id, desktopId: desktop.id, desktopName: desktop.name });
        app.db.prepare('UPDATE team_single_purchases SET settled_outcome = ? WHERE team_job_id = ?').run(outcome, hold.team_job_id);
      }
    });
  } catch {
    // Unreachable or refused: written on a later pass.
  }
}
