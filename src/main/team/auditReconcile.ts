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
 * A state without its row is reported with a code and a sentence. These are reads any member may
 * make; the verdict is vendesk's, not a database function's.
 */
import type pg from 'pg';
import type { AuditUnrecordedView } from '../../shared/contract/team';

const LIMIT = 200;

interface Check {
  code: AuditUnrecordedView['code'];
  sql: string;
  message: (r: Record<string, string | null>) => string;
}

/** The schema step that added the `finish` action (issue 23); before it, finished jobs wrote no row. */
const FINISH_STEP = 4;

const CHECKS = (finishWritten: boolean): Check[] => [
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

/** Every approval, claim, settlement and job state without its audit row (at most 200 of each kind). */
export async function unrecordedState(client: pg.ClientBase): Promise<AuditUnrecordedView[]> {
  const found: AuditUnrecordedView[] = [];
  for (const check of CHECKS(await finishIsWritten(client))) {
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
