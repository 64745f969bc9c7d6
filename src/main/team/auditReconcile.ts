/**
 * The team's state reconciled with its audit trail (issue 23: "a forged approval is caught even
 * when the forger could switch triggers off"). The hash chain shows a changed or deleted row; it
 * cannot show a row that was never written. So every approval, claim, settlement and job state
 * must have its audit row:
 * - each approval row → an `approve`/`reject` row of the same job by the same person (matched per
 *   job and actor, so two approvals of one job need two rows);
 * - each claim → a `send` row of its job and spreadsheet row; each settled claim → a `settle` row;
 * - each job → its `prepare` row; approved, running or finished → an `approve` row; rejected → a
 *   `reject` row; cancelled → a `cancel` row; finished → a `finish` row once the schema writes one.
 *   A job prepared, approved or sent after that schema step (4) was finished under it and needs
 *   the row; one without such a row may have finished before it, without one, and passes — its
 *   `settle` rows do not count, since a row left uncertain is settled after its job finished.
 * - each desktop recorded as running another member's job (team schema 7) → its `adopt` row.
 * A state without its row is reported with a code and a sentence. And a `send` row written after
 * its job's approval expired is reported too (`LateSends`). These are reads any member may make;
 * the verdict is vendesk's, not a database function's.
 */
import type pg from 'pg';
import type { AuditUnrecordedView } from '../../shared/contract/team';
import { formatDateTimeSeconds } from '../../shared/localDates';
import type { AuditRow } from './auditChain';

const LIMIT = 200;

interface Check {
  code: AuditUnrecordedView['code'];
  sql: string;
  message: (r: Record<string, string | null>) => string;
}

/** The schema step that added the `finish` action (issue 23); before it, finished jobs wrote no row. */
const FINISH_STEP = 4;

const CHECKS = (finishWritten: boolean, runnersKept: boolean): Check[] => [
  {
    code: 'approval_unrecorded',
    sql: `SELECT a.job_id::text AS job, a.decided_by AS who, a.decision AS decision, NULL AS item FROM vendesk.approvals a
      WHERE NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.job_id = a.job_id AND t.actor = a.decided_by
        AND t.action = CASE a.decision WHEN 'approved' THEN 'approve' ELSE 'reject' END)`,
    message: (r) => `Job ${r.job} shows it ${r.decision} by ${r.who}, and the audit trail holds no such decision: it was written around vendesk's functions.`,
  },
  {
    code: 'claim_unrecorded',
    sql: `SELECT c.job_id::text AS job, c.claimed_by AS who, c.item_index::text AS item FROM vendesk.item_claims c
      WHERE NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.action = 'send' AND t.job_id = c.job_id
        AND t.detail::jsonb ->> 'item' = c.item_index::text)`,
    message: (r) => `Job ${r.job}, row ${r.item}: claimed for sending by ${r.who}, and the audit trail holds no send row for it.`,
  },
  {
    code: 'settle_unrecorded',
    sql: `SELECT c.job_id::text AS job, c.outcome AS outcome, c.item_index::text AS item FROM vendesk.item_claims c
      WHERE c.outcome <> 'claimed' AND NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.action = 'settle'
        AND t.job_id = c.job_id AND t.detail::jsonb ->> 'item' = c.item_index::text)`,
    message: (r) => `Job ${r.job}, row ${r.item}: settled as ${r.outcome}, and the audit trail holds no settle row for it.`,
  },
  {
    code: 'job_unrecorded',
    sql: `SELECT j.id::text AS job, j.prepared_by AS who, NULL AS item FROM vendesk.jobs j
      WHERE NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.action = 'prepare' AND t.job_id = j.id)`,
    message: (r) => `Job ${r.job} (prepared by ${r.who}) is in the team database, and the audit trail holds no prepare row for it.`,
  },
  {
    code: 'state_unrecorded',
    sql: `SELECT j.id::text AS job, j.state AS state, NULL AS item, x.action AS action FROM vendesk.jobs j
      CROSS JOIN LATERAL (SELECT CASE WHEN j.state IN ('approved', 'running', 'finished') THEN 'approve'
        WHEN j.state = 'rejected' THEN 'reject' ELSE 'cancel' END AS action) x
      WHERE j.state IN ('approved', 'running', 'finished', 'rejected', 'cancelled')
        AND NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.job_id = j.id AND t.action = x.action)`,
    message: (r) => `Job ${r.job} is ${r.state}, and the audit trail holds no ${r.action} row for it.`,
  },
  ...(finishWritten
    ? [
        {
          code: 'state_unrecorded' as const,
          sql: `SELECT j.id::text AS job, j.state AS state, NULL AS item, 'finish' AS action FROM vendesk.jobs j
            WHERE j.state = 'finished'
              AND NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.job_id = j.id AND t.action = 'finish')
              AND EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.job_id = j.id AND t.action IN ('prepare', 'approve', 'send')
                AND t.at >= (SELECT applied_at FROM vendesk.schema_migrations WHERE version = ${FINISH_STEP}))`,
          message: (r: Record<string, string | null>) => `Job ${r.job} is finished, and the audit trail holds no finish row for it.`,
        },
      ]
    : []),
  ...(runnersKept
    ? [
        {
          code: 'state_unrecorded' as const,
          sql: `SELECT r.job_id::text AS job, r.role AS who, r.desktop_id AS desktop, NULL AS item FROM vendesk.job_runners r
            WHERE NOT EXISTS (SELECT 1 FROM vendesk.audit_trail t WHERE t.job_id = r.job_id AND t.action = 'adopt' AND t.actor = r.role
              AND t.desktop_id = r.desktop_id)`,
          message: (r: Record<string, string | null>) =>
            `Job ${r.job} shows it adopted by a desktop of ${r.who} (${r.desktop}), and the audit trail holds no adopt row for it: that desktop could finish the job.`,
        },
      ]
    : []),
];

/** Whether this schema writes a `finish` audit row (the trail's action check accepts it). */
async function finishIsWritten(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint WHERE conrelid = 'vendesk.audit_trail'::regclass AND contype = 'c'
       AND pg_catalog.pg_get_constraintdef(oid) LIKE '%''finish''%')
       AND EXISTS (SELECT 1 FROM vendesk.schema_migrations WHERE version = ${FINISH_STEP}) AS yes`,
  );
  return r.rows[0]?.yes === true;
}

/** Whether the schema records the desktops that adopted a job (team schema 7). */
async function runnersAreKept(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query<{ t: string | null }>("SELECT to_regclass('vendesk.job_runners')::text AS t");
  return r.rows[0]?.t !== null && r.rows[0]?.t !== undefined;
}

/** Every approval, claim, settlement, job state and adoption without its audit row (at most 200 of each kind). */
export async function unrecordedState(client: pg.ClientBase): Promise<AuditUnrecordedView[]> {
  const found: AuditUnrecordedView[] = [];
  for (const check of CHECKS(await finishIsWritten(client), await runnersAreKept(client))) {
    let rows: Record<string, string | null>[];
    try {
      rows = (await client.query<Record<string, string | null>>(`${check.sql} LIMIT ${LIMIT}`)).rows;
    } catch {
      found.push({
        code: check.code,
        jobId: null,
        item: null,
        message: 'This check could not be made: an audit row’s detail is not readable JSON (a row written around vendesk’s functions).',
      });
      continue;
    }
    for (const r of rows) found.push({ code: check.code, jobId: r.job, item: r.item === null ? null : Number(r.item), message: check.message(r) });
  }
  return found;
}

/** When each job's approval began to run out (µs since 1970): its last approval, as `vendesk.refuse_after_expiry` reads it. */
export async function lastApprovals(client: pg.ClientBase): Promise<Map<string, number>> {
  const r = await client.query<{ job: string; us: string }>(
    "SELECT job_id::text AS job, (extract(epoch FROM max(decided_at)) * 1000000)::bigint::text AS us FROM vendesk.approvals WHERE decision = 'approved' GROUP BY job_id",
  );
  return new Map(r.rows.map((row) => [row.job, Number(row.us)]));
}

function detailOf(row: AuditRow): Record<string, unknown> | null {
  try {
    const detail = JSON.parse(row.detail) as unknown;
    return detail && typeof detail === 'object' ? (detail as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Send rows written after their approval expired (issue 37: a claim made inside a transaction
 * opened before the expiry passed where the schema compared the transaction's start). Fed the
 * trail in order, it applies the rule `vendesk.refuse_after_expiry` applies to a new claim, to the
 * same two times: a `send` row's time is later than its job's last approval plus the team's
 * approval validity in force when the row was written — the last `cap_change` of
 * `approval_valid_minutes` before it (none, or null: no limit).
 */
export class LateSends {
  private validMinutes: number | null = null;
  readonly found: AuditUnrecordedView[] = [];

  constructor(private readonly approvedUs: Map<string, number>) {}

  add(row: AuditRow): void {
    if (row.action === 'cap_change') {
      const detail = detailOf(row);
      if (detail?.setting === 'approval_valid_minutes') this.validMinutes = typeof detail.to === 'number' ? detail.to : null;
      return;
    }
    if (row.action !== 'send' || this.validMinutes === null || row.jobId === null || this.found.length >= LIMIT) return;
    const approved = this.approvedUs.get(row.jobId);
    if (approved === undefined) return;
    const expiresUs = approved + this.validMinutes * 60_000_000;
    if (Number(row.atUs) <= expiresUs) return;
    const item = detailOf(row)?.item;
    const rowNumber = typeof item === 'number' ? item : null;
    this.found.push({
      code: 'send_after_expiry',
      jobId: row.jobId,
      item: rowNumber,
      message: `Job ${row.jobId}${rowNumber === null ? '' : `, row ${rowNumber}`}: sent at ${formatDateTimeSeconds(row.at)} (audit row ${row.seq}), after its approval expired at ${formatDateTimeSeconds(new Date(Math.floor(expiresUs / 1000)).toISOString())} (approvals were valid for ${this.validMinutes} minute(s) then): nothing may be sent under an expired approval.`,
    });
  }
}
