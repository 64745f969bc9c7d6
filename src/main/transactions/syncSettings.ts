/**
 * Settings of the log sync, kept in the app's settings table (one JSON value): how often the
 * open app syncs by itself, and how hard a sync may press the service.
 */
import type { SyncSettingsView } from '../../shared/contract/logs';
import type { Settings } from '../store/settings';

export type SyncSettings = SyncSettingsView;

export const SYNC_SETTING_LIMITS = {
  autoSyncMinutes: { min: 0, max: 1440 },
  concurrency: { min: 1, max: 32 },
  maxRequestsPerSecond: { min: 1, max: 1000 },
} as const;

export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  autoSyncMinutes: 5,
  concurrency: 12,
  maxRequestsPerSecond: 300,
};

const KEY = 'sync.settings';

function clampInt(value: unknown, limits: { min: number; max: number }, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(limits.max, Math.max(limits.min, Math.round(value)));
}

export function readSyncSettings(settings: Settings): SyncSettings {
  const raw = settings.get<Partial<Record<keyof SyncSettings, unknown>>>(KEY, {});
  const d = DEFAULT_SYNC_SETTINGS;
  const l = SYNC_SETTING_LIMITS;
  return {
    autoSyncMinutes: clampInt(raw.autoSyncMinutes, l.autoSyncMinutes, d.autoSyncMinutes),
    concurrency: clampInt(raw.concurrency, l.concurrency, d.concurrency),
    maxRequestsPerSecond: clampInt(raw.maxRequestsPerSecond, l.maxRequestsPerSecond, d.maxRequestsPerSecond),
  };
}

export function writeSyncSettings(settings: Settings, patch: Partial<SyncSettings>): SyncSettings {
  settings.set(KEY, { ...readSyncSettings(settings), ...patch });
  return readSyncSettings(settings);
}
