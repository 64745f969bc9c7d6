import type { Migration } from './migration';

/**
 * What the wallet got back for a failed electricity or cable purchase: its log entry's wallet
 * cost (`transaction_cost`: the face value less the commission), read when the refund is
 * concluded from the service's log. A refund is stated at this amount, never at the face value;
 * null until the entry was read.
 */
export const refundedAmountsMigration: Migration = {
  version: 18,
  name: 'purchases: the amount a refund gave back',
  up: `
    ALTER TABLE purchases ADD COLUMN refunded_kobo INTEGER;
  `,
};
