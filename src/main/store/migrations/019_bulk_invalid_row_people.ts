import type { Migration } from './migration';

/**
 * The phone and name an invalid row of a bulk file gave (as written in the file), so the results
 * workbook says whose row was not bought, not only its number. Null for rows prepared before this
 * step, and where the file had no such column.
 */
export const bulkInvalidRowPeopleMigration: Migration = {
  version: 19,
  name: 'bulk invalid rows: the phone and name the file gave',
  up: `
    ALTER TABLE bulk_invalid_rows ADD COLUMN phone TEXT;
    ALTER TABLE bulk_invalid_rows ADD COLUMN name TEXT;
  `,
};
