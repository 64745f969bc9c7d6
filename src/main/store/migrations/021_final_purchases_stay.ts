import type { Migration } from './migration';

/** The purchase states nothing moves a purchase out of, as written when this step was made (a test holds them equal to the code's). */
export const FINAL_PURCHASE_STATES_AT_21 = ['success', 'failed', 'rejected'] as const;

const finals = FINAL_PURCHASE_STATES_AT_21.map((s) => `'${s}'`).join(', ');

/**
 * A settled purchase keeps its state: the database refuses to move a `success`, `failed` or
 * `rejected` purchase to another state, whatever writes it (`updatePurchase` already leaves it as it
 * is; this holds any other path). Its refund check and figures may still be filled in.
 */
export const finalPurchasesStayMigration: Migration = {
  version: 21,
  name: 'a settled purchase keeps its state',
  up: `
    CREATE TRIGGER purchases_final_state_stays BEFORE UPDATE OF state ON purchases
      WHEN OLD.state IN (${finals}) AND NEW.state IS NOT OLD.state
    BEGIN
      SELECT RAISE(ABORT, 'a settled purchase keeps its state (success, failed and rejected are final)');
    END;`,
};
