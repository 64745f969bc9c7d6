/**
 * The settings of bulk jobs, per connection profile, kept in the app's settings table under
 * `bulk.settings:<profile id>`. Spending caps are optional (null = no cap) and in kobo; they
 * are checked when a job is confirmed and again before every batch is sent. A connection with
 * no settings of its own has the limits set before limits were per connection (`bulk.settings`,
 * copied to every profile by migration 9), else the defaults: a cap only ever limits spending.
 *
 * What the limits refuse is written here too, once: a job at confirm (`confirmBlocker`, which
 * the preview shows as its blocker; `confirmLimits` reads what confirming checks against, the
 * settings and the wallet) and each batch of a running job (`batchBlocker`).
 */
import { lagosDayStartMs, lagosToday } from '../../shared/localDates';
import type { BulkSettingsView } from '../../shared/contract/bulk';
import { formatNaira } from '../../shared/money';
import type { VendingClient } from '../api/vendingClient';
import { walletKoboOrProblem } from '../api/walletReading';
import type { Settings } from '../store/settings';
import type { ItemRow, JobRow, JobStore } from './jobStore';

/** The settings as the contract shows them; the field docs are there. */
export type BulkSettings = BulkSettingsView;

export const DEFAULT_BULK_SETTINGS: BulkSettings = {
  batchSize: 50,
  concurrency: 3,
  capPerJobKobo: null,
  capPerDayKobo: null,
  uncertainSafeDelaySeconds: 120,
  outcomeWaitSeconds: 60,
};

/** The limits of every connection before they were per connection. */
const LEGACY_KEY = 'bulk.settings';

/** Where a connection's bulk settings are kept (migration 9 writes the same keys). */
export function bulkSettingsKey(profileId: string): string {
  return `${LEGACY_KEY}:${profileId}`;
}

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

function cap(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  return Math.round(value);
}

/** The bulk settings of one connection profile. */
export function readBulkSettings(settings: Settings, profileId: string): BulkSettings {
  type Raw = Partial<Record<keyof BulkSettings, unknown>>;
  const raw = settings.get<Raw | null>(bulkSettingsKey(profileId), null) ?? settings.get<Raw>(LEGACY_KEY, {});
  const d = DEFAULT_BULK_SETTINGS;
  return {
    batchSize: clampInt(raw.batchSize, 1, 100, d.batchSize),
    concurrency: clampInt(raw.concurrency, 1, 8, d.concurrency),
    capPerJobKobo: raw.capPerJobKobo === undefined ? d.capPerJobKobo : cap(raw.capPerJobKobo),
    capPerDayKobo: raw.capPerDayKobo === undefined ? d.capPerDayKobo : cap(raw.capPerDayKobo),
    uncertainSafeDelaySeconds: clampInt(raw.uncertainSafeDelaySeconds, 0, 3600, d.uncertainSafeDelaySeconds),
    outcomeWaitSeconds: clampInt(raw.outcomeWaitSeconds, 0, 3600, d.outcomeWaitSeconds),
  };
}

/** Changes the bulk settings of one connection profile; the others keep theirs. */
export function writeBulkSettings(settings: Settings, profileId: string, patch: Partial<BulkSettings>): BulkSettings {
  const current = readBulkSettings(settings, profileId);
  settings.set(bulkSettingsKey(profileId), { ...current, ...patch });
  return readBulkSettings(settings, profileId);
}

/** Midnight of today in Lagos (the business day), as epoch ms. */
export function startOfLocalDay(at = new Date()): number {
  // The day of the daily cap is a Lagos day, whatever zone the computer is set to.
  return lagosDayStartMs(lagosToday(at.getTime()));
}

// ------------------------------------------------------------------ what the limits refuse

/**
 * What confirming `job` is checked against, read at once: the bulk settings of its connection and
 * the wallet of the service it runs on (unread, the wallet does not block: the job pauses with a
 * clear message if it runs short), and why the limits refuse it (null when they do not).
 */
export async function confirmLimits(
  settingsStore: Settings,
  store: Pick<JobStore, 'spentSince'>,
  client: Pick<VendingClient, 'accountBalance' | 'clock'>,
  job: Pick<JobRow, 'profile_id'>,
  figures: { totalKobo: number; items: number; maxTotalKobo?: number },
): Promise<{ settings: BulkSettings; walletKobo: number | null; blocker: string | null }> {
  const walletKobo = (await walletKoboOrProblem(client)).kobo;
  const settings = readBulkSettings(settingsStore, job.profile_id);
  return { settings, walletKobo, blocker: confirmBlocker(store, settings, job.profile_id, { ...figures, walletKobo }) };
}

/** Why confirming a job now would be refused; null when it may go ahead. */
export function confirmBlocker(
  store: Pick<JobStore, 'spentSince'>,
  settings: BulkSettings,
  profileId: string,
  { totalKobo, items, walletKobo, maxTotalKobo }: { totalKobo: number; items: number; walletKobo: number | null; maxTotalKobo?: number },
): string | null {
  if (items === 0) return 'There is nothing to buy: every row is invalid or left out.';
  if (settings.capPerJobKobo !== null && totalKobo > settings.capPerJobKobo) {
    return `The job total ${formatNaira(totalKobo)} is above the spending cap per job of ${formatNaira(settings.capPerJobKobo)}. Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).`;
  }
  if (settings.capPerDayKobo !== null) {
    const today = store.spentSince(profileId, startOfLocalDay());
    if (today + totalKobo > settings.capPerDayKobo) {
      return `This job (${formatNaira(totalKobo)}) would take today's bulk spending to ${formatNaira(today + totalKobo)}, above the daily cap of ${formatNaira(settings.capPerDayKobo)}. Buy fewer rows today, or raise the daily cap (Purchases → Limits for bulk jobs).`;
    }
  }
  if (maxTotalKobo !== undefined && totalKobo > maxTotalKobo) {
    return `The job total ${formatNaira(totalKobo)} is above the maximum you allowed (${formatNaira(maxTotalKobo)}): allow more, or leave rows out.`;
  }
  if (walletKobo !== null && walletKobo < totalKobo) {
    return `The wallet holds ${formatNaira(walletKobo)}, less than the job total of ${formatNaira(totalKobo)}. Top up the wallet or leave rows out.`;
  }
  return null;
}

/**
 * Why the next batch of a running job may not go (the job pauses with this message, saying what
 * to do; null when it may), with the settings it was checked against. The settings of the job's
 * connection are read again before every batch: a cap changed while the job runs holds from its
 * next batch.
 */
export function batchBlocker(
  store: Pick<JobStore, 'amounts' | 'spentSince'>,
  settingsTable: Settings,
  job: Pick<JobRow, 'id' | 'profile_id'>,
  batch: readonly ItemRow[],
): { settings: BulkSettings; blocker: string | null } {
  const settings = readBulkSettings(settingsTable, job.profile_id);
  return { settings, blocker: batchCapProblem(store, settings, job, batch) };
}

function batchCapProblem(
  store: Pick<JobStore, 'amounts' | 'spentSince'>,
  settings: BulkSettings,
  job: Pick<JobRow, 'id' | 'profile_id'>,
  batch: readonly ItemRow[],
): string | null {
  const batchKobo = batch.reduce((s, i) => s + i.amount_kobo, 0);
  const { capPerJobKobo, capPerDayKobo } = settings;
  if (capPerJobKobo !== null) {
    const a = store.amounts(job.id);
    const committed = a.sending + a.accepted + a.uncertain + a.success + a.pending;
    if (committed + batchKobo > capPerJobKobo) {
      return `Paused: sending more would take this job past its spending cap of ${formatNaira(capPerJobKobo)} (${formatNaira(committed)} committed so far). Raise the cap per job (Purchases → Limits for bulk jobs), then resume.`;
    }
  }
  if (capPerDayKobo !== null) {
    const today = store.spentSince(job.profile_id, startOfLocalDay());
    if (today + batchKobo > capPerDayKobo) {
      return `Paused: the daily spending cap of ${formatNaira(capPerDayKobo)} is reached (${formatNaira(today)} spent on bulk jobs today). Resume tomorrow, or raise the daily cap (Purchases → Limits for bulk jobs) and resume.`;
    }
  }
  return null;
}
