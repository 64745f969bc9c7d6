import type { Migration } from './migration';

/**
 * The ledger account map of a connection (src/main/monthEnd/accountMap.ts): which ledger account a
 * journal line posts to. `kind` `expense` maps a type and a cost centre (`*`: any cost centre of
 * that type, set on purpose by a person, never assumed); `wallet` is the prepaid wallet (an asset)
 * and `commission` the commission earned (income), each with `type` and `cost_centre` empty.
 */
export const accountMapMigration: Migration = {
  version: 39,
  name: 'month-end: the ledger account map (type and cost centre to account code)',
  up: `
    CREATE TABLE account_map (
      profile_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('expense', 'wallet', 'commission')),
      type TEXT NOT NULL,
      cost_centre TEXT NOT NULL,
      account TEXT NOT NULL CHECK (length(account) BETWEEN 1 AND 64),
      updated_at TEXT NOT NULL,
      PRIMARY KEY (profile_id, kind, type, cost_centre)
    );
  `,
};
