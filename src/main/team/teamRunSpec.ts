/**
 * What another team desktop needs to run an approved bulk job, stored in PostgreSQL when the job
 * is sent for approval (`prepare_bulk_job`, team schema 003): every item it buys and its run spec —
 * the service and organisation it was prepared for, the bulk kind, the sheet and its columns.
 * Read back by `teamJobRun.ts` on the desktop that adopts the job.
 */
import { normalizeBaseUrl } from '../../shared/baseUrl';
import { readNgnWallet } from '../api/walletReading';
import type { Session } from '../appContext';
import type { ItemRow, JobRow, NewItem } from '../buying/jobRows';
import type { BulkJobKind } from '../buying/jobStates';

/** Which service and organisation a team job was prepared for, and how its local job is made again. */
export interface TeamRunSpec {
  baseUrl: string;
  /** The NGN wallet's account number and the organisation's name, as `/accountBalance` gave them; null when it could not be read. */
  accountNumber: string | null;
  accountName: string | null;
  bulkKind: BulkJobKind;
  sheetName: string | null;
  headers: string[];
  mapping: unknown;
  rowsTotal: number;
}

/** One item as stored in `vendesk.job_items.item` (the fields a local job's item is made from). */
export type TeamItem = Omit<NewItem, 'state' | 'duplicateOf'>;

interface ServiceIdentity {
  baseUrl: string;
  accountNumber: string | null;
  accountName: string | null;
}

/** The service and organisation of `session` (the NGN wallet's account number, read by the one wallet reader). */
export async function serviceIdentity(session: Session): Promise<ServiceIdentity> {
  const baseUrl = normalizeBaseUrl(session.connection.baseUrl);
  try {
    const wallet = await readNgnWallet(session.client);
    return { baseUrl, accountNumber: wallet.accountNumber, accountName: wallet.accountName };
  } catch {
    return { baseUrl, accountNumber: null, accountName: null };
  }
}

/** One local item as the team database stores it. */
export function teamItem(i: ItemRow): TeamItem {
  return {
    rowNumber: i.row_number,
    phone: i.phone,
    network: i.network,
    productCode: i.product_code,
    voucherCode: i.voucher_code,
    operator: i.operator,
    region: i.region,
    dataValue: i.data_value,
    description: i.description,
    amountKobo: i.amount_kobo,
    name: i.name,
    note: i.note,
    givenNetwork: i.given_network,
    prefixNetwork: i.prefix_network,
    account: i.account,
    vendType: i.vend_type,
    accountName: i.account_name,
    // Kept by the team database in its own column (team schema 9), so a desktop that adopts the job charges each row as prepared.
    costCentre: i.cost_centre,
  };
}

/** The run spec and the items (those the job will buy) another desktop needs to run this job. */
export async function teamJobPayload(session: Session, job: JobRow, items: ItemRow[]): Promise<{ runSpec: TeamRunSpec; items: TeamItem[] }> {
  const identity = await serviceIdentity(session);
  return {
    runSpec: {
      ...identity,
      baseUrl: normalizeBaseUrl(job.base_url),
      bulkKind: job.kind,
      sheetName: job.sheet_name,
      headers: JSON.parse(job.headers_json) as string[],
      mapping: JSON.parse(job.mapping_json) as unknown,
      rowsTotal: job.rows_total,
    },
    items: items.map(teamItem),
  };
}
