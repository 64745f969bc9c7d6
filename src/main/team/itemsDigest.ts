/**
 * The digest of a team job's items, computed here the way the team database computes it
 * (`vendesk.items_digest`, team schema 004): SHA-256 (hex) over each item in order as canonical
 * text — its spreadsheet row, phone, meter or smartcard, network, product code or plan, operator,
 * meter type and amount in kobo, each field as "<bytes>:<text>" ("-" for none or empty), then ";".
 * The database stores it on the job when it is prepared and shows it to the approver; a desktop
 * compares it with the digest of the items it is about to send (`checkItemsDigest`), so a job whose
 * rows changed anywhere (a swapped recipient, another plan, another amount) sends nothing.
 */
import crypto from 'node:crypto';
import { AppError } from '../../shared/appError';
import { shortDigest } from '../../shared/teamDigest';

/** The fields of an item that decide what is bought (a stored `job_items.item` has them all). */
export interface DigestItem {
  rowNumber: number;
  phone?: string | null;
  account?: string | null;
  network?: string | null;
  productCode?: string | null;
  operator?: string | null;
  vendType?: string | null;
  amountKobo: number;
}

function field(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text === '' ? '-' : `${Buffer.byteLength(text, 'utf8')}:${text}`;
}

function itemText(i: DigestItem): string {
  return [i.rowNumber, i.phone, i.account, i.network, i.productCode, i.operator, i.vendType, i.amountKobo].map(field).join('') + ';';
}

/** The digest of items in order (an iterable, so a long job need not be held in memory at once). */
export function itemsDigest(items: Iterable<DigestItem>): string {
  const hash = crypto.createHash('sha256');
  for (const item of items) hash.update(itemText(item), 'utf8');
  return hash.digest('hex');
}

/**
 * Refuses (nothing is sent) when the items about to be sent are not the ones approved: their
 * digest differs from the one the team database computed when the job was prepared.
 */
export function checkItemsDigest(teamJobId: string, approved: string | null, local: string, what: string): void {
  if (approved === null) {
    throw new AppError(
      'approval_mismatch',
      `Team job ${teamJobId} has no record of its rows in the team database (it was prepared by an older vendesk), so what is sent cannot be checked against what was approved. Nothing was bought.`,
      'Prepare it again and send it for approval.',
    );
  }
  if (approved !== local) {
    throw new AppError(
      'approval_mismatch',
      `${what} are not the rows that were approved in team job ${teamJobId} (their digest is ${shortDigest(local)}, the approved one ${shortDigest(approved)}). Nothing was bought.`,
      'Prepare the job again from the spreadsheet and send it for approval.',
    );
  }
}
