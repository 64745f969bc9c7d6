/**
 * The ledger account map of a connection (migration 39): which account each journal line posts
 * to. A type and a cost centre map to an expense account (a cost centre of `*` is every cost
 * centre of that type, set by a person on purpose); the prepaid wallet and commission earned have
 * one account each. A journal is checked against it before anything is written: a combination the
 * map does not name is listed, never guessed.
 */
import { AppError } from '../../shared/appError';
import type { Db } from '../store/database';
import type { ReadableDB } from '../store/readableDb';
import type { AccountMapping } from '../../shared/contract/monthEnd';

export const ANY_COST_CENTRE = '*';
/** What a journal posts that is not a purchase: vendesk's own messaging (SMS, e-mail copies, one-time codes). */
export const MESSAGING_TYPE = 'SMS';
export const JOURNAL_TYPES = ['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV', MESSAGING_TYPE] as const;

export function listAccounts(db: ReadableDB, profileId: string): AccountMapping[] {
  return db
    .prepare(`SELECT kind, type, cost_centre AS costCentre, account FROM account_map WHERE profile_id = ? ORDER BY kind = 'expense', type, cost_centre = '*', cost_centre`)
    .all(profileId) as AccountMapping[];
}

function checkAccount(account: string): string {
  const code = account.trim();
  if (code.length === 0 || code.length > 64 || [...code].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
    throw new AppError(
      'account_map_invalid',
      'An account code is 1 to 64 characters on one line.',
      'Type the code as your chart of accounts shows it, e.g. 6100 or "Airtime expense".',
    );
  }
  return code;
}

export function setAccount(db: Db, profileId: string, mapping: AccountMapping): AccountMapping {
  const account = checkAccount(mapping.account);
  const expense = mapping.kind === 'expense';
  const type = expense ? mapping.type.trim().toUpperCase() : '';
  const costCentre = expense ? mapping.costCentre.trim() : '';
  if (expense && !(JOURNAL_TYPES as readonly string[]).includes(type)) {
    throw new AppError('account_map_invalid', `"${mapping.type}" is not a type vendesk posts; use one of ${JOURNAL_TYPES.join(', ')}.`);
  }
  if (expense && (costCentre.length === 0 || costCentre.length > 100)) {
    throw new AppError('account_map_invalid', 'Name the cost centre (1 to 100 characters), or * for every cost centre of the type.');
  }
  db.prepare(
    `INSERT INTO account_map (profile_id, kind, type, cost_centre, account, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, kind, type, cost_centre) DO UPDATE SET account = excluded.account, updated_at = excluded.updated_at`,
  ).run(profileId, mapping.kind, type, costCentre, account, new Date().toISOString());
  return { kind: mapping.kind, type, costCentre, account };
}

export function removeAccount(db: Db, profileId: string, mapping: Omit<AccountMapping, 'account'>): boolean {
  const expense = mapping.kind === 'expense';
  return (
    db
      .prepare('DELETE FROM account_map WHERE profile_id = ? AND kind = ? AND type = ? AND cost_centre = ?')
      .run(profileId, mapping.kind, expense ? mapping.type.trim().toUpperCase() : '', expense ? mapping.costCentre.trim() : '').changes > 0
  );
}

/** Looks accounts up, and remembers what it could not find. */
export class AccountResolver {
  readonly unmapped = new Set<string>();
  private readonly expense = new Map<string, string>();
  private wallet: string | null = null;
  private commission: string | null = null;

  constructor(mappings: readonly AccountMapping[]) {
    for (const m of mappings) {
      if (m.kind === 'wallet') this.wallet = m.account;
      else if (m.kind === 'commission') this.commission = m.account;
      else this.expense.set(`${m.type}\u0000${m.costCentre}`, m.account);
    }
  }

  expenseFor(type: string, costCentre: string): string {
    const account = this.expense.get(`${type}\u0000${costCentre}`) ?? this.expense.get(`${type}\u0000${ANY_COST_CENTRE}`);
    if (account === undefined) this.unmapped.add(`${type} / ${costCentre}`);
    return account ?? '';
  }

  walletAccount(): string {
    if (this.wallet === null) this.unmapped.add('the prepaid wallet');
    return this.wallet ?? '';
  }

  commissionAccount(): string {
    if (this.commission === null) this.unmapped.add('commission earned');
    return this.commission ?? '';
  }
}
