/**
 * Calls of the team database's functions (`vendesk.*`, schema/) with named arguments: the SQL
 * names every value (`vendesk.claim_item(p_job_id => $1, p_item_index => $2, …)`), and TypeScript
 * knows each function's arguments by name, so a call can neither swap two values of one type nor
 * miss one when a function changes. The one way vendesk calls a team function.
 */
import type pg from 'pg';

interface Desktop {
  desktopId: string;
  desktopName: string;
}

/** Each function vendesk calls, with its arguments as the latest schema declares them (camelCase of `p_…`). */
export interface TeamFunctions {
  record_join: Desktop;
  record_profile_change: Desktop & { detail: string };
  record_desktop_cap_change: Desktop & { amountKobo: number | null; detail: string };
  record_reconcile_run: Desktop & { from: string; to: string; summary: string };
  resolve_reconcile_entry: Desktop & { runId: string; entryKey: string; resolution: string; note: string; amountKobo: number | null };
  prepare_bulk_job: Desktop & {
    localJobId: string;
    fileName: string;
    fileSha256: string | null;
    repeat: boolean;
    itemCount: number;
    totalKobo: number;
    walletKobo: number | null;
    preview: string;
    runSpec: string;
    items: string;
  };
  prepare_single_job: Desktop & { fileName: string; walletKobo: number | null; preview: string; item: string };
  decide_job: Desktop & { jobId: string; decision: 'approved' | 'rejected'; note: string | null };
  set_team_setting: Desktop & { key: string; value: string };
  claim_item: Desktop & { jobId: string; itemIndex: number; amountKobo: number; item: string; requestRef: string };
  settle_item: Desktop & { jobId: string; itemIndex: number; outcome: 'succeeded' | 'failed' };
  finish_job: Desktop & { jobId: string };
  adopt_job: Desktop & { jobId: string };
  cancel_job: Desktop & { jobId: string };
  publish_standing_version: Desktop & {
    orderId: string;
    kind: string;
    name: string;
    baseUrl: string;
    accountNumber: string | null;
    version: number;
    rule: string;
    weekend: string;
    graceDays: number;
    effectiveFrom: string;
    rows: string;
  };
  move_standing_order: Desktop & { orderId: string; move: 'pause' | 'resume' | 'end' };
  approve_standing_order: Desktop & {
    orderId: string;
    version: number;
    rowsDigest: string;
    ceilingKobo: number;
    runs: number | null;
    until: string | null;
    note: string;
  };
  claim_standing_occurrence: Desktop & {
    orderId: string;
    scheduledDay: string;
    dueDay: string;
    version: number;
    fileName: string;
    fileSha256: string;
    walletKobo: number | null;
    runSpec: string;
    items: string;
    byHand: boolean;
  };
  skip_standing_occurrence: Desktop & { orderId: string; scheduledDay: string; dueDay: string; reason: string };
  close_month: Desktop & { organisation: string; month: string; serviceAt: string; summary: string };
  reopen_month: Desktop & { organisation: string; month: string; reason: string; serviceAt: string };
}

/** `desktopName` → `p_desktop_name`. */
function parameterName(key: string): string {
  return `p_${key.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}`;
}

/**
 * `SELECT <columns> FROM vendesk.<fn>(p_… => $1, …) AS <alias>`: `columns` picks from a row the
 * function returns (default all); `alias` names the one value of a function that returns a scalar.
 */
export function callTeam<F extends keyof TeamFunctions, R extends pg.QueryResultRow = Record<string, unknown>>(
  client: pg.ClientBase,
  fn: F,
  args: TeamFunctions[F],
  shape: { columns?: string; alias?: string } = {},
): Promise<pg.QueryResult<R>> {
  const entries = Object.entries(args);
  const named = entries.map(([key], i) => `${parameterName(key)} => $${i + 1}`).join(', ');
  const alias = shape.alias ? ` AS ${shape.alias}` : '';
  return client.query<R>(
    `SELECT ${shape.columns ?? '*'} FROM vendesk.${fn}(${named})${alias}`,
    entries.map(([, value]) => value),
  );
}
