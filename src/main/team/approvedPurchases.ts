/**
 * Approved single purchases on the desktop that prepared them (see `purchaseApproval.ts`):
 * `resumeApprovedPurchase` buys one exactly once, as the job that waited for its approval, from
 * the request kept when it was prepared (the same checks run again: the meter, the wallet, a
 * purchase still unsettled), and returns its receipt; asked again, it returns the same receipt and
 * buys nothing. Its outcome reaches the team database as a spreadsheet's job's does
 * (`writePendingTeamOutcomes`: its claim `succeeded` or `failed`, a `settle` row in the audit
 * trail, the team job `finished`), here once it is bought, and by the loop and the Approvals list.
 */
import { AppError } from '../../shared/appError';
import type { ApprovedPurchaseView } from '../../shared/contract/team';
import { receiptOrAwaiting } from '../../shared/contract/purchases';
import type { App, AppPart, Session } from '../appContext';
import { buyTopUp, topUpView, type TopUpInput } from '../buying/singleTopUp';
import { createBulkService } from '../buying/bulkService';
import { findPurchaseRow, toPurchaseView } from '../purchases';
import { buySingleVending, type SingleVendingRequest } from '../buying/singleVending';
import { boughtAs, singleLink, type SingleLink } from './purchaseApproval';
import { writePendingTeamOutcomes } from './teamOutcomeRetry';

async function receipt(app: AppPart<'db' | 'service'>, session: Session, link: SingleLink, purchaseId: string): Promise<ApprovedPurchaseView> {
  if (link.kind === 'electricity' || link.kind === 'cable') {
    const row = findPurchaseRow(app, session.connection, purchaseId);
    if (!row)
      throw new AppError('purchase_not_found', `Purchase ${purchaseId} of team job ${link.team_job_id} is not on this connection.`, 'Switch to the connection it was bought on.');
    return { teamJobId: link.team_job_id, purchase: toPurchaseView(row), topUp: null };
  }
  return { teamJobId: link.team_job_id, purchase: null, topUp: await topUpView(app.service(createBulkService), session, purchaseId) };
}

/** Buys an approved single purchase on `session` (see the file's comment). */
export async function resumeApprovedPurchase(app: App, session: Session, teamJobId: string): Promise<ApprovedPurchaseView> {
  const link = singleLink(app, teamJobId);
  if (!link) {
    throw new AppError(
      'team_job_not_found',
      `Team job ${teamJobId} is not a single purchase prepared on this desktop.`,
      'Buy it on the desktop that prepared it; `vendesk approvals --state all` lists the team jobs.',
    );
  }
  if (link.profile_id !== session.connection.profileId) {
    throw new AppError(
      'connection_changed',
      `Team job ${teamJobId} was prepared on another connection than the one in use. Nothing was bought.`,
      'Switch to the connection it was prepared on, then buy it.',
    );
  }
  const already = boughtAs(link);
  if (already) {
    await writePendingTeamOutcomes(app, 'single');
    return receipt(app, session, link, already);
  }
  const options = { approvedTeamJob: teamJobId };
  const request = JSON.parse(link.request) as unknown;
  // Not approved yet, it answers waiting: nothing is bought, and there is no receipt to show.
  const bought: ApprovedPurchaseView =
    link.kind === 'electricity' || link.kind === 'cable'
      ? { teamJobId, purchase: receiptOrAwaiting(await buySingleVending(app, session, { kind: link.kind, request } as SingleVendingRequest, options)), topUp: null }
      : { teamJobId, purchase: null, topUp: receiptOrAwaiting(await buyTopUp(app, session, request as TopUpInput & { repeat: boolean }, options)) };
  await writePendingTeamOutcomes(app, 'single');
  return bought;
}
