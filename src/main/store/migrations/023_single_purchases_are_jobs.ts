import type { Migration } from './migration';

const DESCRIPTION = `CASE p.kind WHEN 'electricity' THEN p.provider_name || ' ' || coalesce(p.vend_type, '') || ' electricity' ELSE p.provider_name || ' ' || p.bouquet_name END`;

/**
 * A single electricity or cable purchase is a job of one item (`origin = 'single'`), as a single
 * airtime or data top-up is, its `purchases` row the vending detail linked to the item
 * (`buying/singleVending.ts`). Each one bought before this step gets its job here: finished, its
 * item in the state its purchase's means (`itemFromPurchase`: needing support or not found is
 * still pending; one left sending by a stopped vendesk is uncertain), with its reference, its
 * send and settle times and its wallet cost where the answer gave the commission. The item's
 * reason is written by the job's next read. Nothing about the purchase itself changes.
 */
export const singlePurchasesAreJobsMigration: Migration = {
  version: 23,
  name: 'single electricity and cable purchases are jobs of one item',
  up: `
    CREATE TEMP TABLE single_purchases_23 AS
      SELECT p.* FROM purchases p WHERE p.source <> 'bulk' AND NOT EXISTS (SELECT 1 FROM bulk_items b WHERE b.purchase_id = p.id);
    INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, sheet_name, headers_json, mapping_json,
      rows_total, invalid_count, batch_size, concurrency, created_at, confirmed_at, started_at, finished_at, updated_at, origin)
    SELECT 'single-' || p.id, p.kind, 'completed', p.profile_id, p.connection_kind, p.base_url, ${DESCRIPTION} || ' for ' || p.account, '', NULL, '[]', '{}',
      1, 0, 1, 1, p.created_at, p.created_at, p.created_at, coalesce(p.final_at, p.updated_at), p.updated_at, 'single'
    FROM single_purchases_23 p;
    INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, description, amount_kobo, state, reference, settled_by,
      sent_ms, final_at, updated_at, account, vend_type, purchase_id, cost_kobo, account_name)
    SELECT 'single-' || p.id, 1, 1, p.phone, p.provider_code, p.bouquet_code, ${DESCRIPTION}, p.amount_kobo,
      CASE p.state WHEN 'success' THEN 'success' WHEN 'failed' THEN 'failed' WHEN 'rejected' THEN 'rejected'
        WHEN 'pending' THEN 'pending' WHEN 'needs_support' THEN 'pending' WHEN 'not_found' THEN 'pending' ELSE 'uncertain' END,
      p.reference, CASE WHEN p.settled_by IS NOT NULL THEN 'purchase: ' || p.settled_by END,
      p.sent_ms, CASE WHEN p.state IN ('success', 'failed', 'rejected') THEN p.final_at END, p.updated_at, p.account, p.vend_type, p.id,
      CASE WHEN p.commission_kobo IS NOT NULL AND p.state IN ('pending', 'success', 'failed') THEN p.amount_kobo - p.commission_kobo END, p.customer_name
    FROM single_purchases_23 p;
    DROP TABLE single_purchases_23;`,
};
