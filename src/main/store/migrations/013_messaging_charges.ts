import type { Migration } from './migration';

/**
 * A paid send records whose figure its charge is. The messaging answers' shapes are not shown by
 * the spec: when a success answer does not say what it charged, vendesk records the quoted cost
 * as the charge (`charge_source = 'quoted'`), so the wallet roll-forward still places it, and
 * says so. `request_reference` keeps the answer's envelope reference for support (a message
 * whose answer gives no reference of its own is found by it).
 */
export const messagingChargesMigration: Migration = {
  version: 13,
  name: 'messaging: where each charge figure comes from, and the request reference',
  up: `
    ALTER TABLE messaging_sends ADD COLUMN charge_source TEXT CHECK (charge_source IN ('service', 'quoted'));
    ALTER TABLE messaging_sends ADD COLUMN request_reference TEXT;
    UPDATE messaging_sends SET charge_source = 'service' WHERE state = 'sent' AND charged_kobo IS NOT NULL;
  `,
};
