/**
 * What a purchase's state means to the person reading it, written once, for each thing that shows
 * one: the receipt of an electricity or cable purchase and the Pending page (`purchase`), the
 * receipt of a single airtime or data top-up (`top-up`), and a bulk row bought as an electricity
 * or cable purchase, whose reason the job's rows and its results workbook show (`row`). The
 * sentences of one state sit together under it, so what a state means is changed in one place;
 * `purchases/purchaseStore.ts` (`toPurchaseView`), `buying/singleTopUp.ts` (`toTopUpView`) and
 * `buying/vendingItems.ts` (`itemFromPurchase`) ask it.
 */
import { awaitingApprovalHint } from '../shared/contract/team';
import { formatNaira } from '../shared/money';

/** An electricity or cable purchase, as its receipt shows it. */
export interface PurchaseShown {
  kind: 'electricity' | 'cable';
  state: string;
  amount_kobo: number;
  account: string;
  token: string | null;
  vend_type: string | null;
  bouquet_name: string;
  bouquet_code: string;
  reason: string | null;
  hint: string | null;
  refund_state: string;
  reference: string | null;
}

/** Whose state it is, and what its sentences name. */
export type StateSubject =
  | { of: 'purchase'; purchase: PurchaseShown }
  | { of: 'row'; purchase: Pick<PurchaseShown, 'state' | 'reason' | 'refund_state'> }
  | {
      of: 'top-up';
      state: string;
      kind: 'airtime' | 'data';
      phone: string;
      amountKobo: number;
      /** Its wallet cost from the service's log (a failed one's is what comes back); null until read. */
      costKobo: number | null;
      description: string;
    };

/** What the state means (null where its reader shows nothing), and what to do about it. */
export interface StateMeaning {
  text: string | null;
  whatToDo: string | null;
}

const NOTHING: StateMeaning = { text: null, whatToDo: null };

/** A top-up with no answer yet, sent or not: what its receipt says. */
const TOP_UP_UNANSWERED: StateMeaning = {
  text: 'Sent, but no answer came back: it may have been bought.',
  whatToDo: "Do not buy it again. vendesk settles it from the service's log and never sends it again; check again in a few minutes.",
};

/** What `subject`'s state means: one place for every state of every purchase a person reads about. */
export function stateMeaning(subject: StateSubject): StateMeaning {
  const state = subject.of === 'top-up' ? subject.state : subject.purchase.state;
  const p = subject.of === 'purchase' ? subject.purchase : null;
  const what = p ? (p.kind === 'electricity' ? 'Electricity token' : 'Cable TV subscription') : '';
  const amount = p ? formatNaira(p.amount_kobo) : subject.of === 'top-up' ? formatNaira(subject.amountKobo) : '';
  switch (state) {
    case 'awaiting_approval':
      return { text: 'Waiting for approval by another team member. Nothing was bought yet.', whatToDo: awaitingApprovalHint('purchase') };
    case 'sending':
      if (subject.of === 'top-up') return TOP_UP_UNANSWERED;
      return p ? { text: `${what} of ${amount} is being sent.`, whatToDo: 'Wait for the answer. Do not buy it again.' } : NOTHING;
    case 'success':
      if (subject.of === 'top-up') {
        return { text: `Delivered: ${subject.kind === 'airtime' ? `${amount} of ${subject.description}` : subject.description} to ${subject.phone}.`, whatToDo: null };
      }
      if (!p) return NOTHING;
      return p.kind === 'electricity'
        ? {
            text: `Paid: ${amount} for meter ${p.account}.`,
            whatToDo: p.token
              ? 'Give the token to the customer: copy it or print the receipt.'
              : p.vend_type === 'POSTPAID'
                ? 'Postpaid bills have no token; the payment is credited to the account.'
                : null,
          }
        : {
            text: `Paid: ${p.bouquet_name || p.bouquet_code} (${amount}) for smartcard ${p.account}.`,
            whatToDo: 'The subscription is active; the customer may need to leave the decoder on for a few minutes.',
          };
    case 'accepted':
    case 'pending':
      if (subject.of === 'top-up') {
        return {
          text: 'Accepted by the service, not confirmed yet.',
          whatToDo: "Do not buy it again. vendesk keeps reading the service's log (and requeries it from 2 minutes after sending); check again in a few minutes.",
        };
      }
      if (subject.of === 'row') return { text: 'Accepted, not confirmed yet; vendesk requeries it from 2 minutes after the purchase (see the Pending page).', whatToDo: null };
      return {
        text: `${what} of ${amount} was accepted but is not confirmed yet.`,
        whatToDo: 'vendesk checks it automatically (from 2 minutes after the purchase) and shows the result here and on the Pending page. Do not buy it again meanwhile.',
      };
    case 'failed':
      if (subject.of === 'top-up') {
        return { text: `Failed at the network: ${subject.phone} did not receive it. ${topUpRefund(subject.costKobo)}`, whatToDo: 'Buy it again if it is still wanted.' };
      }
      if (subject.of === 'row') return { text: `${subject.purchase.reason ?? 'Declined by the provider'}. ${rowRefund(subject.purchase.refund_state)}`, whatToDo: null };
      return {
        text: `${what} of ${amount} failed${p?.reason ? `: ${p.reason}` : ''}.`,
        whatToDo:
          p?.refund_state === 'missing' ? 'Contact support with the reference: the service shows this purchase as charged.' : (p?.hint ?? 'Check the details and try again.'),
      };
    case 'rejected':
      if (subject.of === 'top-up') return { text: 'Not bought: the service refused it. Nothing was charged.', whatToDo: 'Correct what the reason says, then buy again.' };
      if (subject.of === 'row') return { text: `Refused by the service: ${subject.purchase.reason ?? 'no reason given'}. Nothing was charged.`, whatToDo: null };
      return { text: `${what} was not bought${p?.reason ? `: ${p.reason}` : ''}. Nothing was charged.`, whatToDo: p?.hint ?? null };
    case 'uncertain':
      if (subject.of === 'top-up') return TOP_UP_UNANSWERED;
      if (subject.of === 'row') {
        return {
          text: 'Sent, but no answer came back; it may have been charged. vendesk settles it from the transaction log (Pending page); it is never sent again.',
          whatToDo: null,
        };
      }
      return {
        text: `${what} of ${amount} was sent but no answer came back; it may have been charged.`,
        whatToDo:
          'Do not buy it again. vendesk looks for it in the transaction log ("Settle from log") and settles it from there; if it is not there after a few minutes, resolve it by hand on the Pending page.',
      };
    case 'needs_support':
      if (subject.of === 'row') {
        return {
          text: 'Still pending and the service will not answer more status checks: contact support with the reference (Pending page). Do not buy it again.',
          whatToDo: null,
        };
      }
      return {
        text: `${what} of ${amount} is still pending and the service will not answer more status checks.`,
        whatToDo: "Send the support details (reference, time, amount, account, phone) to the service provider's support; they resolve it manually. Do not buy it again.",
      };
    case 'not_found':
      if (subject.of === 'row') return { text: 'The service has no transaction with this reference: check the wallet, then resolve it on the Pending page.', whatToDo: null };
      return {
        text: `The service has no transaction with reference ${p?.reference ?? '—'}.`,
        whatToDo: 'Check the wallet and the Transactions page: if nothing was debited, nothing was bought and you may buy again; otherwise contact support with the reference.',
      };
    case 'cancelled':
      return { text: 'Not bought. Nothing was charged.', whatToDo: 'Buy it again when what the reason says is fixed.' };
    default:
      // Queued, held or left out: nothing of it has left.
      return { text: 'Not sent yet. Nothing was charged so far.', whatToDo: null };
  }
}

/** What a failed row's purchase says of the money, from the service's own records (see purchases/refundCheck.ts). */
function rowRefund(refundState: string): string {
  switch (refundState) {
    case 'missing':
      return "Refund missing: the service's log shows this purchase as charged although it answered that it failed. Contact support with the reference (see the purchase on the Pending page).";
    case 'confirmed':
      return 'Refunded: the service records it as FAILED and gives the money back automatically.';
    case 'not_charged':
      return 'Nothing was charged: the service has no transaction for it.';
    default:
      return 'The service refunds the wallet automatically; vendesk confirms it from the service’s log.';
  }
}

/**
 * What came back to the wallet for a failed top-up, stated once and never assumed: the wallet cost
 * of its FAILED entry in the service's log (what it charged, which the service refunds); until
 * vendesk has read that entry, without a figure.
 */
function topUpRefund(costKobo: number | null): string {
  return costKobo === null
    ? "The service refunds what it charged to the wallet automatically; vendesk shows the amount once it has read the purchase in the service's log."
    : `The service refunds what it charged for it, ${formatNaira(costKobo)} as its log records, to the wallet automatically.`;
}
