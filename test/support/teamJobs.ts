/**
 * Team jobs written through raw SQL, as a (modified) client could: each login registers its
 * desktop (`record_join`) before anything else, and a job is prepared with its items
 * (`prepare_bulk_job`; `prepare_job` is not callable by members since team schema 004).
 */
import pg from 'pg';
import type { PostgresCluster } from './postgresCluster';

export interface RawItem {
  row: number;
  phone: string;
  amountKobo: number;
  network?: string;
  productCode?: string;
  account?: string;
}

export interface Desk {
  id: string;
  name: string;
}

/** Registers the login's desktop (the first call binds the id to the login). */
export async function joinDesk(client: pg.ClientBase, desk: Desk): Promise<void> {
  await client.query('SELECT vendesk.record_join($1, $2)', [desk.id, desk.name]);
}

/** A member with psql: a new login in `roles`, signed in over TCP with its own password, its desktop registered. */
export async function signInAsNewMember(cluster: PostgresCluster, name: string, roles: string[], desk: Desk): Promise<{ client: pg.Client; password: string }> {
  const password = await cluster.createLogin(name, roles);
  const client = new pg.Client(cluster.config(name, password));
  await client.connect();
  await joinDesk(client, desk);
  return { client, password };
}

/** The items as a desktop stores them in `job_items.item`. */
export function storedItems(items: RawItem[]): Record<string, unknown>[] {
  return items.map((i) => ({
    rowNumber: i.row,
    phone: i.phone,
    network: i.network ?? 'MTN',
    productCode: i.productCode ?? '',
    account: i.account ?? null,
    amountKobo: i.amountKobo,
  }));
}

/** The preview an approver is shown of these items. */
export function previewOf(items: RawItem[]): Record<string, unknown> {
  return {
    kind: 'airtime',
    rows: items.map((i) => ({ row: i.row, phone: i.phone, network: i.network ?? 'MTN', product: i.productCode || 'airtime', amountKobo: i.amountKobo })),
    moreRows: 0,
  };
}

/** Items of `count` rows (2, 3, …) of `amountKobo` each. */
export function rowsOf(count: number, amountKobo: number, firstPhone = 8031000001): RawItem[] {
  return Array.from({ length: count }, (_, n) => ({ row: n + 2, phone: `0${firstPhone + n}`, amountKobo }));
}

export async function prepareRaw(
  client: pg.ClientBase,
  desk: Desk,
  options: { items: RawItem[]; sha?: string | null; repeat?: boolean; fileName?: string; walletKobo?: number | null; preview?: Record<string, unknown> },
): Promise<{ id: string; state: string; prepared_by: string; claim_scope: string; items_digest: string; preview: Record<string, unknown> }> {
  const items = options.items;
  const total = items.reduce((s, i) => s + i.amountKobo, 0);
  const r = await client.query('SELECT * FROM vendesk.prepare_bulk_job($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)', [
    desk.id,
    desk.name,
    'local-1',
    options.fileName ?? 'payroll.xlsx',
    options.sha ?? null,
    options.repeat ?? false,
    items.length,
    total,
    options.walletKobo === undefined ? 9_000_000 : options.walletKobo,
    JSON.stringify(options.preview ?? previewOf(items)),
    JSON.stringify({ bulkKind: 'airtime' }),
    JSON.stringify(storedItems(items)),
  ]);
  return r.rows[0];
}

/** Approves a job from the approver's desktop (`decide_job`); the job as it answers. */
export async function approveRaw(client: pg.ClientBase, desk: Desk, jobId: string): Promise<{ state: string }> {
  return (await client.query(`SELECT * FROM vendesk.decide_job($1, 'approved', 'ok', $2, $3)`, [jobId, desk.id, desk.name])).rows[0];
}

/** A claim as `claim_item` answers it. */
export interface RawClaim {
  job_id: string;
  item_index: number;
  request_ref: string;
  claimed_by: string;
  amount_kobo: string;
  outcome: string;
}

/**
 * Claims row `row` of a job before it is sent, naming the item about to be sent (team schema 005);
 * `item` (as a desktop stores it) defaults to the row as approved, read from `job_items`.
 */
export async function claimRaw(client: pg.ClientBase, desk: Desk, jobId: string, row: number, amountKobo: number, ref: string, item?: Record<string, unknown>): Promise<RawClaim> {
  const sent = item ?? (await client.query('SELECT item FROM vendesk.job_items WHERE job_id = $1 AND item_index = $2', [jobId, row])).rows[0]?.item ?? {};
  const r = await client.query('SELECT * FROM vendesk.claim_item($1, $2, $3, $4, $5, $6, $7)', [jobId, row, amountKobo, JSON.stringify(sent), ref, desk.id, desk.name]);
  return r.rows[0] as RawClaim;
}
