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
 *
 * Every cap counts money that may have left the wallet: the items in a state the state table says
 * spends (`SPENDING_STATES`: sending, accepted, pending, uncertain and successful — bought or maybe
 * bought), never only what is known bought. A cap is reached at its amount, not before: a job or
 * batch that takes the spending exactly to the cap goes; one kobo more does not. The day of the
 * daily cap is a Lagos day on the service's clock (the clock items' `sent_ms` are stamped on).
 */
import { lagosDayStartMs, lagosToday } from '../../shared/localDates';
import type { BulkSettingsView } from '../../shared/contract/bulk';
import { formatNaira } from '../../shared/money';
import type { VendingClient } from '../api/vendingClient';
import { walletKoboOrProblem } from '../api/walletReading';
import type { Settings } from '../store/settings';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow } from './jobRows';
import { SPENDING_STATES } from './jobStates';

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

/**
 * When today began for the daily cap, as epoch ms: midnight in Lagos of the day `serviceNowMs`
 * (the service's clock) is in, whatever zone or time this computer has.
 */
export function startOfServiceDay(serviceNowMs: number): number {
  return lagosDayStartMs(lagosToday(serviceNowMs));
}

/** What a job's items in the spending states add up to (face value, kobo): bought or maybe bought. */
function spentByJob(store: Pick<JobReads, 'amounts'>, jobId: string): number {
  const amounts = store.amounts(jobId);
  return SPENDING_STATES.reduce((sum, state) => sum + amounts[state], 0);
}

// ------------------------------------------------------------------ what the limits refuse

/**
 * What confirming `job` is checked against, read at once: the bulk settings of its connection and
 * the wallet of the service it runs on (unread, the wallet does not block: the job pauses with a
 * clear message if it runs short), and why the limits refuse it (null when they do not).
 * `serviceNow`: the service's clock, read (for the daily cap) once the wallet answered, so it has that answer's time.
 */
export async function confirmLimits(
  settingsStore: Settings,
  store: Pick<JobReads, 'spentSince'>,
  client: Pick<VendingClient, 'accountBalance' | 'clock'>,
  job: Pick<JobRow, 'profile_id'>,
  figures: { totalKobo: number; items: number; maxTotalKobo?: number },
  serviceNow: () => number,
): Promise<{ settings: BulkSettings; walletKobo: number | null; blocker: string | null }> {
  const walletKobo = (await walletKoboOrProblem(client)).kobo;
  const settings = readBulkSettings(settingsStore, job.profile_id);
  return { settings, walletKobo, blocker: confirmBlocker(store, settings, job.profile_id, { ...figures, walletKobo }, serviceNow) };
}

/** Today's spending of a connection for the daily cap: bought or maybe bought since the Lagos day began on the service's clock (kobo). */
export function spentToday(store: Pick<JobReads, 'spentSince'>, profileId: string, serviceNowMs: number): number {
  return store.spentSince(profileId, startOfServiceDay(serviceNowMs));
}

/** Why confirming a job now would be refused; null when it may go ahead. `serviceNow`: the service's clock, read only for a daily cap. */
export function confirmBlocker(
  store: Pick<JobReads, 'spentSince'>,
  settings: BulkSettings,
  profileId: string,
  { totalKobo, items, walletKobo, maxTotalKobo }: { totalKobo: number; items: number; walletKobo: number | null; maxTotalKobo?: number },
  serviceNow: () => number,
): string | null {
  if (items === 0) return 'There is nothing to buy: every row is invalid or left out.';
  if (settings.capPerJobKobo !== null && totalKobo > settings.capPerJobKobo) {
    return `The job total ${formatNaira(totalKobo)} is above the spending cap per job of ${formatNaira(settings.capPerJobKobo)}. Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).`;
  }
  if (settings.capPerDayKobo !== null) {
    const today = spentToday(store, profileId, serviceNow());
    if (today + totalKobo > settings.capPerDayKobo) {
      return `This job (${formatNaira(totalKobo)}) would take today's spending on this connection to ${formatNaira(today + totalKobo)} (${formatNaira(today)} bought or maybe bought today), above the daily cap of ${formatNaira(settings.capPerDayKobo)}. Buy fewer rows today, or raise the daily cap (Purchases → Limits for bulk jobs).`;
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
 * next batch. `serviceNow`: the service's clock, read only for a daily cap.
 */
export function batchBlocker(
  store: Pick<JobReads, 'amounts' | 'spentSince'>,
  settingsTable: Settings,
  job: Pick<JobRow, 'id' | 'profile_id'>,
  batch: readonly ItemRow[],
  serviceNow: () => number,
): { settings: BulkSettings; blocker: string | null } {
  const settings = readBulkSettings(settingsTable, job.profile_id);
  return { settings, blocker: batchCapProblem(store, settings, job, batch, serviceNow) };
}

function batchCapProblem(
  store: Pick<JobReads, 'amounts' | 'spentSince'>,
  settings: BulkSettings,
  job: Pick<JobRow, 'id' | 'profile_id'>,
  batch: readonly ItemRow[],
  serviceNow: () => number,
): string | null {
  const batchKobo = batch.reduce((s, i) => s + i.amount_kobo, 0);
  const { capPerJobKobo, capPerDayKobo } = settings;
  if (capPerJobKobo !== null) {
    const spent = spentByJob(store, job.id);
    if (spent + batchKobo > capPerJobKobo) {
      return `Paused: sending more would take this job past its spending cap of ${formatNaira(capPerJobKobo)} (${formatNaira(spent)} bought or maybe bought so far). Raise the cap per job (Purchases → Limits for bulk jobs), then resume.`;
    }
  }
  if (capPerDayKobo !== null) {
    const today = spentToday(store, job.profile_id, serviceNow());
    if (today + batchKobo > capPerDayKobo) {
      return `Paused: the daily spending cap of ${formatNaira(capPerDayKobo)} is reached (${formatNaira(today)} bought or maybe bought today on this connection). Resume tomorrow, or raise the daily cap (Purchases → Limits for bulk jobs) and resume.`;
    }
  }
  return null;
}
