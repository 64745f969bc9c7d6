/**
 * One reconciliation, end to end: read the vendor export, choose the range, read the mirror,
 * vendesk's own purchases and the balance snapshots, match and categorize, and save the run.
 * Progress goes out as `reconcile.progress`; one run at a time per app, cancellable.
 */
import { lagosDayEndMs, lagosDayOf, lagosDayStartMs, shiftDay } from '../../shared/localDates';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '../../shared/appError';
import { RECONCILE_CATEGORIES, type ReconcileInputs, type ReconcileParameters, type ReconcileRunView, type reconcileStartSchema } from '../../shared/contract/reconcile';
import type { App } from '../appContext';
import { releaseUpload, resolveFileRef, fileRefName } from '../files';
import { isImportError } from '../imports';
import type { Db } from '../store/database';
import { inRange, reconcileEntries } from './categorizeEntries';
import type { LogColumns } from './logColumns';
import { readLocalSubmissions, readMessagingCharges } from './localSubmissions';
import { chooseSnapshots } from './walletRollForward';
import { mirrorDaysKept, mirrorFromParsed, mirrorQuery, mirrorReferenceColumns, readMirror, readSnapshots, snapshotsHash } from './mirrorEntries';
import { pairByReference } from './matchEntries';
import { startBackgroundReads } from './backgroundReads';
import { hashFile } from '../imports/inspectSpreadsheet';
import fs from 'node:fs';
import { createRun, failRun, finishRun, packPairs, runView } from './reconcileRunStore';
import { readVendorExport } from './vendorExportRows';
import { coverageAsked, ensureDaysRead } from '../transactions/readMissingDays';

export type ReconcileStartInput = z.output<typeof reconcileStartSchema>;

const MATCHED = RECONCILE_CATEGORIES.indexOf('matched');

export interface ReconcileRequest {
  path: string;
  fileName: string;
  profileId: string;
  from?: string;
  to?: string;
  sheet?: string;
  matchWindowMinutes: number;
  duplicateWindowMinutes: number;
  signal?: AbortSignal;
  onProgress?: (stage: string, done: number, total: number | null, runId: string) => void;
  /**
   * Called once the range is known, before the mirror is read for the Lagos days `from`…`to`
   * (from the opening balance reading's day): reads the days the mirror lacks, or throws to
   * refuse. True when it read something (the mirror is then read again, not taken from the early
   * background read).
   */
  beforeMirror?: (from: string, to: string) => Promise<boolean>;
  /**
   * How much of the inputs is in memory at once: the mirror's entries a slice (threadedReaders'
   * `MIRROR_SLICE_ROWS` unless given) and the export's bytes a chunk (1 MB unless given). Tests
   * make both tiny to run the slicing and chunking paths on a small export; the answer is the same.
   */
  mirrorSliceRows?: number;
  exportChunkBytes?: number;
}

/** The range of a reconciliation is Lagos days, like every day a person gives or reads. */
const dayOf = (ms: number): string => lagosDayOf(ms);

/**
 * The days an export covers, guessed from the dates in its first and last 64 KB (exports are
 * in time order, one way or the other). Only used to start reading the mirror early: when the
 * real range turns out wider, the mirror is read again for it.
 */
export function guessExportRange(file: string): { from: string; to: string } | null {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const part = (at: number) => {
        const b = Buffer.alloc(Math.min(65_536, size));
        fs.readSync(fd, b, 0, b.length, at);
        return b.toString('latin1');
      };
      const text = part(0) + '\n' + part(Math.max(0, size - 65_536));
      let min = '';
      let max = '';
      for (const m of text.matchAll(/\b(20\d\d-[01]\d-[0-3]\d)[T ][0-2]\d:[0-5]\d/g)) {
        if (min === '' || m[1] < min) min = m[1];
        if (m[1] > max) max = m[1];
      }
      return min ? { from: min, to: max } : null;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The matched pairs' columns to store: mirror log id, export row and rule of each matched export
 * row, in export order. (A function of its own: a million-row loop inside the long async function
 * above ran several times slower.)
 */
function matchedPairColumns(
  exp: LogColumns,
  matched: number,
  exportCategory: Uint8Array,
  match: { exportToMirror: Int32Array; exportRule: Uint8Array },
  mirrorIds: Float64Array,
): { rowids: Float64Array; exportRows: Int32Array; rules: Uint8Array } {
  const rowids = new Float64Array(matched);
  const exportRows = new Int32Array(matched);
  const rules = new Uint8Array(matched);
  const { exportToMirror, exportRule } = match;
  const rowNumbers = exp.rowNumbers;
  let k = 0;
  for (let e = 0; e < exp.length; e++) {
    if (exportCategory[e] !== MATCHED) continue;
    rowids[k] = mirrorIds[exportToMirror[e]];
    exportRows[k] = rowNumbers ? rowNumbers[e] : (exp.detail(e).rowNumber ?? 0);
    rules[k] = exportRule[e];
    k++;
  }
  return { rowids, exportRows, rules };
}

/** The core, without the App: used by the service, the CLI and the benchmark. */
export async function reconcileFile(db: Db, req: ReconcileRequest): Promise<{ runId: string; timings: Record<string, number> }> {
  const runId = randomUUID();
  const started = performance.now();
  const timings: Record<string, number> = {};
  let mark = started;
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  const parameters: ReconcileParameters = {
    from: req.from ?? '',
    to: req.to ?? '',
    matchWindowMinutes: req.matchWindowMinutes,
    duplicateWindowMinutes: req.duplicateWindowMinutes,
    sheet: req.sheet ?? null,
  };
  createRun(db, { id: runId, profileId: req.profileId, createdAt: new Date().toISOString(), parameters, fileName: req.fileName });
  const progress = (stage: string, done: number, total: number | null) => req.onProgress?.(stage, done, total, runId);
  const snapshots = readSnapshots(db, req.profileId);
  // The mirror's window: the range, from the opening snapshot when that is earlier.
  const windowOf = (fromDay: string, toDayExclusiveMs: number): [string, string] => {
    const start = lagosDayStartMs(fromDay);
    const chosen = chooseSnapshots(snapshots, start, toDayExclusiveMs);
    return [new Date(Math.min(start, chosen ? chosen.opening.atMs : start)).toISOString(), new Date(toDayExclusiveMs).toISOString()];
  };
  // Start reading the mirror (for the range given, or guessed from the export's first and last
  // lines) and hashing the file on a worker thread while this thread parses the export.
  const guess = req.from && req.to ? { from: req.from, to: req.to } : guessExportRange(req.path);
  // A guessed day is the export's UTC day: a day more covers its Lagos day.
  const guessedWindow = guess ? windowOf(guess.from, lagosDayEndMs(shiftDay(guess.to, 1))) : null;
  const background = startBackgroundReads({
    dbPath: db.name,
    ...(guessedWindow ? mirrorQuery(req.profileId, guessedWindow[0], guessedWindow[1]) : {}),
    filePath: req.path,
    sliceRows: req.mirrorSliceRows,
  });
  try {
    progress('Reading the export', 0, null);
    const exported = await readVendorExport(req.path, {
      sheet: req.sheet,
      signal: req.signal,
      skipHash: true,
      ...(req.exportChunkBytes ? { chunkBytes: req.exportChunkBytes } : {}),
      // Not held whole (a 3,000,000-row file is ~550 MB) while the mirror is read beside it: read
      // in chunks, its second half on a thread of its own when the month's days are kept (the
      // mirror's worker is then done early); when they are not, the worker builds them from the
      // entries, and a third thread only took CPU from it (1M: 4.5 s instead of 3.0).
      ...(guessedWindow ? { twoThreadsFromBytes: Infinity, ...(mirrorDaysKept(db, req.profileId, guessedWindow[0], guessedWindow[1]) ? {} : { halvesFromBytes: Infinity }) } : {}),
      onProgress: (rows, bytes, total) => progress(`Reading the export: ${rows.toLocaleString('en-US')} rows`, bytes ?? rows, total),
    });
    lap('readExport');
    const exp = exported.columns;

    // The range: as given, else the export's own first and last days.
    if (!parameters.from || !parameters.to) {
      let min = Infinity;
      let max = -Infinity;
      const created = exp.createdMs;
      for (let i = 0; i < created.length; i++) {
        const t = created[i];
        if (t < min) min = t;
        if (t > max) max = t;
      }
      if (!Number.isFinite(min)) {
        throw new AppError(
          'range_needed',
          'The export has no created_at or time column, so its date range is unknown.',
          'Give the range: choose the from and to dates (CLI: --from and --to).',
        );
      }
      parameters.from ||= dayOf(min);
      parameters.to ||= dayOf(max);
      if (parameters.from > parameters.to) parameters.to = parameters.from;
    }
    const rangeStartMs = lagosDayStartMs(parameters.from);
    const rangeEndMs = lagosDayEndMs(parameters.to);
    req.signal?.throwIfAborted();

    // What needs no mirror is worked out while the worker is still reading it: the export's range
    // mask, vendesk's own purchases and charges, and, once the mirror's references are in (they
    // come first), matching's first pass by transaction_id.
    const exportInRange = inRange(exp.createdMs, rangeStartMs, rangeEndMs);
    const [loadFrom, loadTo] = windowOf(parameters.from, rangeEndMs);
    const matchWindowMs = req.matchWindowMinutes * 60_000;
    const local = readLocalSubmissions(db, req.profileId, rangeStartMs - matchWindowMs, rangeEndMs + matchWindowMs);
    const messaging = readMessagingCharges(db, req.profileId, Date.parse(loadFrom), rangeEndMs);
    // Never against a mirror short of days it has not read: the range's days (from the opening reading's) are read first, or the run refused.
    const readFirst = req.beforeMirror ? await req.beforeMirror(lagosDayOf(Date.parse(loadFrom)), parameters.to) : false;
    req.signal?.throwIfAborted();
    progress('Reading the local mirror', 0, null);
    const fromWorker = !readFirst && guessedWindow !== null && guessedWindow[0] <= loadFrom && guessedWindow[1] >= loadTo;
    const references = fromWorker ? await background.references : null;
    lap('waitReferences');
    const earlyPairs = references ? pairByReference(exp, mirrorReferenceColumns(references), exportInRange.mask) : undefined;
    lap('pairByReference');
    req.signal?.throwIfAborted();
    const fromBackground = fromWorker ? await background.mirror : null;
    const mirror =
      fromBackground !== null && guessedWindow
        ? mirrorFromParsed(db, req.profileId, fromBackground, guessedWindow[0], guessedWindow[1])
        : readMirror(db, req.profileId, loadFrom, loadTo, req.mirrorSliceRows);
    // (The first pass was over these very references only if the mirror is the worker's.)
    const byReference = fromBackground !== null ? earlyPairs : undefined;
    lap('readMirror');
    req.signal?.throwIfAborted();

    progress('Matching', 0, exp.length);
    const outcome = reconcileEntries({
      exp,
      mir: mirror.columns,
      local: local.submissions,
      snapshots,
      messaging,
      rangeStartMs,
      rangeEndMs,
      matchWindowMs,
      duplicateWindowMs: req.duplicateWindowMinutes * 60_000,
      exportInRange,
      byReference,
    });
    lap('match');
    req.signal?.throwIfAborted();

    progress('Saving the run', 0, null);
    const { rowids, exportRows, rules } = matchedPairColumns(exp, outcome.totals.matched.count, outcome.exportCategory, outcome.match, mirror.ids);
    const matched = rowids.length;
    // The worker hashes the file after reading the mirror: awaited only now, matching went on meanwhile.
    const fileHash = (await background.fileHash) ?? (await hashFile(req.path));
    const inputs: ReconcileInputs = {
      fileName: req.fileName,
      fileFormat: exported.format,
      fileHash,
      exportRows: exp.length + exported.unreadableCount,
      exportRowsOutsideRange: outcome.exportOutsideRange,
      exportRowsUnreadable: exported.unreadableCount,
      mirrorRows: outcome.mirrorInRange,
      mirrorHash: mirror.hash,
      localSubmissions: local.submissions.length,
      localHash: local.hash,
      snapshotsHash: snapshotsHash(snapshots),
      mirrorSource: 'log_entries (local mirror)',
    };
    const { missingRefunds: _named, ...rollForward } = outcome.rollForward;
    void _named;
    finishRun(db, runId, {
      parameters,
      inputs,
      totals: outcome.totals,
      matchedByRule: outcome.matchedByRule,
      rollForward,
      unreadable: exported.unreadable,
      items: outcome.items,
      pairs: packPairs(rowids, exportRows, rules),
      matchedCount: matched,
      durationMs: Math.round(performance.now() - started),
    });
    lap('store');
    progress('Done', 1, 1);
    return { runId, timings };
  } catch (error) {
    background.stop();
    const aborted = req.signal?.aborted === true;
    const message = aborted ? 'Cancelled before it finished; nothing was concluded.' : error instanceof Error ? error.message : String(error);
    failRun(db, runId, aborted ? 'cancelled' : 'failed', message, parameters.from && parameters.to ? parameters : undefined);
    if (aborted) throw new AppError('cancelled', 'The reconciliation was cancelled; the run is kept in the history as cancelled.', 'Start it again when ready.');
    if (isImportError(error)) throw new AppError(`import_${error.code}`, error.message, 'Fix the export file as described and reconcile again.');
    throw error;
  }
}

/** One running reconciliation per app. */
class ReconcileRunner {
  private current: { runId: string | null; controller: AbortController } | null = null;
  constructor(private readonly app: App) {}

  /** Runs a reconciliation; `signal` (the caller's cancel) stops it as reconcile.cancel does. */
  async start(input: ReconcileStartInput, options: { signal?: AbortSignal } = {}): Promise<ReconcileRunView> {
    if (this.current) {
      throw new AppError('reconcile_running', 'A reconciliation is already running.', 'Wait for it to finish (or cancel it), then start the next one.');
    }
    const controller = new AbortController();
    const outer = options.signal;
    const stopOnCancel = () => controller.abort(new AppError('cancelled', 'The reconciliation was cancelled.'));
    if (outer?.aborted) stopOnCancel();
    outer?.addEventListener('abort', stopOnCancel, { once: true });
    const mine: { runId: string | null; controller: AbortController } = { runId: null, controller };
    this.current = mine;
    const app = this.app;
    try {
      const path = resolveFileRef(app, input.file);
      const { runId } = await reconcileFile(app.db, {
        path,
        fileName: fileRefName(input.file),
        profileId: app.connection.profileId,
        from: input.from,
        to: input.to,
        sheet: input.sheet,
        matchWindowMinutes: input.matchWindowMinutes,
        duplicateWindowMinutes: input.duplicateWindowMinutes,
        signal: controller.signal,
        onProgress: (stage, done, total, runId) => {
          mine.runId = runId;
          app.events.emit('reconcile.progress', { runId, stage, done, total, message: stage });
        },
        beforeMirror: async (from, to) => {
          const before = await coverageAsked(app, { from, to }, input.unread === 'read', controller.signal);
          if (before.read && input.unread === 'read' && mine.runId) {
            app.events.emit('reconcile.progress', {
              runId: mine.runId,
              stage: 'Reading the days the mirror lacks from the service',
              done: 0,
              total: null,
              message: 'Reading the days the mirror lacks from the service',
            });
          }
          await ensureDaysRead(app, { from, to }, input.unread, { purpose: 'reconciliation', signal: controller.signal });
          return before.read !== null && input.unread === 'read';
        },
      });
      return runView(app.db, runId);
    } catch (error) {
      // Cancelled or failed part-way: the run saved so far is listed, though the operation failed.
      if (mine.runId) app.invalidate(['reconcile'], 'reconciliation stopped part-way');
      throw error;
    } finally {
      // The browser uploads the export for each run: once the run is over it has served.
      releaseUpload(app, input.file);
      outer?.removeEventListener('abort', stopOnCancel);
      this.current = null;
    }
  }

  cancel(runId?: string): boolean {
    if (!this.current || (runId && this.current.runId && this.current.runId !== runId)) return false;
    this.current.controller.abort(new AppError('cancelled', 'The reconciliation was cancelled.'));
    return true;
  }
}

export function createReconcileRunner(app: App): ReconcileRunner {
  const runner = new ReconcileRunner(app);
  app.onClose(() => {
    runner.cancel();
  });
  return runner;
}
