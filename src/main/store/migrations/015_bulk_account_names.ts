import type { Migration } from './migration';

/**
 * The name the service gives for a bulk electricity meter or cable smartcard when vendesk checks
 * it before the job is confirmed (the meter's owner, the smartcard's subscriber), so the preview
 * shows whose meter each row will pay for before anything is bought. Null when it was not checked
 * (more rows than are checked up front, or the service did not answer then).
 */
export const bulkAccountNamesMigration: Migration = {
  version: 15,
  name: 'bulk items: the account name the service gave',
  up: `
    ALTER TABLE bulk_items ADD COLUMN account_name TEXT;
  `,
};
