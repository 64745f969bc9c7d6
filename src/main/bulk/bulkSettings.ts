/**
 * The settings of bulk jobs, per connection profile, kept in the app's settings table under
 * `bulk.settings:<profile id>`. Spending caps are optional (null = no cap) and in kobo; they
 * are checked when a job is confirmed and again before every batch is sent. A connection with
 * no settings of its own has the limits set before limits were per connection (`bulk.settings`,
 * copied to every profile by migration 9), else the defaults: a cap only ever limits spending.
 */
import { lagosDayStartMs, lagosToday } from '../../shared/localDates';
import type { BulkSettingsView } from '../../shared/contract/bulk';
import type { Settings } from '../store/settings';

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

/**
 * One connection's bulk settings as a reader a running job keeps: each call reads them afresh, so
 * a cap lowered while the job runs holds from its next batch.
 */
export function bulkSettingsOf(settings: Settings, profileId: string): () => BulkSettings {
  return () => readBulkSettings(settings, profileId);
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
