import type Database from 'better-sqlite3';
import type { Migration } from './migration';

interface Hold {
  team_job_id: string;
  profile_id: string;
  kind: 'airtime' | 'data' | 'electricity' | 'cable';
  request: string;
  account: string;
  amount_kobo: number;
  description: string;
  state: 'waiting' | 'bought' | 'closed';
  purchase_id: string | null;
  created_at: string;
}

/** The one item of a purchase still waiting, from the request it was prepared with (the run writes it again from the purchase checked anew). */
function itemOf(hold: Hold): { phone: string; network: string; productCode: string; account: string | null; vendType: string | null } {
  const r = JSON.parse(hold.request) as Record<string, string | undefined>;
  switch (hold.kind) {
    case 'electricity':
      return { phone: r.phone ?? '', network: r.disco ?? '', productCode: '', account: hold.account, vendType: r.vendType ?? null };
    case 'cable':
      return { phone: r.phone ?? '', network: r.provider ?? '', productCode: r.bouquetCode ?? '', account: hold.account, vendType: null };
    default:
      return { phone: hold.account, network: r.network ?? '', productCode: r.productCode ?? '', account: null, vendType: null };
  }
}

/**
 * One table of approvals (issue 27): a single purchase sent for a team member's approval is a job
 * of one item (`origin = 'single'`) waiting in `awaiting_approval`, linked to its team job in
 * `team_job_links` like a spreadsheet's job, its request kept on the link (`request`: bought as it
 * was prepared once approved). `team_single_purchases` goes:
 * - one still waiting becomes its waiting job;
 * - one bought is linked to the job it was bought as (its outcome reaches the team database as a
 *   spreadsheet's job's does);
 * - one closed (rejected, cancelled, used) has nothing left to do here: the team database keeps it.
 */
export const oneTableOfApprovalsMigration: Migration = {
  version: 24,
  name: 'one table of approvals: a single purchase waits for approval as a job',
  up(db: Database.Database) {
    db.exec('ALTER TABLE team_job_links ADD COLUMN request TEXT');
    const link = db.prepare('INSERT INTO team_job_links (local_job_id, team_job_id, team_url, total_kobo, items, created_at, request) VALUES (?, ?, ?, ?, 1, ?, ?)');
    // Settings hold JSON: the team link's address, as a spreadsheet's job is linked with it.
    const linkSetting = db.prepare("SELECT value FROM settings WHERE key = 'team.link'").get() as { value: string } | undefined;
    const teamUrl = linkSetting ? ((JSON.parse(linkSetting.value) as { url?: string }).url ?? '') : '';
    const baseUrl = db.prepare('SELECT base_url FROM profiles WHERE id = ?');
    const jobOfPurchase = db.prepare("SELECT job_id FROM bulk_items WHERE purchase_id = ? UNION SELECT id FROM bulk_jobs WHERE id = ? AND origin = 'single'");
    const job = db.prepare(
      `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json,
        rows_total, invalid_count, batch_size, concurrency, message, created_at, updated_at, origin)
       VALUES (@id, @kind, 'awaiting_approval', @profile, 'live', @baseUrl, @name, '', '[]', '{}', 1, 0, 1, 1, @message, @at, @at, 'single')`,
    );
    const item = db.prepare(
      `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, description, amount_kobo, state, updated_at, account, vend_type)
       VALUES (@id, 1, 1, @phone, @network, @productCode, @description, @amount, 'queued', @at, @account, @vendType)`,
    );
    for (const hold of db.prepare('SELECT * FROM team_single_purchases ORDER BY created_at').all() as Hold[]) {
      if (hold.state === 'bought' && hold.purchase_id) {
        const bought = jobOfPurchase.get(hold.purchase_id, hold.purchase_id) as { job_id: string } | undefined;
        if (bought) link.run(bought.job_id, hold.team_job_id, teamUrl, hold.amount_kobo, hold.created_at, hold.request);
      } else if (hold.state === 'waiting') {
        const id = `approval-${hold.team_job_id}`;
        const at = hold.created_at;
        job.run({
          id,
          kind: hold.kind,
          profile: hold.profile_id,
          baseUrl: (baseUrl.get(hold.profile_id) as { base_url: string | null } | undefined)?.base_url ?? '',
          name: `${hold.description} for ${hold.account}`,
          message: `This purchase waits for approval by another team member (team job ${hold.team_job_id}). Nothing was bought.`,
          at,
        });
        item.run({ id, ...itemOf(hold), description: hold.description, amount: hold.amount_kobo, at });
        link.run(id, hold.team_job_id, teamUrl, hold.amount_kobo, at, hold.request);
      }
    }
    db.exec('DROP TABLE team_single_purchases');
  },
};
