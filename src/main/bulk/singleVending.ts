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
 * - it answers with its purchase (`PurchaseRow`), the receipt every view already shows; above a
 *   team's approval threshold, with its job waiting for approval (`WaitingPurchaseView`).
 */
import { isWaitingPurchase, type CableRequest, type ElectricityRequest, type PurchaseView, type WaitingPurchaseView } from '../../shared/contract/purchases';
import type { App } from '../appContext';
import { checkCable, checkElectricity, findPurchaseRow, refuseDuplicate, toPurchaseView, type CheckedVendingPurchase, type PurchaseRow } from '../purchases';
import { teamGate, type SingleGateOptions } from './teamGate';
import { refuseIfConnectionChanged } from '../sessionGuard';
import { commitUnflushed } from '../store/unflushedCommit';
import { createBulkService } from './bulkService';
import { newItem } from './jobRows';
import { cancelPausedSingle, notSent, refuseIfBackToApproval } from './singleTopUp';
import { createVendingBuyer, type VendingBuyer } from './vendingItems';

export type SingleVendingRequest = { kind: 'electricity'; request: ElectricityRequest } | { kind: 'cable'; request: CableRequest };

/** Buys it (see the file's comment) and answers its receipt, or its job waiting for approval. */
export async function buySingleVending(app: App, asked: SingleVendingRequest, options: SingleGateOptions = {}): Promise<PurchaseView | WaitingPurchaseView> {
  const answer = await buyAsJob(app, asked, options);
  return isWaitingPurchase(answer) ? answer : toPurchaseView(answer);
}

async function buyAsJob(app: App, asked: SingleVendingRequest, options: SingleGateOptions): Promise<PurchaseRow | WaitingPurchaseView> {
  // Checked, bought and answered on one connection.
  const session = app.session();
  const purchase: CheckedVendingPurchase = asked.kind === 'electricity' ? await checkElectricity(app, asked.request) : await checkCable(app, asked.request);
  const approval = await app.service(teamGate).single(purchase.summary, options);
  const service = app.service(createBulkService);
  const connection = session.connection;
  const { summary } = purchase;
  const fileName = `${summary.description} for ${summary.account}`;
  const row = newItem({
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
  // Above the team's threshold: it waits for approval (written so, the first time); nothing is bought.
  if (approval.status === 'unsent') return approval.submit((message, link) => service.store.createWaitingSingle(asked.kind, connection, fileName, row, message, link));
  if (approval.status === 'waiting') return approval.waiting;
  // Written before anything of it is sent, its commit need not wait for the disk: the one that marks
  // it sending does, before its request leaves, and takes this one with it (store/unflushedCommit.ts).
  const { jobId, begun } = commitUnflushed(
    app.db,
    () => {
      refuseIfConnectionChanged(app, session);
      refuseDuplicate(app, purchase.key);
      // Approved: bought as the job that waited for it, begun once.
      if (approval.status === 'approved') return { jobId: approval.jobId, begun: service.confirmApprovedSingle(approval.jobId, approval.teamJobId, row) };
      const id = service.store.createSingleJob(asked.kind, connection, fileName, row);
      return { jobId: id, begun: service.confirmSingle(id) };
    },
    { immediate: true },
  );
  let refusal: unknown = null;
  let bought: PurchaseRow | null = null;
  const buyer: VendingBuyer = {
    async buy(_kind, _item, written) {
      try {
        bought = await purchase.buy(session, { written });
        return bought.id;
      } catch (error) {
        refusal = error;
        throw error;
      }
    },
    settle: (purchaseId) => createVendingBuyer(app).settle(purchaseId),
  };
  let finished = await service.runConfirmed(jobId, { session, vending: buyer, quiet: true, begun }).catch(async (error: unknown) => {
    // It did not start: nothing was written or sent.
    await cancelPausedSingle(app, jobId, error instanceof Error ? error.message : String(error));
    throw error;
  });
  if (finished.state === 'paused') {
    await cancelPausedSingle(app, jobId, finished.message);
    finished = service.store.job(jobId) ?? finished;
  }
  // Its purchase as its answer left it, whichever connection vendesk is on by now (as the receipt shows it).
  if (bought) return bought;
  const item = service.store.items(jobId, { limit: 1 })[0];
  const written = item?.purchase_id ? findPurchaseRow(app, item.purchase_id) : null;
  if (written) return written;
  if (refusal) throw refusal;
  refuseIfBackToApproval(finished);
  throw notSent(item?.reason ?? finished.message ?? 'It was not sent.', 'Fix what the message says, then buy it again.');
}
