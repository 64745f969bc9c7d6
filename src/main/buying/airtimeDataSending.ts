/**
 * How an airtime or data job sends its items: in batches (one request carries up to the batch
 * size), each answer recorded right after it arrives; outcomes read from the service's log by
 * reference and requeried once due (`itemOutcomes.ts`); uncertain items settled from the log once
 * their safe delay has passed (`api/logMatch.ts`).
 *
 * - 400/422/2xx refusals of a batch: the batch is all or nothing, so nothing was charged; its
 *   items are sent again one by one so each gets its own reason. "insufficient balance" pauses
 *   the job instead. 401 pauses the job. 503 (after the client's retries and voucher rule): the
 *   items wait and go again with backoff (`sendPolicy.ts`).
 * - 429 on a single item: it is held and sent again later.
 * - Anything else (a timeout, a dropped connection): the request may have been carried out, so
 *   the items become uncertain and the log settles them before anything is sent again.
 */
import type { AirtimeItem, DataItem } from '../../shared/wire';
import { RequestCancelledError, ServiceError, UncertainOutcomeError } from '../api/serviceErrors';
import { readOutcomes, settleUncertainItem } from './itemOutcomes';
import type { ItemRow } from './jobRows';
import type { RunContext, SendStrategy } from './runContext';
import * as policy from './sendPolicy';
import { isInsufficientBalance } from './sendPolicy';

export class AirtimeDataSending implements SendStrategy {
  readonly waitsSafeDelay = true;
  readonly waitsForUncertain = true;

  constructor(private readonly ctx: RunContext) {}

  readonly oneItemPerRequest = false;
  /** A batch's items are committed `sending` by the runner before its request leaves. */
  readonly marksItsOwnSending = false;

  async send(batch: ItemRow[]): Promise<void> {
    const { moves, job } = this.ctx;
    const seqs = batch.map((i) => i.seq);
    try {
      const client = this.ctx.client;
      const result = job.kind === 'airtime' ? await client.purchaseAirtime(batch.map(toAirtimeItem)) : await client.purchaseData(batch.map(toDataItem));
      if (result.kind === 'success') {
        const refs = result.data.references;
        if (refs.length !== batch.length || refs.some((r) => typeof r !== 'string' || r === '')) {
          moves.uncertain(job.id, seqs, `The service accepted the batch but gave ${refs.length} reference(s) for ${batch.length} item(s); each item is checked against the log`);
          return;
        }
        moves.accept(
          job.id,
          batch.map((item, i) => ({ seq: item.seq, reference: refs[i] })),
          result.voucherDropped ? 'Sent without its voucher code after the voucher server was unavailable' : null,
        );
        policy.answered(this.ctx);
        this.ctx.accepted();
      } else if (result.kind === 'pending') {
        moves.uncertain(job.id, seqs, 'The service answered "pending" without item references; each item is checked against the log');
      } else {
        this.refused(batch, result.reason || 'refused by the service', 'refused');
      }
    } catch (error) {
      this.failed(batch, error);
    }
  }

  private failed(batch: ItemRow[], error: unknown): void {
    const { moves, job } = this.ctx;
    const seqs = batch.map((i) => i.seq);
    if (error instanceof RequestCancelledError) {
      moves.unsent(job.id, seqs);
      return;
    }
    if (error instanceof UncertainOutcomeError) {
      moves.uncertain(job.id, seqs, `${error.message} vendesk checks the service log before sending it again.`);
      return;
    }
    if (error instanceof ServiceError) {
      const reason = error.reason || error.message;
      switch (error.action) {
        case 'retry_later':
          policy.retryLater(this.ctx, seqs, `Vending was temporarily unavailable (${reason}); sent again automatically`, reason);
          return;
        case 'fix_input':
        case 'configuration':
          this.refused(batch, reason, error.action);
          return;
        case 'do_not_resend':
          if (batch.length > 1) {
            this.sendAlone(seqs);
          } else {
            const item = batch[0];
            policy.hold(
              this.ctx,
              item,
              `Held: another purchase of the same amount for ${item.phone} is in progress at the service (${reason}); sent after it completes`,
              `Another purchase of the same amount for ${item.phone} stayed in progress at the service, so this one was not sent (nothing was charged for it). Buy it again later if it is still wanted.`,
            );
          }
          return;
        case 'credentials':
          policy.credentials(this.ctx, seqs, error);
          return;
        default:
          break;
      }
    }
    // Anything else: the request may have left and been carried out.
    const message = error instanceof Error ? error.message : String(error);
    moves.uncertain(job.id, seqs, `The purchase request ended with an unexpected error (${message}); vendesk checks the service log before sending it again.`);
  }

  /** The service refused the whole batch: nothing was charged. */
  private refused(batch: ItemRow[], reason: string, what: string): void {
    const seqs = batch.map((i) => i.seq);
    if (isInsufficientBalance(reason)) {
      policy.insufficientBalance(this.ctx, seqs, reason);
      return;
    }
    if (batch.length > 1) {
      this.sendAlone(seqs);
      return;
    }
    const prefix = what === 'configuration' ? 'Not possible for this organisation' : 'Refused by the service';
    this.ctx.moves.refuse(this.ctx.job.id, seqs, `${prefix}: ${reason}. Nothing was charged.`);
  }

  /** All or nothing: send them one by one so each item gets its own answer. */
  private sendAlone(seqs: readonly number[]): void {
    this.ctx.moves.unsent(this.ctx.job.id, seqs, { solo: true, reason: null });
  }

  /** Reads the log for accepted items and records SUCCESS / FAILED and their cost; requeries overdue ones. */
  async pollOutcomes(): Promise<void> {
    const { reads, moves, job } = this.ctx;
    const accepted = reads.items(job.id, { states: ['accepted'] });
    if (accepted.length === 0) return;
    await readOutcomes(this.ctx.client, moves, job, accepted, this.ctx.now);
  }

  /** Settles, from the log, the uncertain items whose safe delay has passed. */
  async settleUncertain(): Promise<void> {
    const { reads, job } = this.ctx;
    const safeMs = this.ctx.settings().uncertainSafeDelaySeconds * 1000;
    const t = this.ctx.now();
    const due = reads.items(job.id, { states: ['uncertain'] }).filter((i) => (i.sent_ms ?? 0) + safeMs <= t);
    for (const item of due) {
      if (this.ctx.cancelled()) return;
      const settled = await settleUncertainItem(this.ctx.client, this.ctx, job, item, 'send_again', this.ctx.now);
      if (settled === 'accepted') this.ctx.accepted();
    }
  }
}

function toAirtimeItem(item: ItemRow): AirtimeItem {
  return {
    amount: item.amount_kobo / 100,
    phoneNumber: item.phone,
    network: item.network,
    productCode: item.product_code,
    ...(item.voucher_code ? { voucherCode: item.voucher_code } : {}),
    operator: item.operator,
    region: item.region,
  };
}

function toDataItem(item: ItemRow): DataItem {
  return {
    phoneNumber: item.phone,
    productCode: item.product_code,
    network: item.network,
    ...(item.voucher_code ? { voucherCode: item.voucher_code } : {}),
    amount: item.amount_kobo / 100,
    ...(item.data_value !== null ? { dataValue: item.data_value } : {}),
  };
}
