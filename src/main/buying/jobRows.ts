/**
 * The rows of the bulk tables as vendesk reads them (jobs, items, invalid rows), what a new job
 * and its items are written from, and the figures of one item state.
 */
import type { BulkJobKind, ItemState, JobState } from './jobStates';

/** The items of one state: how many, their face value, and the wallet cost of the `costKnown` whose cost is known. */
export interface StateFigures {
  count: number;
  faceKobo: number;
  costKobo: number;
  costKnown: number;
}

/** What of a purchase decides the state and reason of the bulk item linked to it. */
export interface PurchaseStateFields {
  state: string;
  reason: string | null;
  hint: string | null;
  refund_state: string;
}

export interface JobRow {
  id: string;
  kind: BulkJobKind;
  state: JobState;
  profile_id: string;
  connection_kind: 'sandbox' | 'live';
  base_url: string;
  file_name: string;
  file_hash: string;
  sheet_name: string | null;
  headers_json: string;
  mapping_json: string;
  rows_total: number;
  invalid_count: number;
  batch_size: number;
  concurrency: number;
  message: string | null;
  runner_pid: number | null;
  lease_until_ms: number | null;
  created_at: string;
  confirmed_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** `file`: a spreadsheet's job; `single`: one airtime or data purchase (migration 14). */
  origin: JobOrigin;
}

/** Where a job's items came from: a spreadsheet, or one purchase made on its own. */
export type JobOrigin = 'file' | 'single';

export interface ItemRow {
  job_id: string;
  seq: number;
  row_number: number;
  phone: string;
  network: string;
  product_code: string;
  voucher_code: string;
  operator: string;
  region: string;
  data_value: number | null;
  description: string;
  amount_kobo: number;
  name: string;
  note: string;
  given_network: string | null;
  prefix_network: string | null;
  duplicate_of: string | null;
  state: ItemState;
  solo: number;
  attempts: number;
  holds: number;
  reference: string | null;
  reason: string | null;
  settled_by: string | null;
  sent_ms: number | null;
  not_before_ms: number | null;
  final_at: string | null;
  updated_at: string;
  /** Electricity and cable: meter or smartcard number (migration 007); null for airtime and data. */
  account: string | null;
  /** Electricity: PREPAID or POSTPAID. */
  vend_type: string | null;
  account_name: string | null;
  /** The department it is charged to (migration 36); null: none given. */
  cost_centre: string | null;
  /** Electricity and cable: the `purchases` row this item was bought as. */
  purchase_id: string | null;
  /** What the wallet was charged for it (migration 9); null while not known. */
  cost_kobo: number | null;
  /** When it may next be requeried (see `requeryDueAt`). */
  next_requery_ms: number | null;
  requery_tries: number;
  /** From the linked purchase (read by `items`): prepaid token and units. */
  token?: string | null;
  units?: number | null;
}

export interface NewJob {
  kind: BulkJobKind;
  profileId: string;
  connectionKind: 'sandbox' | 'live';
  baseUrl: string;
  fileName: string;
  fileHash: string;
  sheetName: string | null;
  headers: string[];
  mapping: unknown;
  rowsTotal: number;
  batchSize: number;
  concurrency: number;
  /** Default `file`. */
  origin?: JobOrigin;
}

export interface NewItem {
  rowNumber: number;
  phone: string;
  network: string;
  productCode: string;
  voucherCode: string;
  operator: string;
  region: string;
  dataValue: number | null;
  description: string;
  amountKobo: number;
  name: string;
  note: string;
  givenNetwork: string | null;
  prefixNetwork: string | null;
  duplicateOf: string | null;
  /** `excluded` for duplicates left out by default; otherwise `queued`. */
  state: 'queued' | 'excluded';
  /** Electricity and cable: meter or smartcard number, and meter type. */
  account?: string | null;
  vendType?: string | null;
  /** Electricity and cable: the name the service gave for the meter or smartcard when it was checked. */
  accountName?: string | null;
  /** The department the purchase is charged to (src/shared/costCentre.ts); null or absent: none given. */
  costCentre?: string | null;
}

/** An item of what it buys, queued; what only a spreadsheet's row has (its name and note, a network conflict, a duplicate, a voucher) left blank. */
export function newItem(what: Pick<NewItem, 'rowNumber' | 'phone' | 'network' | 'productCode' | 'description' | 'amountKobo'> & Partial<NewItem>): NewItem {
  return { voucherCode: '', operator: '', region: '', dataValue: null, name: '', note: '', givenNetwork: null, prefixNetwork: null, duplicateOf: null, state: 'queued', ...what };
}

export interface InvalidRowRecord {
  row: number;
  field: string;
  message: string;
  /** The row's phone and name as the file wrote them (null: no such column, or prepared before they were kept). */
  phone?: string | null;
  name?: string | null;
}

/**
 * One thing the requery loop may ask about (`JobReads.dueForRequery`): an electricity or cable
 * purchase, the vending detail of its item (which follows it), or an airtime or data item of its job.
 */
export type DueRequery = { purchase: { id: string; state: string }; job: null; item: null } | { purchase: null; job: JobRow; item: ItemRow };
