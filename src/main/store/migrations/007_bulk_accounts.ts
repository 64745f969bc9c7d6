import type { Migration } from './migration';

/**
 * Bulk electricity and cable TV. Such a job item buys for a meter or a smartcard (its
 * `account`; `phone` stays the customer's phone), of a meter type for electricity, and each
 * one is bought through the purchases module, which writes its `purchases` row (migration 006)
 * before the request leaves. `purchase_id` ties the item to that row: after a crash an item
 * with no purchase row was never sent, and one with a purchase row is settled by the purchases
 * module, never sent again.
 */
export const bulkAccountsMigration: Migration = {
  version: 7,
  name: 'bulk items for meters and smartcards, linked to their purchase',
  up: `
    ALTER TABLE bulk_items ADD COLUMN account TEXT;
    ALTER TABLE bulk_items ADD COLUMN vend_type TEXT;
    ALTER TABLE bulk_items ADD COLUMN purchase_id TEXT;
    CREATE INDEX bulk_items_account ON bulk_items (account, amount_kobo) WHERE account IS NOT NULL;
    CREATE UNIQUE INDEX bulk_items_purchase ON bulk_items (purchase_id) WHERE purchase_id IS NOT NULL;
  `,
};
