/**
 * The settings of bulk jobs, kept in the app's settings table. Spending caps are optional
 * (null = no cap) and in kobo; they are checked when a job is confirmed and again before every
 * batch is sent.
 */
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

const KEY = 'bulk.settings';

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

function cap(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  return Math.round(value);
}

export function readBulkSettings(settings: Settings): BulkSettings {
  const raw = settings.get<Partial<Record<keyof BulkSettings, unknown>>>(KEY, {});
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

export function writeBulkSettings(settings: Settings, patch: Partial<BulkSettings>): BulkSettings {
  const current = readBulkSettings(settings);
  const next = { ...current, ...patch };
  settings.set(KEY, next);
  return readBulkSettings(settings);
}

/** Midnight of today in this computer's time zone, as epoch ms. */
export function startOfLocalDay(at = new Date()): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
