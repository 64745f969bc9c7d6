/**
 * The standing order engine of one app (issue 40): orders prepared from a spreadsheet or a job's
 * rows and confirmed once; their occurrences run when due — each exactly once, as one bulk job —
 * by the open desktop's scheduler (`standingScheduler.ts`) or `vendesk standing run-due`, however
 * many of them run on one data folder (SQLite) or one team (PostgreSQL, `standingTeam.ts`).
 *
 * An occurrence is claimed in the IMMEDIATE transaction that creates, confirms and begins its job
 * (`BulkService.beginGivenJob`): a second runner finds it started and buys nothing; a runner killed
 * after the claim leaves its job `running`, and the next run resumes that job (its leases and
 * uncertain items, as any bulk job's), never a second one. Missed occurrences run at the next start
 * within their grace period; past it they wait for a person (Run now, Skip). A run buys at most one
 * occurrence of an order: an earlier one still open waits, saying so.
 *
 * Over 400 lines because one service holds an order's whole life (prepare, confirm, change, pause,
 * end) and the pass that claims and runs its occurrences: both read and move the same occurrence
 * rows under the one claim transaction. Where to split it when it grows: the run pass (runDue and
 * what it calls) into its own module beside the store.
 */
import os from 'node:os';
import { createHash } from 'node:crypto';
import { AppError } from '../../shared/appError';
import type { BulkJobView } from '../../shared/contract/bulk';
import type {
  OccurrenceView,
  RunDueReport,
  StandingApprovalView,
  StandingDraftView,
  StandingOrderState,
  StandingOrderSummary,
  StandingOrderView,
  WaitingReason,
} from '../../shared/contract/standing';
import type { FileRef } from '../../shared/contract/files';
import { formatDay, lagosDayStartMs, lagosToday, shiftDay } from '../../shared/localDates';
import { formatNaira, parseNairaText } from '../../shared/money';
import { standingNotice, standingNoticeLevel } from '../../shared/standingNotice';
import { notifyFinanceContact } from '../messaging/notifications';
import type { App, Connection } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { learnServiceClock, walletKoboOrProblem } from '../api/walletReading';
import { createBulkService, type BulkService } from '../buying/bulkService';
import { ownJob } from '../buying/jobLifecycle';
import type { ItemRow, NewItem } from '../buying/jobRows';
import { checkToday, type RunContext } from './occurrenceChecks';
import { OccurrenceMoves } from './occurrenceMoves';
import { occurrenceNamed, occurrencesBetween, upcomingOccurrences, type VersionedOccurrence } from './orderDates';
import { checkOrderRows, rowsFromFile, rowsFromJob, type OrderRowsRead } from './orderRows';
import { ruleText, scheduleOf, type Recurrence, type WeekendMove } from './recurrence';
import { standingTeam, type StandingTeam } from './standingTeam';
import { rowsOf, StandingStore, type OccurrenceRow, type OrderRow, type StoredRow, type VersionRow } from './standingStore';
import { datedVersion, occurrenceView, rowViews, unwrittenOccurrence, versionView } from './standingViews';
import { describeChange } from './versionChange';

/** Days of grace by default: a missed occurrence still runs by itself this many days after its due day. */
export const DEFAULT_GRACE_DAYS = 3;
/** Rows a view lists at most. */
const ROWS_SHOWN = 200;
/** Occurrences a view lists at most. */
const OCCURRENCES_SHOWN = 24;

export interface PrepareStandingInput {
  orderId?: string;
  name?: string;
  kind?: 'airtime' | 'data' | 'electricity' | 'cable';
  file?: FileRef;
  sheet?: string;
  mapping?: Record<string, number | null>;
  fromJobId?: string;
  keepDuplicates: boolean;
  skipInvalid: boolean;
  recurrence?: Recurrence;
  start?: string;
  end?: string | null;
  runs?: number | null;
  graceDays?: number;
  weekend?: WeekendMove;
}

/** Who acts on this computer, as an order's history names them (alone: the computer's user). */
function personHere(): string {
  try {
    return os.userInfo().username || 'this computer';
  } catch {
    return 'this computer';
  }
}

/** One run of due occurrences, and what it found. */
interface Pass extends RunContext {
  dryRun: boolean;
  report: RunDueReport;
  /** The runs of the jobs it started or resumed. */
  runs: Promise<unknown>[];
  /** Occurrences it ran, to be read again once their jobs ran (`wait`). */
  ranKeys: { orderId: string; scheduledDay: string }[];
}

export class StandingService {
  readonly store: StandingStore;
  private readonly moves: OccurrenceMoves;
  private readonly bulk: BulkService;
  /** One run of the due occurrences at a time in this process. */
  private passing: Promise<unknown> = Promise.resolve();

  constructor(private readonly app: App) {
    this.store = new StandingStore(app.db);
    this.moves = new OccurrenceMoves(app.db);
    this.bulk = app.service(createBulkService);
  }

  private team(): StandingTeam {
    return this.app.service(standingTeam);
  }

  private clockNow(): number {
    return this.app.service(createServiceClock).now();
  }

  /**
   * Today on the service's clock, asked of the service first when nothing has told its time yet (a
   * fresh `vendesk` process): an order's first day and its confirmation are the service's days, as
   * the Dashboard's today, never this computer's.
   */
  private async serviceToday(): Promise<string> {
    await learnServiceClock(this.app.client());
    return lagosToday(this.clockNow());
  }

  /** Who acts: the signed-in team member for a team's order, else this computer's user. */
  private who(team: boolean): string {
    return team ? this.team().member() : personHere();
  }

  // ------------------------------------------------------------------ preparing and confirming

  /** Checks the rows and schedule of a new order (or a new version of one) and writes it unconfirmed; nothing is bought. */
  async prepare(input: PrepareStandingInput): Promise<StandingDraftView> {
    const session = this.app.session();
    const connection = session.connection;
    const existing = input.orderId ? this.store.ownOrder(input.orderId, connection) : null;
    if (existing?.state === 'ended') throw new AppError('standing_state', `Standing order ${existing.id} has ended; it does not change any more.`, 'Make a new standing order.');
    const current = existing ? (existing.version !== null ? this.store.version(existing.id, existing.version) : this.store.pendingVersion(existing.id)) : undefined;
    let kind = existing?.kind ?? input.kind;
    let read: OrderRowsRead | null = null;
    if (input.fromJobId) {
      const job = ownJob(this.bulk.reads.job(input.fromJobId), input.fromJobId, connection);
      if (job.state === 'draft' || job.state === 'awaiting_approval') {
        throw new AppError(
          'job_not_confirmed',
          `Bulk job ${job.id} was never bought; an order takes the rows of a job that ran.`,
          'Name a finished job (vendesk bulk list), or give the spreadsheet.',
        );
      }
      if (kind && kind !== job.kind) throw new AppError('invalid_input', `Bulk job ${job.id} bought ${job.kind}, and this order buys ${kind}.`, 'Name a job of the same kind.');
      kind = job.kind;
      const rows = this.bulk.reads
        .items(job.id)
        .filter((i) => i.state !== 'excluded')
        .map(storedFromItem);
      read = await rowsFromJob(this.app, session, job.kind, rows, `bulk job ${job.id} (${job.file_name})`);
    } else if (input.file) {
      if (!kind) throw new AppError('invalid_input', 'Say what the file buys: airtime, data, electricity or cable.', 'Give --kind.');
      read = await rowsFromFile(this.app, session, { file: input.file, kind, sheet: input.sheet, mapping: input.mapping, keepDuplicates: input.keepDuplicates });
    }
    if (!kind) throw new AppError('invalid_input', 'Say what the order buys: airtime, data, electricity or cable.', 'Give --kind.');
    if (read) checkOrderRows(read, input.skipInvalid);
    const rows = read?.rows ?? (current ? rowsOf(current) : []);
    const today = await this.serviceToday();
    const before = current ? scheduleOf(current.rule) : null;
    const recurrence = input.recurrence ?? before?.recurrence;
    if (!recurrence) throw new AppError('invalid_input', 'A standing order needs its recurrence.', 'Give --monthly-on DAY, --last-working-day or --weekly-on WEEKDAY.');
    const start = input.start ?? before?.start ?? today;
    const end = input.end !== undefined ? input.end : input.runs ? null : (before?.end ?? null);
    const runs = input.runs !== undefined ? input.runs : input.end ? null : (before?.runs ?? null);
    if (end && end < start) throw new AppError('invalid_dates', `The end ${formatDay(end)} is before the start ${formatDay(start)}.`, 'Swap them, or change one of them.');
    const team = existing ? existing.team === 1 : this.team().applies(connection);
    const next = {
      name: input.name ?? current?.name ?? existing?.name ?? '',
      rule: ruleText({ recurrence, start, end, runs }),
      weekend: input.weekend ?? current?.weekend ?? 'none',
      graceDays: input.graceDays ?? current?.grace_days ?? DEFAULT_GRACE_DAYS,
      rows,
    };
    const change = current ? describeChange(current, next) : 'created';
    if (current && change === null)
      throw new AppError('invalid_input', 'Nothing would change: the rows, schedule, grace and name are those of the order now.', 'Give what should change.');
    const version = {
      ...next,
      effectiveFrom: start,
      rowsDigest: null,
      source: read?.source ?? current?.source ?? '',
      change: change ?? 'created',
      changedBy: this.who(team),
    };
    const orderId = existing
      ? (this.store.addVersion(existing.id, version), existing.id)
      : this.store.createOrder({ name: next.name, kind, connection, team, createdBy: version.changedBy }, version);
    const order = await this.show(orderId);
    return { order, invalid: read?.invalid ?? [], leftOut: read?.leftOut ?? [], live: connection.kind === 'live', team };
  }

  /**
   * The order's creator confirms it (or its new version), having seen its rows and per-run total:
   * on a LIVE connection the total is typed. In a team the order is shared first (the team database
   * is the order's record). Its dates are its own from today.
   */
  async confirm(orderId: string, typedTotal: string | undefined): Promise<StandingOrderView> {
    const connection = this.app.connection;
    const order = this.store.ownOrder(orderId, connection);
    const pending = this.store.pendingVersion(orderId);
    if (!pending) throw new AppError('standing_state', `Standing order ${orderId} has nothing to confirm.`, 'Prepare a new version first (vendesk standing edit).');
    if (order.connection_kind === 'live' || connection.kind === 'live') {
      const typed = typedTotal === undefined ? null : parseNairaText(typedTotal);
      if (!typed?.ok || typed.kobo !== pending.total_kobo) {
        throw new AppError(
          'confirmation_mismatch',
          typedTotal === undefined
            ? `This is a LIVE connection: real money is spent on every occurrence. Type the per-run total (${formatNaira(pending.total_kobo)}) to confirm.`
            : `The total you typed (${typedTotal}) is not the per-run total (${formatNaira(pending.total_kobo)}). Nothing was confirmed.`,
          'Type the per-run total exactly as shown, then confirm again.',
        );
      }
    }
    const digest = order.team === 1 ? (await this.team().publish(order, pending)).rowsDigest : null;
    this.store.confirmVersion(orderId, pending.version, this.who(order.team === 1), await this.serviceToday(), digest);
    return this.show(orderId);
  }

  discard(orderId: string): { discarded: 'order' | 'version' } {
    this.store.ownOrder(orderId, this.app.connection);
    const done = this.store.discardUnconfirmed(orderId);
    if (!done) throw new AppError('standing_state', `Standing order ${orderId} has no unconfirmed version to discard.`, 'End the order instead (vendesk standing end).');
    return { discarded: done };
  }

  // ------------------------------------------------------------------ reading

  async list(states?: readonly StandingOrderState[]): Promise<StandingOrderSummary[]> {
    await this.refreshTeam();
    await this.serviceToday();
    const out: StandingOrderSummary[] = [];
    for (const order of this.store.orders(this.app.connection.profileId, states)) out.push(await this.summary(order));
    return out;
  }

  async show(orderId: string): Promise<StandingOrderView> {
    const order = this.store.ownOrder(orderId, this.app.connection);
    const today = await this.serviceToday();
    const summary = await this.summary(order);
    const versions = this.store.versions(orderId);
    const pending = versions.find((v) => v.confirmed_at === null);
    const inForce = order.version !== null ? versions.find((v) => v.version === order.version) : pending;
    return {
      ...summary,
      versions: versions.filter((v) => v.confirmed_at !== null).map(versionView),
      pendingVersion: pending ? versionView(pending) : null,
      occurrences: this.store.occurrences(orderId, OCCURRENCES_SHOWN).map((o) => this.occurrenceOf(order, o)),
      // A draft's dates are its pending version's: what its creator confirms.
      upcoming:
        order.state === 'active' || order.state === 'paused'
          ? this.upcoming(order, today, 6)
          : order.state === 'draft' && pending
            ? upcomingOccurrences([datedVersion(pending)], today, 6).map((o) => ({ scheduledDay: o.scheduled, dueDay: o.due }))
            : [],
      rows: rowViews(inForce, ROWS_SHOWN),
      rowCount: inForce?.item_count ?? 0,
      stateBy: order.state_by,
      stateAt: order.state_at,
    };
  }

  private async summary(order: OrderRow): Promise<StandingOrderSummary> {
    const version = order.version !== null ? this.store.version(order.id, order.version) : this.store.pendingVersion(order.id);
    const today = lagosToday(this.clockNow());
    const occurrences = this.store.occurrences(order.id);
    const last = occurrences.find((o) => o.state === 'started');
    const next = order.state === 'active' ? (this.upcoming(order, today, 1)[0] ?? null) : null;
    const approval =
      order.team === 1 && order.version !== null
        ? await this.team()
            .approval(order, version)
            .catch(() => null)
        : null;
    return {
      id: order.id,
      name: order.name,
      kind: order.kind,
      state: order.state,
      connectionKind: order.connection_kind,
      team: order.team === 1,
      version: order.version,
      schedule: version ? versionView(version).schedule : '',
      graceDays: version?.grace_days ?? DEFAULT_GRACE_DAYS,
      weekend: version?.weekend ?? 'none',
      items: version?.item_count ?? 0,
      perRunKobo: version?.total_kobo ?? 0,
      next,
      lastRun: last ? this.occurrenceOf(order, last) : null,
      waiting: occurrences.filter((o) => o.state === 'waiting').length,
      standingApproval: approval,
      createdBy: order.created_by,
      createdAt: order.created_at,
    };
  }

  /** The next occurrences not started or skipped yet, due today or later. */
  private upcoming(order: OrderRow, today: string, count: number): { scheduledDay: string; dueDay: string }[] {
    const recorded = new Map(this.store.occurrences(order.id).map((o) => [o.scheduled_day, o.state]));
    return upcomingOccurrences(this.confirmedVersions(order), today, count + recorded.size)
      .filter((o) => recorded.get(o.scheduled) === undefined || recorded.get(o.scheduled) === 'waiting')
      .slice(0, count)
      .map((o) => ({ scheduledDay: o.scheduled, dueDay: o.due }));
  }

  private confirmedVersions(order: OrderRow) {
    return this.store
      .versions(order.id)
      .filter((v) => v.confirmed_at !== null)
      .map(datedVersion);
  }

  private occurrenceOf(order: OrderRow, row: OccurrenceRow): OccurrenceView {
    return occurrenceView(order, row, row.job_id ? this.jobOf(row.job_id) : null);
  }

  private jobOf(jobId: string): BulkJobView | null {
    const job = this.bulk.reads.job(jobId);
    return job ? this.bulk.view(job) : null;
  }

  // ------------------------------------------------------------------ pause, resume, end

  async pause(orderId: string): Promise<StandingOrderView> {
    return this.moveOrder(orderId, 'pause');
  }

  /** Resumes a paused order: its occurrences due while it was paused are skipped (the order was paused on their day). */
  async resume(orderId: string): Promise<StandingOrderView> {
    const order = this.store.ownOrder(orderId, this.app.connection);
    if (order.state !== 'paused') throw this.notIn(order, 'resumed');
    const today = await this.serviceToday();
    const pausedOn = order.state_day ?? today;
    const by = this.who(order.team === 1);
    for (const o of occurrencesBetween(this.confirmedVersions(order), pausedOn, today)) {
      const recorded = this.store.occurrence(orderId, o.scheduled);
      if (recorded && recorded.state !== 'waiting') continue;
      const reason = `Not bought: the order was paused on its day (${formatDay(o.due)}); resumed by ${by}.`;
      if (order.team === 1) await this.team().skip(order, { scheduledDay: o.scheduled, dueDay: o.due }, reason);
      this.moves.skip({ orderId, scheduledDay: o.scheduled }, { dueDay: o.due, version: o.version.version, reason, decidedBy: by });
    }
    return this.moveOrder(orderId, 'resume');
  }

  async end(orderId: string): Promise<StandingOrderView> {
    return this.moveOrder(orderId, 'end');
  }

  private notIn(order: OrderRow, doing: string): AppError {
    return new AppError('standing_state', `Standing order ${order.id} is ${order.state}, so it cannot be ${doing}.`, 'See where it stands with `vendesk standing show`.');
  }

  private async moveOrder(orderId: string, move: 'pause' | 'resume' | 'end'): Promise<StandingOrderView> {
    const order = this.store.ownOrder(orderId, this.app.connection);
    const allowed: Record<typeof move, StandingOrderState[]> = { pause: ['active'], resume: ['paused'], end: ['active', 'paused'] };
    if (!allowed[move].includes(order.state)) throw this.notIn(order, move === 'end' ? 'ended' : `${move}d`);
    if (order.team === 1) await this.team().move(order, move);
    this.store.move(move, orderId, this.who(order.team === 1), await this.serviceToday());
    return this.show(orderId);
  }

  // ------------------------------------------------------------------ running

  /** The team's orders of this organisation, brought into this desktop's store (a team that cannot be read now is read next time). */
  private async refreshTeam(): Promise<string | null> {
    if (!this.team().applies(this.app.connection)) return null;
    try {
      await this.team().refresh();
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Runs every occurrence due now on the connection in use (one run at a time in this process). */
  runDue(options: { dryRun: boolean; wait: boolean }): Promise<RunDueReport> {
    const run = this.passing.then(() => this.runDueNow(options));
    this.passing = run.catch(() => undefined);
    return run;
  }

  private async beginPass(dryRun: boolean): Promise<Pass> {
    const session = this.app.session();
    // The wallet's answer also tells the service's clock: today is its today.
    const wallet = await walletKoboOrProblem(session.client);
    const nowMs = this.clockNow();
    const today = lagosToday(nowMs);
    return {
      session,
      nowMs,
      today,
      walletLeft: wallet.kobo,
      walletProblem: wallet.problem,
      dryRun,
      runs: [],
      ranKeys: [],
      report: { today, dryRun, ran: [], waiting: [], elsewhere: [], nextDueAt: null },
    };
  }

  private async runDueNow(options: { dryRun: boolean; wait: boolean }): Promise<RunDueReport> {
    const teamProblem = await this.refreshTeam();
    const pass = await this.beginPass(options.dryRun);
    if (!options.dryRun) await this.continueStarted(pass, options.wait);
    for (const order of this.store.orders(pass.session.connection.profileId, ['active'])) {
      if (!onConnection(order, pass.session.connection)) continue;
      if (order.team === 1 && teamProblem) {
        this.openOccurrences(order, pass).forEach((o) =>
          this.waitFor(order, o, 'team', `The team database could not be read (${teamProblem}); nothing was bought. It is tried again at the next run.`, pass),
        );
        continue;
      }
      await this.runDueOf(order, pass);
    }
    return this.finishPass(pass, options.wait);
  }

  private async finishPass(pass: Pass, wait: boolean): Promise<RunDueReport> {
    if (wait) await Promise.allSettled(pass.runs);
    const report = pass.report;
    if (wait && !pass.dryRun) {
      report.ran = pass.ranKeys.map((k) => {
        const order = this.store.order(k.orderId) as OrderRow;
        const row = this.store.occurrence(k.orderId, k.scheduledDay);
        return row ? this.occurrenceOf(order, row) : (report.ran.find((r) => r.orderId === k.orderId && r.scheduledDay === k.scheduledDay) as OccurrenceView);
      });
    }
    const next = this.nextDueDay(pass.today);
    report.nextDueAt = next ? new Date(lagosDayStartMs(next)).toISOString() : null;
    return report;
  }

  /**
   * Started occurrences whose run is not over here: a job left running by a vendesk that stopped is
   * resumed (its uncertain items settled from the log first, nothing bought twice); one waiting for
   * its team's approval is run once approved.
   */
  private async continueStarted(pass: Pass, wait: boolean): Promise<void> {
    for (const row of this.store.unfinishedStarted(pass.session.connection.profileId)) {
      const order = this.store.order(row.order_id) as OrderRow;
      const key = { orderId: row.order_id, scheduledDay: row.scheduled_day };
      try {
        if (row.job_id) {
          const job = this.jobOf(row.job_id);
          if (!job || job.active) continue;
          if (job.state === 'running' && !job.interrupted) {
            pass.report.elsewhere.push(this.occurrenceOf(order, row));
            continue;
          }
          await this.bulk.resume(pass.session, row.job_id, wait);
        } else if (row.team_job_id) {
          const job = await this.team().runTeamJob(pass.session, row.team_job_id, false);
          this.moves.runHereAs(key, job.id);
          if (wait) await this.bulk.waitFor(pass.session.connection, job.id);
        }
        pass.ranKeys.push(key);
        pass.report.ran.push(this.occurrenceOf(order, this.store.occurrence(key.orderId, key.scheduledDay) as OccurrenceRow));
      } catch (error) {
        // Still waiting for its approval, or running in another process: it stays as it is.
        const row2 = this.store.occurrence(key.orderId, key.scheduledDay) as OccurrenceRow;
        const view = this.occurrenceOf(order, row2);
        if (error instanceof AppError && error.code === 'awaiting_approval') pass.report.ran.push({ ...view, outcome: 'awaiting_approval', reason: error.message });
        else if (error instanceof AppError && error.code === 'job_running_elsewhere') pass.report.elsewhere.push(view);
        else pass.report.ran.push({ ...view, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** An order's occurrences due by today and not started or skipped (oldest first). */
  private openOccurrences(order: OrderRow, pass: Pick<Pass, 'today'>): VersionedOccurrence[] {
    const versions = this.confirmedVersions(order);
    if (versions.length === 0) return [];
    const recorded = new Map(this.store.occurrences(order.id).map((o) => [o.scheduled_day, o.state]));
    return occurrencesBetween(versions, shiftDay(versions[0].effectiveFrom, -2), pass.today).filter((o) => {
      const state = recorded.get(o.scheduled);
      return state === undefined || state === 'waiting';
    });
  }

  /**
   * The due occurrences of one order: those past their grace period wait for a person (missed);
   * of those within it, the latest runs — an earlier one still open waits (two are never bought in
   * one run without a person saying so), as does any open one older than the order's last run.
   */
  private async runDueOf(order: OrderRow, pass: Pass): Promise<void> {
    const open = this.openOccurrences(order, pass);
    const done = this.store.occurrences(order.id).filter((o) => o.state !== 'waiting');
    const lastDone = done.reduce<string>((m, o) => (o.scheduled_day > m ? o.scheduled_day : m), '');
    const graceEnd = (o: VersionedOccurrence) => shiftDay(o.due, o.version.graceDays);
    const inGrace = open.filter((o) => pass.today <= graceEnd(o) && o.scheduled > lastDone);
    const latest = inGrace[inGrace.length - 1];
    for (const o of open) {
      if (o === latest) continue;
      const recorded = this.store.occurrence(order.id, o.scheduled);
      if (pass.today > graceEnd(o)) {
        const reason =
          recorded?.reason_code === 'missed' && recorded.reason
            ? recorded.reason
            : `Missed: not bought on its day (${formatDay(o.due)}) nor within its ${o.version.graceDays} day(s) of grace (until ${formatDay(graceEnd(o))}). It waits for a person: Run now, or Skip.`;
        this.waitFor(order, o, 'missed', reason, pass);
      } else {
        const laterDay = latest ? latest.due : (done.find((d) => d.scheduled_day === lastDone)?.due_day ?? lastDone);
        this.waitFor(
          order,
          o,
          'another_due',
          `Not bought by itself: the occurrence of ${formatDay(laterDay)} is this order's run now, and two occurrences are not bought in one run without a person saying so. Run now if this one is wanted too, or Skip.`,
          pass,
        );
      }
    }
    if (latest) await this.attempt(order, latest, pass, null);
  }

  /** Records that an occurrence waits (not in a dry run), and reports it. */
  private waitFor(
    order: OrderRow,
    o: VersionedOccurrence,
    code: WaitingReason,
    reason: string,
    pass: Pass,
    extra: { waiting?: OccurrenceView['waitingRows']; missingKobo?: number } = {},
  ): OccurrenceView {
    const key = { orderId: order.id, scheduledDay: o.scheduled };
    const fields = { dueDay: o.due, version: order.version, reasonCode: code, reason, waitingRows: extra.waiting ?? [], missingKobo: extra.missingKobo ?? null };
    const before = this.store.occurrence(order.id, o.scheduled);
    // A new reason to wait is told (a window's and the operating system's notification); the same reason again on a later run is not.
    if (!pass.dryRun && this.moves.wait(key, fields) && before?.reason_code !== code) this.told(order.id, o.scheduled);
    const row =
      (!pass.dryRun && this.store.occurrence(order.id, o.scheduled)) ||
      unwrittenOccurrence(
        order.id,
        { ...o, version: order.version ?? o.version.version },
        {
          reason_code: code,
          reason,
          waiting_rows_json: extra.waiting && extra.waiting.length > 0 ? JSON.stringify(extra.waiting) : null,
          missing_kobo: extra.missingKobo ?? null,
        },
      );
    const view = this.occurrenceOf(order, row);
    if (row.state === 'waiting') pass.report.waiting.push(view);
    else pass.report.elsewhere.push(view);
    return view;
  }

  /**
   * Tries to buy one occurrence now with the order's version in force: its checks (rows, wallet,
   * caps), then its claim with its job in one transaction (or in the team database), then its run.
   * `byHand`: a person's Run now (who).
   */
  private async attempt(order: OrderRow, o: VersionedOccurrence, pass: Pass, byHand: string | null): Promise<OccurrenceView> {
    const key = { orderId: order.id, scheduledDay: o.scheduled };
    const version = this.store.version(order.id, order.version as number) as VersionRow;
    let checked;
    try {
      checked = await checkToday(this.app, { store: this.store, bulk: this.bulk }, pass, order, version, o.due);
    } catch (error) {
      return this.waitFor(
        order,
        o,
        'error',
        `It could not be checked: ${error instanceof Error ? error.message : String(error)} Nothing was bought; it is tried again at the next run.`,
        pass,
      );
    }
    if (!checked.ok) return this.waitFor(order, o, checked.code, checked.reason, pass, { waiting: checked.waiting, missingKobo: checked.missingKobo });
    if (pass.dryRun) {
      const view = this.occurrenceOf(
        order,
        unwrittenOccurrence(
          order.id,
          { ...o, version: version.version },
          {
            reason: `Would be bought now (dry run): ${checked.items.length} row(s), ${formatNaira(checked.totalKobo)} face value, about ${formatNaira(checked.costKobo)} from the wallet.`,
            waiting_rows_json: checked.waiting.length > 0 ? JSON.stringify(checked.waiting) : null,
          },
        ),
      );
      pass.report.ran.push(view);
      return view;
    }
    if (order.team === 1) return this.attemptInTeam(order, o, version, checked, pass, byHand);
    const job = this.jobFor(order, o, version);
    const invalid = checked.waiting.map((w) => ({ row: w.row, field: 'row', message: `Row ${w.row}: ${w.reason}`, phone: w.phone, name: null }));
    // The claim and the job, in one IMMEDIATE transaction: a second runner finds the occurrence started and buys nothing.
    const claimed = this.app.db
      .transaction(() => {
        const now = this.store.occurrence(order.id, o.scheduled);
        if (now && now.state !== 'waiting') return null;
        const begun = this.bulk.beginGivenJob(job, checked.items, invalid);
        const started = this.moves.start(key, { dueDay: o.due, version: version.version, jobId: begun.jobId, waitingRows: checked.waiting, decidedBy: byHand });
        if (!started) throw new Error(`occurrence ${o.scheduled} of ${order.id} moved while it was claimed`);
        return begun;
      })
      .immediate();
    if (!claimed) {
      const view = this.occurrenceOf(order, this.store.occurrence(order.id, o.scheduled) as OccurrenceRow);
      pass.report.elsewhere.push(view);
      return view;
    }
    if (pass.walletLeft !== null) pass.walletLeft -= checked.costKobo;
    const run = this.bulk.runConfirmed(claimed.jobId, { begun: claimed.begun, session: pass.session }).finally(() => this.told(order.id, o.scheduled));
    pass.runs.push(run);
    pass.ranKeys.push(key);
    const view = this.occurrenceOf(order, this.store.occurrence(order.id, o.scheduled) as OccurrenceRow);
    pass.report.ran.push(view);
    this.told(order.id, o.scheduled);
    return view;
  }

  /** In a team: the occurrence is claimed in the team database with its team job, then run here as `bulk adopt` runs a job. */
  private async attemptInTeam(
    order: OrderRow,
    o: VersionedOccurrence,
    version: VersionRow,
    checked: { items: NewItem[]; waiting: OccurrenceView['waitingRows']; costKobo: number },
    pass: Pass,
    byHand: string | null,
  ): Promise<OccurrenceView> {
    const key = { orderId: order.id, scheduledDay: o.scheduled };
    const job = this.jobFor(order, o, version);
    let claim;
    try {
      claim = await this.team().claim(
        pass.session,
        order,
        { scheduledDay: o.scheduled, dueDay: o.due, version: version.version, fileName: job.fileName, fileHash: job.fileHash },
        checked.items,
        pass.walletLeft,
        byHand !== null,
      );
    } catch (error) {
      return this.waitFor(
        order,
        o,
        'team',
        `The team database did not take the claim: ${error instanceof Error ? error.message : String(error)} Nothing was bought; it is tried again at the next run.`,
        pass,
      );
    }
    if (claim.state === 'skipped') {
      this.moves.skip(key, { dueDay: o.due, version: version.version, reason: `Skipped in the team by ${claim.by}.`, decidedBy: claim.by });
      const view = this.occurrenceOf(order, this.store.occurrence(order.id, o.scheduled) as OccurrenceRow);
      pass.report.elsewhere.push(view);
      return view;
    }
    this.moves.start(key, {
      dueDay: o.due,
      version: version.version,
      teamJobId: claim.teamJobId as string,
      claimedHere: claim.claimedHere,
      waitingRows: checked.waiting,
      reason: claim.note,
      decidedBy: byHand,
    });
    if (!claim.claimedHere) {
      const view = this.occurrenceOf(order, this.store.occurrence(order.id, o.scheduled) as OccurrenceRow);
      pass.report.elsewhere.push({ ...view, reason: `Claimed by ${claim.by}.` });
      return view;
    }
    if (pass.walletLeft !== null) pass.walletLeft -= checked.costKobo;
    pass.ranKeys.push(key);
    const run = this.team()
      .runTeamJob(pass.session, claim.teamJobId as string, false)
      .then((job) => {
        this.moves.runHereAs(key, job.id);
        const waitJob = this.bulk.waitFor(pass.session.connection, job.id);
        pass.runs.push(waitJob);
        return waitJob;
      })
      .catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === 'awaiting_approval')) throw error;
      })
      .finally(() => this.told(order.id, o.scheduled));
    pass.runs.push(run);
    await run.catch(() => undefined);
    const row = this.store.occurrence(order.id, o.scheduled) as OccurrenceRow;
    const view = this.occurrenceOf(order, row);
    pass.report.ran.push(claim.note ? { ...view, reason: claim.note } : view);
    return view;
  }

  /** What an occurrence's job is made from: the order's kind on its connection, its name, and a file hash of its own (a team's claims are scoped by it). */
  private jobFor(order: OrderRow, o: VersionedOccurrence, version: VersionRow) {
    const rows = rowsOf(version);
    return {
      kind: order.kind,
      profileId: order.profile_id,
      connectionKind: order.connection_kind,
      baseUrl: order.base_url,
      fileName: `Standing order ${order.name} — ${formatDay(o.due)}`,
      fileHash: createHash('sha256').update(`standing:${order.id}:${o.scheduled}:${version.version}`).digest('hex'),
      sheetName: null,
      headers: [],
      mapping: {},
      rowsTotal: rows.length,
    };
  }

  /** Tells the windows (and the operating system, where the shell listens) how an occurrence stands now. */
  private told(orderId: string, scheduledDay: string): void {
    const order = this.store.order(orderId);
    const row = this.store.occurrence(orderId, scheduledDay);
    if (!order || !row) return;
    const view = this.occurrenceOf(order, row);
    const event = { orderId, orderName: order.name, scheduledDay, outcome: view.outcome, jobId: view.jobId, message: occurrenceSentence(view) };
    this.app.events.emit('standing.occurrence', event);
    this.app.invalidate(['standing'], 'a standing order occurrence changed');
    // An occurrence that failed or waits is also sent to the finance contact, when one is set, as
    // one SMS charged like any other. A note never decides the occurrence: a failed send is let go.
    if (standingNoticeLevel(event.outcome) === 'problem') {
      const { title } = standingNotice(event);
      notifyFinanceContact(this.app, `vendesk: ${title}. See Standing orders in vendesk.`).catch(() => undefined);
    }
  }

  /** Run now: a waiting occurrence (missed, short of money…), bought once, whoever else runs it. */
  async runOccurrence(orderId: string, day: string, wait: boolean): Promise<OccurrenceView> {
    await this.refreshTeam();
    const order = this.store.ownOrder(orderId, this.app.connection);
    if (order.state !== 'active') throw this.notIn(order, 'run');
    const o = this.named(order, day);
    const pass = await this.beginPass(false);
    if (o.due > pass.today) {
      throw new AppError('standing_state', `The occurrence of ${formatDay(o.due)} is not due yet (today is ${formatDay(pass.today)}).`, 'Wait for its day, or skip it in advance.');
    }
    this.refuseFinal(order, o.scheduled);
    const view = await this.attempt(order, o, pass, this.who(order.team === 1));
    if (wait) await Promise.allSettled(pass.runs);
    const row = this.store.occurrence(orderId, o.scheduled);
    return row ? this.occurrenceOf(order, row) : view;
  }

  /** Skip: nothing is bought for the occurrence; the next one is unchanged. */
  async skip(orderId: string, day: string): Promise<OccurrenceView> {
    // A team's order as the team has it now (another desktop may have run or skipped the occurrence).
    await this.refreshTeam();
    const order = this.store.ownOrder(orderId, this.app.connection);
    if (order.state === 'ended') throw this.notIn(order, 'changed');
    const o = this.named(order, day);
    this.refuseFinal(order, o.scheduled);
    const by = this.who(order.team === 1);
    const reason = `Skipped by ${by}.`;
    if (order.team === 1) {
      const claim = await this.team().skip(order, { scheduledDay: o.scheduled, dueDay: o.due }, reason);
      if (claim.state === 'started') {
        this.moves.start({ orderId, scheduledDay: o.scheduled }, { dueDay: o.due, version: order.version, teamJobId: claim.teamJobId as string, claimedHere: false });
        this.refuseFinal(order, o.scheduled);
      }
    }
    this.moves.skip({ orderId, scheduledDay: o.scheduled }, { dueDay: o.due, version: order.version, reason, decidedBy: by });
    return this.occurrenceOf(order, this.store.occurrence(orderId, o.scheduled) as OccurrenceRow);
  }

  private named(order: OrderRow, day: string): VersionedOccurrence {
    const versions = this.confirmedVersions(order);
    const o = occurrenceNamed(versions, day);
    if (!o) {
      const next = upcomingOccurrences(versions, day, 2).map((n) => formatDay(n.due));
      throw new AppError(
        'occurrence_not_found',
        `Standing order ${order.name} has no occurrence on ${formatDay(day)}${next.length ? `; its next ones are ${next.join(' and ')}` : ''}.`,
        'Name an occurrence by its day as `vendesk standing show ID` lists it.',
      );
    }
    return o;
  }

  private refuseFinal(order: OrderRow, scheduledDay: string): void {
    const row = this.store.occurrence(order.id, scheduledDay);
    if (row?.state === 'started') {
      throw new AppError(
        'occurrence_final',
        `The occurrence of ${formatDay(row.due_day)} was started already${row.job_id ? ` as bulk job ${row.job_id}` : row.team_job_id ? ` as team job ${row.team_job_id}` : ''}; it is bought once.`,
        row.job_id ? `Follow it with \`vendesk bulk status ${row.job_id}\`.` : 'See it with `vendesk standing show`.',
      );
    }
    if (row?.state === 'skipped')
      throw new AppError('occurrence_final', `The occurrence of ${formatDay(row.due_day)} was skipped (${row.reason ?? ''}).`, 'Nothing is bought for it.');
  }

  /**
   * Team workspace: an approver's standing approval of the order's version in force — its rows
   * digest, a ceiling per run, a number of runs or an end date — recorded and enforced by the team
   * database; above the team's two-approver amount it takes a second approver.
   */
  async approve(orderId: string, terms: { ceilingKobo: number; runs: number | null; until: string | null; note: string }): Promise<StandingApprovalView> {
    // An approver's desktop learns the team's orders (and their versions in force) first.
    await this.refreshTeam();
    const order = this.store.ownOrder(orderId, this.app.connection);
    if (order.team !== 1) {
      throw new AppError(
        'standing_not_team',
        `Standing order ${order.name} is not shared with a team (it was made on a desktop that is not joined to one, or on the sandbox): its creator's confirmation stands for every occurrence.`,
        'Standing approvals are given in a team workspace, on a LIVE connection.',
      );
    }
    if (order.state !== 'active' && order.state !== 'paused') throw this.notIn(order, 'approved');
    return this.team().approve(order, this.store.version(orderId, order.version as number) as VersionRow, terms);
  }

  // ------------------------------------------------------------------ the scheduler's plan

  /** The next Lagos day an occurrence of an active order of this connection is due on, after `today`. */
  private nextDueDay(today: string): string | null {
    let next: string | null = null;
    for (const order of this.store.orders(this.app.connection.profileId, ['active'])) {
      const o = this.upcoming(order, shiftDay(today, 1), 1)[0];
      if (o && (next === null || o.dueDay < next)) next = o.dueDay;
    }
    return next;
  }

  /**
   * When the open desktop's scheduler next has something to do, on the service's clock: now when an
   * occurrence is due and open, else the start of the next due day; and within `retryMs` while an
   * occurrence waits for something that may change by itself (money, the service, the team).
   */
  nextWakeMs(retryMs: number): number | null {
    const nowMs = this.clockNow();
    const today = lagosToday(nowMs);
    let wake: number | null = null;
    const at = (ms: number) => (wake = wake === null ? ms : Math.min(wake, ms));
    for (const order of this.store.orders(this.app.connection.profileId, ['active'])) {
      const open = this.openOccurrences(order, { today }).filter((o) => today <= shiftDay(o.due, o.version.graceDays));
      for (const o of open) {
        const row = this.store.occurrence(order.id, o.scheduled);
        if (!row) at(nowMs);
        else if (row.reason_code !== 'missed' && row.reason_code !== 'another_due') at(nowMs + retryMs);
      }
    }
    if (this.store.unfinishedStarted(this.app.connection.profileId).length > 0) at(nowMs + retryMs);
    const next = this.nextDueDay(today);
    if (next) at(lagosDayStartMs(next));
    return wake;
  }
}

/** An occurrence's outcome in one sentence (for a notification). */
export function occurrenceSentence(v: OccurrenceView): string {
  const when = formatDay(v.dueDay);
  switch (v.outcome) {
    case 'waiting':
      return `${v.orderName} (${when}) waits: ${v.reason ?? ''}`;
    case 'skipped':
      return `${v.orderName} (${when}) was skipped.`;
    case 'awaiting_approval':
      return `${v.orderName} (${when}) waits for approval in the team.`;
    case 'bought':
      return `${v.orderName} (${when}) was bought: ${v.job?.success ?? 0} row(s) successful${v.job && v.job.pending > 0 ? `, ${v.job.pending} pending` : ''}.`;
    case 'failed':
      return `${v.orderName} (${when}) finished with rows not bought: ${v.job?.failed ?? 0} failed, ${v.job?.rejected ?? 0} refused, ${v.job?.uncertain ?? 0} uncertain.`;
    case 'elsewhere':
      return `${v.orderName} (${when}) was claimed by another desktop of the team.`;
    default:
      return `${v.orderName} (${when}) is ${v.outcome.replace('_', ' ')}.`;
  }
}

/** An order buys only on the service it was made for (a sandbox order on the built-in sandbox). */
function onConnection(order: OrderRow, c: Connection): boolean {
  return order.profile_id === c.profileId && (c.kind === 'sandbox' && c.profileId === 'sandbox' ? true : order.base_url === c.baseUrl);
}

/** An item of a job as an order's row. */
function storedFromItem(i: ItemRow): StoredRow {
  return {
    rowNumber: i.row_number,
    phone: i.phone,
    network: i.network,
    productCode: i.product_code,
    amountKobo: i.amount_kobo,
    name: i.name,
    note: i.note,
    description: i.description,
    account: i.account,
    vendType: i.vend_type,
    accountName: i.account_name,
  };
}

export function createStandingService(app: App): StandingService {
  return new StandingService(app);
}
