/**
 * Spend as the service's own log states it (GET /logEntries over HTTP, every page): the face value
 * from each entry's `amount` text ("NGN 1,234.50") and the wallet cost from its `transaction_cost`,
 * read here without vendesk's parsers, so a test checks vendesk's figures against the service.
 */
import type { LogEntry } from '../../src/shared/wire';
import { allLogEntries } from './serviceLogEntries';
import type { TestApp } from './testApp';

export async function serviceLog(t: TestApp): Promise<LogEntry[]> {
  return (await allLogEntries(t.sandbox.url, t.token)) as unknown as LogEntry[];
}

export interface ServiceSpend {
  purchases: number;
  faceKobo: number;
  costKobo: number;
}

/** "NGN 1,234.50" → 123450. */
export function faceKoboOf(entry: LogEntry): number {
  const [naira, kobo = '00'] = entry.amount.replace(/[^\d.]/g, '').split('.');
  return Number(naira) * 100 + Number(kobo.padEnd(2, '0'));
}

export function costKoboOf(entry: LogEntry): number {
  return Math.round(entry.transaction_cost * 100);
}

/** Count, face value and wallet cost of the entries that pass `keep`. */
export function serviceSpend(entries: readonly LogEntry[], keep: (e: LogEntry) => boolean): ServiceSpend {
  const out: ServiceSpend = { purchases: 0, faceKobo: 0, costKobo: 0 };
  for (const e of entries) {
    if (!keep(e)) continue;
    out.purchases++;
    out.faceKobo += faceKoboOf(e);
    out.costKobo += costKoboOf(e);
  }
  return out;
}
