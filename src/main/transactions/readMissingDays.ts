/**
 * Before a report, a listing or an export over a range of Lagos days: the days the mirror has not
 * read are read from the service first (`read`), or the work is refused naming them and the sync
 * that reads them (`refuse`, error `days_unread`). Nothing is ever counted over a range silently
 * short (logCoverage.ts says what the mirror holds).
 *
 * Today is missing only when no sync read it since it began; read earlier, it counts up to then,
 * and the coverage returned says up to when (logCoverage.ts). When the read fails — the service
 * cannot be reached — the refusal says so and names the sync to run once it answers.
 */
import { AppError } from '../../shared/appError';
import type { MirrorCoverage, ReadPurpose, UnreadDays } from '../../shared/contract/logs';
import { missingDaysText } from '../../shared/coverageText';
import { createServiceClock } from '../api/serviceClock';
import { learnServiceClock } from '../api/walletReading';
import type { App, AppPart } from '../appContext';
import { mirrorCoverage } from './logCoverage';
import { logSync } from './logSync';

export interface DaysRange {
  from?: string;
  to?: string;
}

/** What the mirror holds of the range now (today on the service's clock, as this process knows it). */
export function coverageNow(app: AppPart<'db' | 'connection' | 'service'>, range: DaysRange): MirrorCoverage {
  return mirrorCoverage(app.db, app.connection.profileId, range, app.service(createServiceClock).now());
}

/**
 * As `coverageNow`, but when vendesk may read the service (`ask`) and this process has not heard
 * its time yet (a fresh `vendesk` run), it asks first: which day is today is the service's to say,
 * never this computer's (whose day may differ near midnight, or by a clock set wrong).
 */
export async function coverageAsked(app: App, range: DaysRange, ask: boolean, signal?: AbortSignal): Promise<MirrorCoverage> {
  if (ask) await learnServiceClock(app.client(), signal);
  return coverageNow(app, range);
}

/** What was not done, by what the days were for. */
const NOT_DONE: Record<ReadPurpose, string> = {
  report: 'The spend report was not written',
  listing: 'The entries were not listed',
  export: 'The export was not written',
  reconciliation: 'The reconciliation was not run',
  closePack: 'The close pack was not written',
  journal: 'The journal was not written',
  close: 'The month was not closed',
};

/** The refusal: which days, why (a failed read), and the sync that reads them (`details.syncCommand`). */
export function daysUnreadError(coverage: MirrorCoverage, purpose: ReadPurpose, failure: unknown): AppError {
  const what = NOT_DONE[purpose];
  const reason = failure instanceof Error ? failure.message.replace(/\.$/, '') : null;
  return new AppError(
    'days_unread',
    `${what}: vendesk has not read ${missingDaysText(coverage)} from the service${reason ? `, and reading them now failed: ${reason}` : ''}.`,
    reason ? 'Press Read the missing days (or Sync now) once the service answers, then try again.' : 'Press Read the missing days (or Sync now), then try again.',
    { missing: coverage.missing, wholeLogUnread: coverage.wholeLogUnread, syncCommand: coverage.syncCommand, read: coverage.read },
  );
}

const isCancel = (error: unknown, signal?: AbortSignal) =>
  signal?.aborted === true || (error instanceof AppError && (error.code === 'sync_cancelled' || error.code === 'cancelled'));

/**
 * Makes sure the mirror holds the range (`read`: reads what it lacks first) or refuses
 * (`refuse`). `purpose` names what a refusal did not do. Returns the coverage the work then reads
 * under.
 */
export async function ensureDaysRead(app: App, range: DaysRange, unread: UnreadDays, options: { purpose: ReadPurpose; signal?: AbortSignal }): Promise<MirrorCoverage> {
  let coverage = await coverageAsked(app, range, unread === 'read', options.signal);
  let failure: unknown = null;
  if (unread === 'read' && coverage.read) {
    // Twice more at most: the read teaches vendesk the service's clock, which may move "today" on.
    for (let attempt = 0; ; attempt++) {
      try {
        await logSync(app).runAfterCurrent({ ...(coverage.read as DaysRange), signal: options.signal });
      } catch (error) {
        if (isCancel(error, options.signal)) throw error;
        failure = error;
        coverage = coverageNow(app, range);
        break;
      }
      coverage = coverageNow(app, range);
      if (coverage.complete || !coverage.read || attempt >= 2) break;
    }
  }
  if (!coverage.complete) throw daysUnreadError(coverage, options.purpose, failure);
  return coverage;
}
