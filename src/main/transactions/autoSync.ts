/**
 * The open app's own sync: every `autoSyncMinutes` (Settings → Sync, default 5; 0 = never) it
 * runs the same incremental sync as **Sync now** — the recent days, or the whole log the first
 * time — so the Dashboard's figures keep up without anyone pressing anything. The command line's
 * `vendesk sync` stays the tool for scheduled (cron) work; the CLI never starts this loop.
 *
 * - Started once per app by the shell that keeps the app open (`startAutoSync`, the desktop and
 *   browser shells); a second call does nothing. It stops with the app.
 * - The first sync comes a few seconds after start; the next `autoSyncMinutes` after the last
 *   finished sync, whoever started it (a sync by hand also moves the next one back).
 * - The first sync of a connection re-reads the 7 recent days Sync now reads; the ones after it,
 *   every few minutes, the last day (AUTO_WINDOW_DAYS) and every entry still pending, whatever
 *   its age: what can have changed since a few minutes ago.
 * - Paused while the service does not answer: a sync that cannot reach the service is tried
 *   again after 30 s, then 1, 2, 4 … minutes (never later than the normal interval); any other
 *   failure is shown and tried again at the normal interval.
 * - Each sync reads the connection in use when it starts (a switch of connection makes the next
 *   one come at once) and writes only that connection's mirror (logSync.ts).
 * - Every change of state is pushed as `sync.auto` for the header.
 */
import { AppError } from '../../shared/appError';
import type { AutoSyncView } from '../../shared/contract/logs';
import { ServiceError } from '../api/serviceErrors';
import type { App, AppPart } from '../appContext';
import { warmPositionIndex } from './logPositionIndex';
import { logSync } from './logSync';
import { WINDOW_DAYS } from './syncRun';
import { failureSinceLastSync, readCheckpoint } from './syncCheckpoint';
import { readSyncSettings } from './syncSettings';

/** Delay of the first sync after start, and after a switch of connection. */
export const FIRST_SYNC_DELAY_MS = 3_000;
const UNREACHABLE_FIRST_RETRY_MS = 30_000;
/** Days re-read by the syncs after the first (see above). */
export const AUTO_WINDOW_DAYS = 1;

export class AutoSync {
  private started = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private state: AutoSyncView['state'] = 'off';
  private nextAt: number | null = null;
  private reason: string | null = null;
  private unreachableRetries = 0;
  private ownRun = false;
  /** The connection whose 7-day window was read by this loop. */
  private fullWindowFor: string | null = null;

  constructor(private readonly app: App) {
    app.onClose(() => this.stop());
    app.events.subscribe((event) => {
      if (!this.started || this.closed) return;
      if (event.name === 'sync.progress') {
        const p = event.payload as { state: string };
        // A sync started by hand: show it, and count its end as the last sync.
        if (this.ownRun) return;
        if (p.state === 'running' && this.state !== 'running') this.set('running');
        else if (p.state !== 'running' && this.state === 'running') this.schedule(this.intervalMs());
      } else if (event.name === 'data.changed' && (event.payload as { topics: string[] }).topics.includes('connection')) {
        this.syncSoon();
      }
    });
  }

  /** Begins the schedule (once per app). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.schedule(FIRST_SYNC_DELAY_MS);
  }

  /** The next sync in `delayMs` (a switch of connection; tests). */
  syncSoon(delayMs = FIRST_SYNC_DELAY_MS): void {
    if (!this.started || this.closed || this.state === 'running') return;
    this.unreachableRetries = 0;
    this.reason = null;
    this.schedule(delayMs);
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The settings changed: the next sync comes `autoSyncMinutes` after the last one (or now). */
  settingsChanged(): void {
    if (!this.started || this.closed || this.state === 'running') return;
    const last = this.lastFinishedMs();
    this.schedule(last === null ? FIRST_SYNC_DELAY_MS : Math.max(0, last + this.intervalMs() - Date.now()));
  }

  view(): AutoSyncView {
    const everyMinutes = readSyncSettings(this.app.settings).autoSyncMinutes;
    let lastAt: string | null = null;
    let lastFailure: AutoSyncView['lastFailure'] = null;
    try {
      const checkpoint = readCheckpoint(this.app.db, this.app.connection.profileId);
      lastAt = checkpoint.lastFinishedAt;
      // A sync that failed since (whoever ran it): the header must not say "Synced".
      lastFailure = failureSinceLastSync(checkpoint);
    } catch {
      // not connected yet
    }
    const state = !this.started || everyMinutes === 0 ? (this.state === 'running' ? 'running' : 'off') : this.state;
    return {
      state,
      everyMinutes,
      nextAt: state === 'waiting' || state === 'paused' ? (this.nextAt === null ? null : new Date(this.nextAt).toISOString()) : null,
      lastAt,
      reason: state === 'paused' ? this.reason : null,
      lastFailure,
    };
  }

  private intervalMs(): number {
    return readSyncSettings(this.app.settings).autoSyncMinutes * 60_000;
  }

  private lastFinishedMs(): number | null {
    const at = readCheckpoint(this.app.db, this.app.connection.profileId).lastFinishedAt;
    return at ? Date.parse(at) : null;
  }

  private set(state: AutoSyncView['state']): void {
    this.state = state;
    this.app.events.emit('sync.auto', this.view());
  }

  private schedule(delayMs: number, state: AutoSyncView['state'] = 'waiting'): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.intervalMs() === 0) {
      this.nextAt = null;
      this.set('off');
      return;
    }
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref?.();
    this.set(state);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.closed) return;
    const sync = logSync(this.app);
    const other = sync.current();
    if (other) {
      // A sync by hand is running: the next one comes an interval after it ends.
      this.set('running');
      await other.catch(() => undefined);
      if (!this.closed) this.schedule(this.intervalMs());
      return;
    }
    this.ownRun = true;
    this.set('running');
    const profileId = this.app.connection.profileId;
    try {
      await sync.run({ windowDays: this.fullWindowFor === profileId ? AUTO_WINDOW_DAYS : WINDOW_DAYS });
      this.fullWindowFor = profileId;
      // The Transactions table's position index, ready before anyone opens it.
      void warmPositionIndex(this.app.db, profileId);
      this.unreachableRetries = 0;
      this.reason = null;
      this.ownRun = false;
      this.schedule(this.intervalMs());
    } catch (error) {
      this.ownRun = false;
      if (this.closed) return;
      if (error instanceof AppError && error.code === 'sync_cancelled') {
        this.reason = null;
        this.schedule(this.intervalMs());
      } else if (error instanceof ServiceError && error.httpStatus === null) {
        this.reason = error.message;
        const delay = Math.min(this.intervalMs(), UNREACHABLE_FIRST_RETRY_MS * 2 ** this.unreachableRetries);
        this.unreachableRetries += 1;
        this.schedule(delay, 'paused');
      } else {
        this.reason = error instanceof Error ? error.message : String(error);
        this.schedule(this.intervalMs(), 'paused');
      }
    }
  }
}

export function createAutoSync(app: App): AutoSync {
  return new AutoSync(app);
}

/** The app's automatic sync (created stopped; see startAutoSync). */
export function autoSync(app: AppPart<'service'>): AutoSync {
  return app.service(createAutoSync);
}

/** Starts the open app's automatic sync; called once by each shell that keeps the app open. */
export function startAutoSync(app: AppPart<'service'>): AutoSync {
  const auto = autoSync(app);
  auto.start();
  return auto;
}
