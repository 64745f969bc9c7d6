/**
 * Standing orders and their occurrences as the windows, the CLI and the notifications read them:
 * an occurrence's outcome from its state and its job's, the versions in words, and the schedule.
 */
import type { BulkJobView } from '../../shared/contract/bulk';
import type { OccurrenceJobView, OccurrenceOutcome, OccurrenceView, StandingRowView, StandingVersionView, WaitingRowView } from '../../shared/contract/standing';
import type { DatedVersion } from './orderDates';
import { scheduleWords } from './recurrence';
import { rowsOf, type OccurrenceRow, type OrderRow, type StoredRow, type VersionRow } from './standingStore';

/** A confirmed version as the dates read it. */
export function datedVersion(v: VersionRow): DatedVersion {
  return { version: v.version, rule: v.rule, weekend: v.weekend, graceDays: v.grace_days, effectiveFrom: v.effective_from };
}

export function versionView(v: VersionRow): StandingVersionView {
  return {
    version: v.version,
    schedule: scheduleWords(v.rule, v.weekend),
    rule: v.rule,
    weekend: v.weekend,
    graceDays: v.grace_days,
    effectiveFrom: v.effective_from,
    items: v.item_count,
    totalKobo: v.total_kobo,
    rowsDigest: v.rows_digest,
    source: v.source,
    change: v.change,
    changedBy: v.changed_by,
    changedAt: v.changed_at,
    confirmedBy: v.confirmed_by,
    confirmedAt: v.confirmed_at,
  };
}

export function rowView(r: StoredRow): StandingRowView {
  return {
    row: r.rowNumber,
    phone: r.phone,
    account: r.account,
    network: r.network,
    productCode: r.productCode,
    description: r.description,
    amountKobo: r.amountKobo,
    name: r.name,
  };
}

/** The rows of a version, the first `limit` of them. */
export function rowViews(v: VersionRow | undefined, limit: number): StandingRowView[] {
  return v ? rowsOf(v).slice(0, limit).map(rowView) : [];
}

/** Where an occurrence's job stands, for its line. */
export function occurrenceJob(job: BulkJobView): OccurrenceJobView {
  const c = job.counts;
  return {
    state: job.state,
    interrupted: job.interrupted,
    items: job.items,
    success: c.success,
    failed: c.failed,
    pending: c.pending + c.accepted,
    rejected: c.rejected,
    uncertain: c.uncertain + c.sending,
    notSent: c.queued + c.held + c.cancelled,
    boughtKobo: job.bought.faceKobo,
    message: job.message,
  };
}

/** How a started occurrence went, from its job. */
function jobOutcome(job: OccurrenceJobView): OccurrenceOutcome {
  if (job.interrupted) return 'interrupted';
  switch (job.state) {
    case 'awaiting_approval':
    case 'draft':
      return 'awaiting_approval';
    case 'running':
    case 'paused':
    case 'needs_attention':
      return job.state;
    case 'cancelled':
      return 'cancelled';
    default:
      return job.failed + job.rejected + job.uncertain > 0 ? 'failed' : 'bought';
  }
}

/**
 * An occurrence as a person reads it (`row` its record; `job` its job here, when it has one;
 * `orderActive`: a person may still run or skip it).
 */
export function occurrenceView(order: Pick<OrderRow, 'id' | 'name' | 'state'>, row: OccurrenceRow, job: BulkJobView | null): OccurrenceView {
  const jobView = job ? occurrenceJob(job) : null;
  const outcome: OccurrenceOutcome =
    row.state === 'waiting' ? 'waiting' : row.state === 'skipped' ? 'skipped' : jobView ? jobOutcome(jobView) : row.claimed_here === 1 ? 'awaiting_approval' : 'elsewhere';
  const open = row.state === 'waiting' && order.state !== 'ended';
  return {
    orderId: order.id,
    orderName: order.name,
    scheduledDay: row.scheduled_day,
    dueDay: row.due_day,
    state: row.state,
    outcome,
    reasonCode: row.reason_code,
    reason: row.reason,
    version: row.version,
    jobId: row.job_id,
    teamJobId: row.team_job_id,
    job: jobView,
    waitingRows: row.waiting_rows_json ? (JSON.parse(row.waiting_rows_json) as WaitingRowView[]) : [],
    missingKobo: row.missing_kobo,
    decidedBy: row.decided_by,
    updatedAt: row.updated_at,
    actions: open ? (order.state === 'active' ? ['run', 'skip'] : ['skip']) : [],
  };
}

/** A record for an occurrence not written (a dry run's, or one another runner took): what would be, in the same shape. */
export function unwrittenOccurrence(
  orderId: string,
  o: { scheduled: string; due: string; version: number },
  fields: Partial<Pick<OccurrenceRow, 'state' | 'reason_code' | 'reason' | 'waiting_rows_json' | 'missing_kobo' | 'team_job_id' | 'claimed_here'>> = {},
): OccurrenceRow {
  const at = new Date().toISOString();
  return {
    order_id: orderId,
    scheduled_day: o.scheduled,
    due_day: o.due,
    state: 'waiting',
    reason_code: null,
    reason: null,
    version: o.version,
    job_id: null,
    team_job_id: null,
    claimed_here: 1,
    waiting_rows_json: null,
    missing_kobo: null,
    decided_by: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
