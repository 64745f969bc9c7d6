/**
 * A single electricity token or cable TV bouquet (the window's Electricity and Cable TV forms,
 * `vendesk buy electricity|cable`, an approved purchase bought from the Approvals page) is bought
 * as a job of one item (`origin = 'single'`), as a single airtime or data top-up is
 * (`singleTopUp.ts`): the same record as a bulk row, with the item states, sent by the same runner
 * and strategy (`VendingSending`). Its `purchases` row is its vending detail (token, units,
 * refund), written `sending` before its request leaves and linked to its item in that write; the
 * item follows it from then on (`purchaseFollower`).
 *
 * What a one-item job of these kinds does differently from a bulk row:
 * - it is checked (the meter or smartcard, the catalog, the team's gate) before its job is
 *   written, and the run buys that checked purchase: nothing is asked of the service twice;
 * - a purchase refused as it is written (the same purchase unsettled, the connection switched)
 *   is refused to the user, as asked, with the same error — never held to be sent later;
 * - it answers with its purchase (`PurchaseRow`), the receipt every view already shows, read once
 *   its run has ended; refused as it is written, with the refusal the run answered; above a
 *   team's approval threshold, with its job waiting for approval (`WaitingPurchaseView`).
 */
import type { CableRequest, ElectricityRequest, PurchaseView, WaitingPurchaseView } from '../../shared/contract/purchases';
import type { App, Session } from '../appContext';
import { checkCable, checkElectricity, getPurchaseRow, refuseDuplicate, toPurchaseView } from '../purchases';
import { createBulkService } from './bulkService';
import { newItem } from './jobRows';
import { notSent, refuseIfBackToApproval, runSingle, singleJobName, writeSingle } from './singleTopUp';
import { teamGate, type SingleGateOptions } from './teamGate';
import { createVendingBuyer, type VendingBuyer } from './vendingItems';

export type SingleVendingRequest = { kind: 'electricity'; request: ElectricityRequest } | { kind: 'cable'; request: CableRequest };

/**
 * Buys it on `session` (see the file's comment) and answers its receipt — its purchase as it stands
 * once its run has ended, whichever connection vendesk is on by then — or its job waiting for
 * approval; refused as it was written, the refusal its run answered with.
 */
export async function buySingleVending(app: App, session: Session, asked: SingleVendingRequest, options: SingleGateOptions = {}): Promise<PurchaseView | WaitingPurchaseView> {
  const purchase = asked.kind === 'electricity' ? await checkElectricity(app, session, asked.request) : await checkCable(app, session, asked.request);
  const { summary } = purchase;
  const item = newItem({
    rowNumber: 1,
    phone: summary.phone,
    // The disco or provider stands where airtime has its network, as in a bulk row.
    network: purchase.providerCode,
    productCode: asked.kind === 'cable' ? (purchase.key.bouquetCode ?? '') : '',
    description: summary.description,
    amountKobo: summary.amountKobo,
    account: summary.account,
    vendType: asked.kind === 'electricity' ? asked.request.vendType : null,
    accountName: summary.customerName,
    costCentre: asked.request.costCentre ?? null,
  });
  // Above the team's threshold it waits for approval (written so by the gate, the first time); nothing is bought.
  const approval = await app.service(teamGate).single({ ...summary, item }, session, options);
  if (approval.status === 'waiting') return approval.waiting;
  const service = app.service(createBulkService);
  const { jobId, begun } = writeSingle(app, session, () => {
    refuseDuplicate(app, session.connection, purchase.key);
    // Approved: bought as the job that waited for it, begun once.
    if (approval.status === 'approved') return { jobId: approval.jobId, begun: service.confirmApprovedSingle(approval.jobId, approval.teamJobId, item) };
    const id = service.lifecycle.createSingleJob(asked.kind, session.connection, singleJobName(summary), item);
    return { jobId: id, begun: service.confirmSingle(id) };
  });
  // The run buys the purchase as it was checked, on the session it was checked on.
  const buyer: VendingBuyer = { buy: async (_kind, _item, written) => (await purchase.buy({ written })).id, settle: createVendingBuyer(app, session).settle };
  const { job, refusal } = await runSingle(service, session, jobId, { vending: buyer, quiet: true, begun });
  const bought = service.reads.items(jobId, { limit: 1 })[0];
  if (bought?.purchase_id) return toPurchaseView(getPurchaseRow(app, bought.purchase_id));
  if (refusal) throw refusal;
  refuseIfBackToApproval(job);
  throw notSent(bought?.reason ?? job.message ?? 'It was not sent.', 'Fix what the message says, then buy it again.');
}
