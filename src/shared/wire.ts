/**
 * Wire types of the vending and messaging service (`shared/spec/vending-messaging-interface.md`).
 * Amounts here are Naira, as on the wire. The sandbox produces these shapes and the client parses
 * them; neither shares the other's logic. Where the spec says "not shown", the shapes below are
 * the sandbox's documented choice (docs/sandbox.md): the envelope, camelCase names.
 */
import type { Network } from './phone';

export type GatewayStatus = '00' | '01' | '88';

export interface Envelope<T> {
  gatewayStatus: GatewayStatus;
  gatewayMessage: string;
  requestReference: string;
  data: T;
}

/** `88` answers carry the reason as a string. */
export type FailureEnvelope = Envelope<string>;

export const SUCCESS_MESSAGE = 'Successfully Processed';
/** The log endpoint spells it so. */
export const LOG_SUCCESS_MESSAGE = 'Sucessfully Processed';
export const FAILURE_MESSAGE = 'Unsucessfull';
export const PENDING_MESSAGE = 'Transaction Pending';

export type LogType = 'AIRTIME' | 'DATA' | 'ELECTRICITY' | 'CABLETV';
export type LogStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

export interface LogEntry {
  id: number;
  transaction_id: string;
  partner_reference: string;
  phone_number: string;
  /** `NGN 1,000.00` */
  amount: string;
  transaction_cost: number;
  commission: number;
  type: LogType;
  network: string;
  operator: string;
  region: string;
  description: string;
  data_plan: string;
  status: LogStatus;
  time: string;
  created_at: string;
  updated_at: string;
}

/** The log entry's fields, in the spec's order: the columns of an exported log, the sandbox's and the benchmarks'. */
export const LOG_ENTRY_FIELDS = [
  'id',
  'transaction_id',
  'partner_reference',
  'phone_number',
  'amount',
  'transaction_cost',
  'commission',
  'type',
  'network',
  'operator',
  'region',
  'description',
  'data_plan',
  'status',
  'time',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof LogEntry)[];

export interface PageObject<T> {
  TotalPages: number;
  CurrentPage: number;
  TotalRecords: number;
  NextPage: string;
  PreviousPage: string;
  Items: T[];
}

export interface LogQuery {
  page?: number;
  perPage?: number;
  startdate?: string;
  enddate?: string;
  download?: boolean;
  status?: 'success' | 'failed' | 'pending' | 'all';
  type?: 'airtime' | 'data' | 'electricity' | 'cable' | 'all';
  network?: string;
  search?: string;
}

export interface DataPlan {
  id: number;
  network: Network;
  operator: string;
  productCode: string;
  productGroup: string;
  voucherCode: string;
  description: string;
  amount: number;
  dataValue: number;
  networkLogo: string;
}

export interface AirtimeProduct {
  id: number;
  network: Network;
  operator: string;
  region: string;
  productCode: string;
  productGroup: string;
  voucherCode: string;
  minAmount: number;
  maxAmount: number;
  networkLogo: string;
}

export interface CableBouquet {
  id: number;
  network: string;
  productCode: string;
  description: string;
  amount: number;
  percentage: number;
}

export interface ElectricityProvider {
  id: number;
  name: string;
  productCode: string;
  description: string;
  minAmount: number;
  maxAmount: number;
  percentage: number;
}

export type VendType = 'PREPAID' | 'POSTPAID';

export interface MeterValidation {
  name: string;
  address: string;
  minAmount: number;
  outstanding: number;
}

export interface SmartcardValidation {
  name: string;
  address: string;
  customerType: string;
  outstanding: number;
}

export interface AirtimeItem {
  amount: number;
  phoneNumber: string;
  network: string;
  productCode: string;
  voucherCode?: string;
  operator: string;
  region: string;
}

export interface DataItem {
  phoneNumber: string;
  productCode: string;
  network: string;
  voucherCode?: string;
  amount: number;
  dataValue?: number;
}

export interface BatchAccepted {
  message: string;
  references: string[];
}

export interface ElectricityPurchase {
  amount: number;
  meter: string;
  phone: string;
  disco: string;
  vendType: VendType;
}

export interface ElectricityResult {
  token: string;
  units: number;
  receiptNo: string;
  commission: number;
}

export interface CablePurchase {
  amount: number;
  smartcard: string;
  phone: string;
  provider: string;
  bouquetCode: string;
}

export interface CableResult {
  smartcard: string;
  provider: string;
  bouquet: string;
  amount: number;
  commission: number;
}

export interface RequeryResult {
  status: LogStatus;
  reference: string;
  token?: string;
  units?: number;
}

export interface AccountBalance {
  AccountName: string;
  GlobalBalance: { Balance: number; Currency: string; AccountNumber: string }[];
}

// ---- Messaging: shapes the spec leaves open; the sandbox's choices (docs/sandbox.md) ----

export type ApprovalState = 'APPROVED' | 'PENDING' | 'REJECTED';
/** Approval per coverage area; the sandbox has one area, `NG`. */
export type ApprovalByArea = Record<string, ApprovalState>;

export interface SenderIdRecord {
  senderId: string;
  approval: ApprovalByArea;
  createdAt: string;
}

export interface CreateTemplateBody {
  body: string;
  indexes: string[];
  name: string;
  slug: string;
  useCase: string;
}

export interface TemplateRecord extends CreateTemplateBody {
  id: string;
  approval: ApprovalByArea;
  createdAt: string;
}

export interface SendMessageBody {
  receiverNumber?: string;
  senderId: string;
  messageBody?: string;
  isBulk?: boolean;
  phoneBookId?: number;
  sendtoEmail?: boolean;
  emails?: string[];
  subject?: string;
  templateInUse?: boolean;
  template?: { templateId: string; indexes: string[] };
}

export type MessageStatus = 'DELIVERED' | 'SENT' | 'FAILED';

export interface MessageRecord {
  reference: string;
  senderId: string;
  body: string;
  isBulk: boolean;
  phoneBookId: number | null;
  recipients: string[];
  recipientCount: number;
  pages: number;
  emails: string[];
  /** Naira */
  smsCost: number;
  /** Naira */
  emailCost: number;
  /** Naira */
  totalCost: number;
  status: MessageStatus;
  templateId: string | null;
  createdAt: string;
}

export interface SendEvidenceBody {
  receiverNumber: string;
  senderId: string;
  numberOfDigits: number;
  seconds: number;
  sendtoEmail?: boolean;
  emails?: string[];
}

export interface EvidenceSent {
  reference: string;
  receiverNumber: string;
  numberOfDigits: number;
  expiresAt: string;
  /** Naira */
  cost: number;
}

export interface EvidenceConfirmed {
  reference: string;
  confirmed: true;
  confirmedAt: string;
}

export interface PhonebookRecord {
  id: number;
  name: string;
  description: string;
  contactCount: number;
  createdAt: string;
}

export interface ContactRecord {
  id: number;
  phoneBookId: number;
  name: string;
  phoneNumber: string;
  createdAt: string;
}

/** `/getPhonebook?phoneBookId=N` answers one phonebook with its contacts. */
export interface PhonebookWithContacts extends PhonebookRecord {
  contacts: ContactRecord[];
}

export interface ContactsCreated {
  phoneBookId: number;
  added: number;
  /** Already in the phonebook (same 11-digit number): not added again. */
  skipped: number;
  contacts: ContactRecord[];
}

/** `/__sandbox/outbox` entries. */
export interface OutboxEntry {
  channel: 'sms' | 'email';
  to: string;
  body: string;
  reference: string;
  createdAt: string;
  code?: string;
}
