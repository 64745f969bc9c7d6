/**
 * The one reading of the wallet vendesk spends from: the NGN wallet of a client's organisation
 * (`/accountBalance`, the NGN entry: `shared/ngnWallet.ts`), in kobo, with when the service read
 * it. Everything that needs the wallet reads it here — a purchase's check, a bulk job's limits
 * and preview, the balance, the sync and the dashboard — on the client of the session it works
 * on; `transactions/balanceSnapshots.ts` keeps a reading as a snapshot of its connection.
 */
import { AppError } from '../../shared/appError';
import { nairaToKobo } from '../../shared/money';
import { ngnWallet } from '../../shared/ngnWallet';
import type { ServiceWindow } from './serviceTime';
import type { VendingClient } from './vendingClient';

export interface WalletReading {
  accountName: string;
  balanceKobo: number;
  currency: string;
  accountNumber: string;
  /** When the service read it, on its clock. */
  at: ServiceWindow;
  /** When the request left and its answer arrived, on this computer's clock (epoch ms). */
  local: { fromMs: number; toMs: number };
}

/** Reads the NGN wallet of `client`'s organisation. Throws what the client throws; `no_wallet` when the service reports no NGN wallet. */
export async function readNgnWallet(client: Pick<VendingClient, 'accountBalance' | 'clock'>, signal?: AbortSignal): Promise<WalletReading> {
  let at: ServiceWindow | null = null;
  const fromMs = Date.now();
  const balance = await client.accountBalance({ signal, onAnswered: (w) => (at = w) });
  const toMs = Date.now();
  const ngn = ngnWallet(balance);
  if (!ngn) throw new AppError('no_wallet', 'The service reported no NGN wallet for this organisation.', 'Ask the service to enable an NGN wallet.');
  return {
    accountName: balance.AccountName,
    balanceKobo: nairaToKobo(ngn.Balance),
    currency: ngn.Currency,
    accountNumber: ngn.AccountNumber,
    at: at ?? client.clock.windowAt(fromMs, toMs),
    local: { fromMs, toMs },
  };
}

/** The wallet in kobo, or why it is not known (it does not refuse anything: a job pauses, a purchase is refused by the service, if it runs short). */
export async function walletKoboOrProblem(client: Pick<VendingClient, 'accountBalance' | 'clock'>): Promise<{ kobo: number | null; problem: string | null }> {
  try {
    return { kobo: (await readNgnWallet(client)).balanceKobo, problem: null };
  } catch (error) {
    if (error instanceof AppError && error.code === 'no_wallet') return { kobo: null, problem: 'The service reported no NGN wallet.' };
    return { kobo: null, problem: `The wallet balance could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
}

/**
 * Before anything that takes its day or its "due" from the service's clock, in a process that has
 * had no answer yet (a fresh `vendesk` run): one read of the balance teaches it the service's time.
 * A failed read is ignored: the work goes on with this computer's clock, as it would offline, and
 * a read it needs then fails on its own terms. (Closing a month asks every time and must have the
 * answer: monthEnd/monthEndService.ts.)
 */
export async function learnServiceClock(client: Pick<VendingClient, 'accountBalance' | 'clock'>, signal?: AbortSignal): Promise<void> {
  if (!client.clock.known) await client.accountBalance({ signal }).catch(() => undefined);
}
