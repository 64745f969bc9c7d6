/**
 * Single electricity and cable TV purchases: catalogs, meter and smartcard validation, the
 * purchase itself and its receipt. Amounts are integer kobo; phones any accepted spelling (the
 * main side normalizes them).
 */
import { AppError } from '../appError';
import type { ExpectedCharge } from '../spendText';
import { readCostCentre } from '../costCentre';
import { z } from 'zod';
import type { BulkItemState } from './bulk';
import { op } from './define';
import { PURCHASE_CHANGES } from './topics';

export type PurchaseKind = 'electricity' | 'cable';
export type VendTypeInput = 'PREPAID' | 'POSTPAID';

/**
 * Where a purchase stands.
 * - `sending`: written before the request left; no answer yet (after a crash: see `uncertain`).
 * - `success`: completed; electricity carries the token (prepaid) and units.
 * - `pending`: accepted, not confirmed; the requery loop settles it.
 * - `failed`: declined or failed at the provider; the wallet is refunded (see `refund`).
 * - `rejected`: refused before anything was charged (configuration, same purchase in progress…).
 * - `uncertain`: the request left and no usable answer came back; settled from the log, never resent.
 * - `needs_support`: the service stopped answering status checks; support resolves it.
 * - `not_found`: the service has no transaction with this reference.
 */
export const PURCHASE_STATES = ['sending', 'success', 'pending', 'failed', 'rejected', 'uncertain', 'needs_support', 'not_found'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

/**
 * What the service's own records say about the money of a declined or failed purchase — never
 * concluded from the wallet balance, which other purchases move.
 * - `checking`: not known yet (the log has not been read since it failed).
 * - `confirmed`: the service records it FAILED (its log entry, or its requery answer): a failed
 *   purchase is refunded automatically.
 * - `not_charged`: declined and not in the service's log at all: nothing was taken.
 * - `missing`: the service's log shows it charged (SUCCESS or still PENDING) although it was
 *   answered as failed.
 * - `not_applicable`: nothing could have been charged (refused before sending).
 */
export type RefundState = 'not_applicable' | 'checking' | 'confirmed' | 'not_charged' | 'missing';

export interface RefundView {
  state: RefundState;
  /** The record the conclusion rests on, e.g. "log entry 4512 (ELE…): FAILED". */
  evidence: string | null;
  /** The wallet read just before the purchase was sent (for the record; not a refund test). */
  balanceBeforeKobo: number | null;
  /** What the wallet got back: the FAILED log entry's wallet cost (face value less commission); null until read. */
  refundedKobo: number | null;
  message: string | null;
}

export interface PurchaseView {
  id: string;
  kind: PurchaseKind;
  state: PurchaseState;
  /** One sentence a finance officer can read: what happened. */
  statusText: string;
  /** What to do next, when anything. */
  whatToDo: string | null;
  connectionKind: 'sandbox' | 'live';
  providerCode: string;
  providerName: string;
  /** Meter number (electricity) or smartcard/IUC number (cable). */
  account: string;
  vendType: VendTypeInput | null;
  bouquetCode: string | null;
  bouquetName: string | null;
  amountKobo: number;
  phone: string;
  customerName: string;
  customerAddress: string;
  customerType: string;
  /** The service's requestReference: quote it to support; used for requery. */
  reference: string | null;
  token: string | null;
  units: number | null;
  receiptNo: string | null;
  commissionKobo: number | null;
  /**
   * What the wallet was charged, from the service's own records: the amount less the commission its
   * answer or its log entry gave (a pending purchase's too, once its log entry was read); for a failed
   * one, its FAILED log entry's wallet cost, given back (`refund.refundedKobo`). Null while not known,
   * and when nothing was charged.
   */
  costKobo: number | null;
  /** The service's reason for a decline or failure, as it said it. */
  reason: string | null;
  refund: RefundView;
  requery: {
    attempts: number;
    nextAt: string | null;
    lastAt: string | null;
    lastNote: string | null;
  };
  settledBy: 'answer' | 'requery' | 'log' | 'manual' | null;
  note: string | null;
  createdAt: string;
  finalAt: string | null;
}

export interface ElectricityProviderView {
  code: string;
  name: string;
  description: string;
  minKobo: number;
  maxKobo: number;
}

export interface BouquetView {
  code: string;
  name: string;
  amountKobo: number;
}

export interface CableProviderView {
  provider: string;
  bouquets: BouquetView[];
}

export interface MeterView {
  disco: string;
  meter: string;
  vendType: VendTypeInput;
  name: string;
  address: string;
  /** The meter's own minimum (validation) and the disco's range: the amount must sit in both. */
  meterMinKobo: number;
  outstandingKobo: number;
  allowedMinKobo: number;
  allowedMaxKobo: number;
}

export interface SmartcardView {
  provider: string;
  smartcard: string;
  name: string;
  address: string;
  customerType: string;
  outstandingKobo: number;
}

const accountNumber = (what: string) =>
  z
    .string()
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{6,20}$/, `Enter the ${what} as 6 to 20 digits`));

export const meterNumber = accountNumber('meter number');
export const smartcardNumber = accountNumber('smartcard (IUC) number');
const vendType = z.enum(['PREPAID', 'POSTPAID'], { message: 'Choose PREPAID or POSTPAID' });
const amountKobo = z.number().int('Amounts are whole kobo').positive('Enter an amount above zero');
const phone = z.string().trim().min(1, "Enter the customer's phone number");

/** The department a purchase is charged to (src/shared/costCentre.ts): optional; empty is none. */
export const costCentreField = z
  .string()
  .nullish()
  .transform((text, ctx) => {
    const read = readCostCentre(text);
    if (read.ok) return read.value;
    ctx.addIssue({ code: 'custom', message: `${read.reason.charAt(0).toUpperCase()}${read.reason.slice(1)}.` });
    return z.NEVER;
  });

export const electricityRequestSchema = z.object({
  disco: z.string().trim().min(1, 'Choose the electricity company (disco)'),
  meter: meterNumber,
  vendType,
  amountKobo,
  phone,
  costCentre: costCentreField,
});
export type ElectricityRequest = z.input<typeof electricityRequestSchema>;

export const cableRequestSchema = z.object({
  provider: z.string().trim().min(1, 'Choose the cable TV provider'),
  smartcard: smartcardNumber,
  bouquetCode: z.string().trim().min(1, 'Choose the bouquet'),
  phone,
  costCentre: costCentreField,
});
export type CableRequest = z.input<typeof cableRequestSchema>;

/** A single airtime or data purchase: one number, no spreadsheet. */
export type TopUpKind = 'airtime' | 'data';

/**
 * A single purchase sent for a team member's approval (LIVE, on a desktop in a team, above the
 * team's threshold): nothing is bought yet. Its job of one item waits, `awaiting_approval`, as a
 * spreadsheet's job does; once another member approves it, it is bought from the Approvals page
 * (`purchases.resume`) or by asking for the same purchase again. What `purchases.buy*` answer then,
 * in place of a receipt.
 */
export interface WaitingPurchaseView {
  state: 'awaiting_approval';
  /** The team job the approver decides on. */
  teamJobId: string;
  /** Its job here, waiting. */
  jobId: string;
  kind: 'airtime' | 'data' | 'electricity' | 'cable';
  amountKobo: number;
  /** What it buys ("MTN airtime", "Ikeja Electric PREPAID electricity"), and for whom (number, meter or smartcard). */
  description: string;
  account: string;
  /** What happened, in one sentence ending "Nothing was bought.", and what happens next. */
  message: string;
  hint: string;
}

/** Whether a purchase's answer is one waiting for approval (no receipt yet). */
export function isWaitingPurchase<T extends { state: string }>(answer: T | WaitingPurchaseView): answer is WaitingPurchaseView {
  return answer.state === 'awaiting_approval';
}

/**
 * The receipt, where the caller can go on only with one (`vendesk buy` ends with exit 4, an
 * approved purchase resumed before its approval): a purchase waiting for approval is the
 * `awaiting_approval` refusal, with what happens next. Nothing was bought.
 */
export function receiptOrAwaiting<T extends { state: string }>(answer: T | WaitingPurchaseView): T {
  if (!isWaitingPurchase(answer)) return answer;
  throw new AppError('awaiting_approval', answer.message, answer.hint, { teamJobId: answer.teamJobId, next: 'purchase' });
}

/**
 * A single airtime or data purchase, bought through the bulk engine as a job of one item (its
 * `id` is that job's id): written before its request leaves, its outcome read from the
 * service's log, an uncertain one settled from the log and never resent blindly.
 */
export interface TopUpView {
  id: string;
  kind: TopUpKind;
  /** The item's state, as a bulk job's items have it (`success`, `pending`, `failed`, …). */
  state: BulkItemState;
  /** One sentence a finance officer can read: what happened. */
  statusText: string;
  /** What to do next, when anything. */
  whatToDo: string | null;
  connectionKind: 'sandbox' | 'live';
  phone: string;
  network: string;
  productCode: string;
  /** "MTN airtime" or the data plan's description. */
  description: string;
  amountKobo: number;
  /** What the wallet was charged (the log's `transaction_cost`, pending ones included); null while not known. */
  costKobo: number | null;
  /** A failed purchase: what the service gives back to the wallet, its FAILED log entry's wallet cost; null until read (and for any other state). */
  refundedKobo: number | null;
  /** The service's reference: quote it to support. */
  reference: string | null;
  /** Why it was refused, failed or is uncertain, as the service or vendesk said it. */
  reason: string | null;
  /** How its outcome was learned (`log`, `requery`, …). */
  settledBy: string | null;
  createdAt: string;
  finalAt: string | null;
}

/** Whether a receipt's purchase charged nothing (refused, never sent, or declined without a charge): its wallet cost reads "nothing charged", not "not known yet". */
export function nothingCharged(p: TopUpView | PurchaseView): boolean {
  if ('refund' in p) return p.state === 'rejected' || p.refund.state === 'not_charged';
  return p.state === 'rejected' || p.state === 'cancelled' || p.state === 'excluded';
}

/** What a single airtime or data purchase would buy, checked before it is confirmed. Nothing is bought. */
export interface TopUpCheckView {
  kind: TopUpKind;
  /** The number as it is sent (11 digits). */
  phone: string;
  network: string;
  productCode: string;
  description: string;
  amountKobo: number;
  /** Things to read before buying (a number whose prefix names another network: it may have been ported). */
  warnings: string[];
  /** The same purchase in the last 24 hours, when there was one: buying again needs `repeat`. */
  recent: string | null;
  walletKobo: number | null;
  /** What the wallet is expected to be charged: the face value less the commission recent purchases of it earned (an estimate). */
  expectedCostKobo: number;
  /** False when no commission is known for it yet (the estimate is then the face value). */
  expectedCostRateKnown: boolean;
  /** Why buying now would be refused, or null. */
  blocker: string | null;
}

const network = z.string().trim().min(1).optional();
const topUpPhone = z.string().trim().min(1, 'Enter the phone number to top up');

export const topUpRequestSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('airtime'), phone: topUpPhone, amountKobo, network, costCentre: costCentreField }),
    z.object({ kind: z.literal('data'), phone: topUpPhone, productCode: z.string().trim().min(1, 'Choose the data plan'), network, costCentre: costCentreField }),
  ],
  { message: 'kind must be airtime or data' },
);
export type TopUpRequest = z.input<typeof topUpRequestSchema>;

export const purchasesOperations = {
  'purchases.electricityProviders': op(z.object({}), 'Electricity companies (discos) and their amount ranges, from the catalog').returns<ElectricityProviderView[]>(),
  'purchases.cableProviders': op(z.object({}), 'Cable TV providers and their bouquets, from the catalog').returns<CableProviderView[]>(),
  'purchases.validateMeter': op(
    z.object({ disco: z.string().trim().min(1, 'Choose the electricity company (disco)'), meter: meterNumber, vendType }),
    "Checks a meter with its disco: the customer's name, address, minimum and outstanding amount",
  ).returns<MeterView>(),
  'purchases.validateSmartcard': op(
    z.object({ provider: z.string().trim().min(1, 'Choose the cable TV provider'), smartcard: smartcardNumber }),
    "Checks a smartcard with its provider: the customer's name and type",
  ).returns<SmartcardView>(),
  'purchases.buyElectricity': op(
    electricityRequestSchema,
    "Buys an electricity token; refused while the same meter and amount is pending; above a team's approval threshold, answers it waiting for approval (nothing bought)",
    {
      invalidates: PURCHASE_CHANGES,
    },
  ).returns<PurchaseView | WaitingPurchaseView>(),
  'purchases.buyCable': op(
    cableRequestSchema,
    "Buys a cable TV bouquet; refused while the same smartcard and bouquet is pending; above a team's approval threshold, answers it waiting for approval (nothing bought)",
    {
      invalidates: PURCHASE_CHANGES,
    },
  ).returns<PurchaseView | WaitingPurchaseView>(),
  'purchases.expectedCost': op(
    z.object({
      kind: z.enum(['airtime', 'data', 'electricity', 'cable']),
      /** The network, disco or cable provider, as the catalog codes it (MTN, IKEDC, DSTV). */
      network: z.string().trim().min(1),
      amountKobo: z.number().int().positive(),
      /** A cable bouquet's code: its catalog commission rate is used when the log has none for the provider. */
      productCode: z.string().trim().optional(),
    }),
    'What the wallet is expected to be charged for a purchase: the face value less the commission recent purchases of the product earned (an estimate)',
  ).returns<ExpectedCharge>(),
  'purchases.get': op(z.object({ id: z.string().min(1) }), 'One purchase and its receipt').returns<PurchaseView>(),
  'purchases.recent': op(
    z.object({ kind: z.enum(['electricity', 'cable']).optional(), limit: z.number().int().min(1).max(500).default(20) }),
    'The latest electricity and cable purchases, newest first',
  ).returns<PurchaseView[]>(),
  'purchases.settleUncertain': op(z.object({ id: z.string().min(1) }), 'Looks for an uncertain purchase in the transaction log and settles it from there', {
    invalidates: ['purchases', 'pending', 'mirror'],
  }).returns<PurchaseView>(),
  'purchases.checkTopUp': op(
    topUpRequestSchema,
    'What a single airtime or data purchase would buy: the network, the plan, the same purchase in the last 24 hours and the wallet; nothing is bought',
  ).returns<TopUpCheckView>(),
  'purchases.buyTopUp': op(
    z.intersection(topUpRequestSchema, z.object({ repeat: z.boolean().default(false) })),
    "Buys airtime or a data plan for one number (as a one-item bulk job) and waits for the service's answer; refused when the same was bought in the last 24 hours unless `repeat`; above a team's approval threshold, answers it waiting for approval (nothing bought)",
    { invalidates: [...PURCHASE_CHANGES, 'jobs'] },
  ).returns<TopUpView | WaitingPurchaseView>(),
  'purchases.topUp': op(z.object({ id: z.string().min(1) }), 'One single airtime or data purchase and its receipt').returns<TopUpView>(),
  'purchases.recentTopUps': op(
    z.object({ kind: z.enum(['airtime', 'data']).optional(), limit: z.number().int().min(1).max(500).default(20) }),
    'The latest single airtime and data purchases of the connection in use, newest first',
  ).returns<TopUpView[]>(),
  'purchases.checkRefund': op(z.object({ id: z.string().min(1) }), 'Reads the wallet again to confirm the refund of a declined or failed purchase', {
    invalidates: ['purchases', 'pending'],
  }).returns<PurchaseView>(),
} as const;
