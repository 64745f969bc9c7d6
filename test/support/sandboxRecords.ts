/**
 * What the service itself recorded, read from the test's sandbox over HTTP with the test's token:
 * its transaction log (/logEntries) and its wallet (/accountBalance). Figures are checked against
 * these, never against vendesk's own numbers.
 */
import { allLogEntries, type LogRow } from './serviceLogEntries';
import { nairaToKobo } from '../../src/shared/money';
import type { TestApp } from './testApp';

export type { LogRow };

/** Every entry of the sandbox's log for this test's organisation. */
export function sandboxLog(t: Pick<TestApp, 'sandbox' | 'token'>): Promise<LogRow[]> {
  return allLogEntries(t.sandbox.url, t.token);
}

/** The organisation's NGN wallet as the sandbox answers /accountBalance, in kobo. */
export async function sandboxWalletKobo(t: Pick<TestApp, 'sandbox' | 'token'>): Promise<number> {
  const res = await fetch(`${t.sandbox.url}/accountBalance`, { headers: { Authorization: `Bearer ${t.token}` } });
  const body = (await res.json()) as { data: { GlobalBalance: { Currency: string; Balance: number }[] } };
  const ngn = body.data.GlobalBalance.find((b) => b.Currency === 'NGN');
  if (!ngn) throw new Error(`no NGN wallet in /accountBalance: ${JSON.stringify(body)}`);
  return nairaToKobo(ngn.Balance);
}
