/**
 * The team workspace service of one app: joins this desktop to a team database, keeps a small
 * connection pool to it, and reads and decides team jobs and the audit trail. Every change goes
 * through the schema's functions (src/main/team/schema/), which take the acting user from the
 * login and write the audit row in the same transaction.
 *
 * Longer than 400 lines on purpose: joining, the pool, and the reads and decisions of team jobs
 * share one connection pool and the link it was opened for; split, each part would reach back for them.
 */
import pg from 'pg';
import { AppError } from '../../shared/appError';
import { lagosDayEndMs, lagosDayStartMs } from '../../shared/localDates';
import type {
  ApprovalStateFilter,
  AuditExportView,
  AuditVerifyView,
  SinglePurchaseKind,
  TeamJobPreview,
  TeamJobState,
  TeamJobRowsView,
  TeamJobView,
  TeamJoinResult,
  TeamPolicyView,
  TeamRole,
  TeamSetupCheck,
  TeamStatusView,
} from '../../shared/contract/team';
import type { App, AppPart } from '../appContext';
import { exportPath } from '../files';
import { exportAuditTrail, verifyTrailAndState, type TrailVerification } from './auditTrail';
import { flushTeamAudit, queuedTeamAuditRows } from './teamAuditOutbox';
import { teamError, type TeamCall } from './teamErrors';
import {
  checkTeamPasswordCanBeKept,
  defaultDesktopName,
  desktopId,
  forgetTeamLink,
  newDesktopId,
  parseTeamUrl,
  saveTeamLink,
  teamClientConfig,
  teamLink,
  teamPassword,
  type TeamLink,
} from './teamLink';
import { migrateTeamSchema, notMemberError, teamSchemaVersion } from './teamMigrations';
import { applyDatabaseLimits, teamSetupProblems } from './teamSetup';
import path from 'node:path';
import { callTeam } from './teamCall';
import { createTeamChanges } from './teamChanges';

const AUDIT_HEAD_KEY = 'team.auditHead';

interface JobRecord {
  id: string;
  kind: 'bulk' | 'single';
  state: TeamJobState;
  file_name: string | null;
  file_sha256: string | null;
  item_count: number;
  total_kobo: string;
  wallet_kobo: string | null;
  preview: TeamJobPreview;
  prepared_by: string;
  prepared_at: Date;
  desktop_name: string;
  desktop_id: string;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
  same_file: string[] | null;
  items_digest: string | null;
  approved_by: string[] | null;
  bulk_kind: string | null;
}

const PURCHASE_KINDS: readonly SinglePurchaseKind[] = ['airtime', 'data', 'electricity', 'cable'];

/** What each item of a job buys: a bulk job's run spec says what a desktop that runs it sends; a single purchase says its kind. */
function buysOf(r: JobRecord): SinglePurchaseKind | null {
  const said = r.kind === 'single' ? r.preview?.purchase?.kind : r.bulk_kind;
  return PURCHASE_KINDS.find((k) => k === said) ?? null;
}

const JOB_SELECT = `SELECT j.id, j.kind, j.state, j.file_name, j.file_sha256, j.item_count, j.total_kobo::text, j.wallet_kobo::text,
    j.preview, j.prepared_by, j.prepared_at, j.desktop_name, j.desktop_id, j.items_digest, a.decided_by, a.decided_at, a.note, j.run_spec->>'bulkKind' AS bulk_kind,
    (SELECT array_agg(x.decided_by::text ORDER BY x.decided_at) FROM vendesk.approvals x WHERE x.job_id = j.id AND x.decision = 'approved') AS approved_by,
    (SELECT array_agg(o.id::text ORDER BY o.prepared_at) FROM vendesk.jobs o
      WHERE o.file_sha256 = j.file_sha256 AND o.id <> j.id) AS same_file
  FROM vendesk.jobs j LEFT JOIN LATERAL (SELECT * FROM vendesk.approvals x WHERE x.job_id = j.id ORDER BY x.decided_at DESC LIMIT 1) a ON true`;

/** The jobs in some states ($1, null: all) or of some ids ($2, null: any), newest first (bench/approvals.bench.ts times it). */
export const JOB_LIST_SQL = `${JOB_SELECT} WHERE ($1::text[] IS NULL OR j.state = ANY($1)) AND ($2::uuid[] IS NULL OR j.id = ANY($2)) ORDER BY j.prepared_at DESC LIMIT 500`;

/**
 * One page of a job's items ($1): $2 rows after the first $3. Paged by key, not OFFSET: `seq` is
 * each item's position from 1 (the schema writes it WITH ORDINALITY, and job_items is append-only),
 * so "after the first $3" is `seq > $3`, read straight from the primary key (job_id, seq) — the
 * last page of a 300,000-row job costs what the first does (bench/approvals.bench.ts).
 */
export const JOB_ROWS_SQL = 'SELECT seq, item_index, amount_kobo::text, item FROM vendesk.job_items WHERE job_id = $1 AND seq > $3 ORDER BY seq LIMIT $2';

/** The team's approval policy (team settings an admin sets; null: none). */
async function readPolicy(client: pg.ClientBase): Promise<TeamPolicyView> {
  const r = await client.query<{ key: string; value: number | null }>(
    "SELECT key, value FROM vendesk.team_settings WHERE key IN ('single_purchase_approval_kobo', 'dual_approval_above_kobo', 'approval_valid_minutes')",
  );
  const value = (key: string) => r.rows.find((row) => row.key === key)?.value ?? null;
  return {
    approvalThresholdKobo: value('single_purchase_approval_kobo'),
    dualApprovalAboveKobo: value('dual_approval_above_kobo'),
    approvalValidMinutes: value('approval_valid_minutes'),
  };
}

function jobView(r: JobRecord, thisDesktopId: string, policy: TeamPolicyView): TeamJobView {
  const total = Number(r.total_kobo);
  const wallet = r.wallet_kobo === null ? null : Number(r.wallet_kobo);
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    fileName: r.file_name,
    fileSha256: r.file_sha256,
    itemCount: r.item_count,
    totalKobo: total,
    walletKobo: wallet,
    walletAfterKobo: wallet === null ? null : wallet - total,
    preparedBy: r.prepared_by,
    preparedAt: r.prepared_at.toISOString(),
    preparedOn: r.desktop_name,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at ? r.decided_at.toISOString() : null,
    decisionNote: r.note,
    approvedBy: r.approved_by ?? [],
    approvalsNeeded: policy.dualApprovalAboveKobo !== null && total > policy.dualApprovalAboveKobo ? 2 : 1,
    itemsDigest: r.items_digest,
    sameFileJobs: r.same_file ?? [],
    preview: { kind: r.preview?.kind ?? r.kind, rows: r.preview?.rows ?? [], moreRows: r.preview?.moreRows ?? 0, ...(r.preview?.purchase ? { purchase: r.preview.purchase } : {}) },
    buys: buysOf(r),
    purchase: r.kind === 'single' ? (r.preview?.purchase ?? null) : null,
    preparedHere: r.desktop_id === thisDesktopId,
  };
}

const STATES: Record<ApprovalStateFilter, TeamJobState[] | null> = {
  waiting: ['awaiting_approval'],
  approved: ['approved', 'running', 'finished'],
  rejected: ['rejected'],
  all: null,
};

function verifyView(v: TrailVerification): AuditVerifyView {
  return { intact: v.intact, rows: v.rows, head: v.head, breaks: v.breaks, unrecorded: v.unrecorded };
}

/** The audit trail's range is Lagos days, like every day a person gives. */
function dayStart(day: string): Date {
  return new Date(lagosDayStartMs(day));
}

export class TeamWorkspace {
  private pool: pg.Pool | null = null;

  constructor(private readonly app: App) {
    app.onClose(() => this.closePool());
  }

  link(): TeamLink | null {
    return teamLink(this.app);
  }

  /** This desktop as the audit trail names it. */
  desktop(): { id: string; name: string } {
    return { id: desktopId(this.app), name: this.link()?.desktopName ?? defaultDesktopName() };
  }

  private async closePool(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.end().catch(() => undefined);
  }

  private requireLink(): TeamLink {
    const link = this.link();
    if (!link) {
      throw new AppError(
        'team_not_joined',
        'This desktop is not joined to a team database.',
        'Join one in Settings → Team, or run `vendesk team join --url postgres://USER@HOST:PORT/DATABASE --password-file FILE`.',
      );
    }
    return link;
  }

  /** Runs `fn` with a pooled connection as this desktop's team member (`call` words a refusal). */
  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>, call?: TeamCall): Promise<T> {
    const link = this.requireLink();
    if (!this.pool) {
      const password = teamPassword(this.app);
      if (!password) {
        throw new AppError(
          'team_password_missing',
          'The password of your team database role is not on this desktop.',
          'Join again (Settings → Team), or set VENDESK_TEAM_PASSWORD.',
        );
      }
      this.pool = new pg.Pool({ ...teamClientConfig(link.url, password), max: 3, idleTimeoutMillis: 30_000 });
      this.pool.on('error', () => undefined);
      // A connection the server drops while checked out (a restart) fails its query; it must not also crash the process.
      this.pool.on('connect', (client) => client.on('error', () => undefined));
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw teamError(e);
    }
    // A connection cut while it is checked out emits 'error' besides failing its query: without a
    // listener that would crash the process. A broken connection is not put back in the pool.
    let broken: Error | undefined;
    const onError = (e: Error) => {
      broken = e;
    };
    client.on('error', onError);
    try {
      return await fn(client);
    } catch (e) {
      if ((e as { code?: string }).code === undefined || /terminated|ECONNRESET/i.test(String((e as Error).message))) broken ??= e as Error;
      throw teamError(e, call);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async join(input: { url: string; password: string; desktopName?: string }): Promise<TeamJoinResult> {
    const parsed = parseTeamUrl(input.url);
    checkTeamPasswordCanBeKept(this.app, input.password);
    const client = new pg.Client(teamClientConfig(parsed.url, input.password));
    let migrated: number[];
    let setupOnly: { version: number; setup: TeamSetupCheck } | null = null;
    // A name someone chose (now, or when this member joined here before) is kept or refused; the
    // computer's own name, when another member's desktop has it, becomes "<name> (<role>)".
    const link = this.link();
    const chosen = input.desktopName ?? (link?.user === parsed.user ? link.desktopName : undefined);
    let desktopName = chosen ?? defaultDesktopName();
    try {
      await client.connect();
      const migration = await migrateTeamSchema(client);
      migrated = migration.applied;
      const roles = await rolesOf(client);
      const setsUp = await mayCreateRoles(client);
      if (setsUp && (migrated.length > 0 || roles.length === 0)) await applyDatabaseLimits(client);
      if (roles.length === 0) {
        // The setup role (it may create roles and holds no team role): the schema is ready; the
        // team's roles come next. Its password is not kept on this desktop, which stays unjoined.
        if (!setsUp) throw notMemberError(parsed.user);
        const problems = await teamSetupProblems(client);
        setupOnly = { version: migration.version, setup: { finished: problems.length === 0, problems } };
      } else {
        desktopName = await registerDesktop(this.app, client, desktopName, chosen === undefined ? `${desktopName} (${parsed.user})` : null);
      }
    } catch (e) {
      const error = teamError(e, 'record');
      throw error.code === 'team_not_member' ? notMemberError(parsed.user) : error;
    } finally {
      await client.end().catch(() => undefined);
    }
    if (setupOnly) {
      const status = await this.status();
      return { ...status, schemaVersion: setupOnly.version, setup: setupOnly.setup, migrated, setupRole: true };
    }
    await this.closePool();
    saveTeamLink(this.app, { url: parsed.url, user: parsed.user, database: parsed.database, desktopName, joinedAt: new Date().toISOString() }, input.password);
    this.app.settings.delete(AUDIT_HEAD_KEY);
    // An open window starts hearing of the team's changes now, not at the next check.
    void this.app.service(createTeamChanges).check();
    return { ...(await this.status()), migrated, setupRole: false };
  }

  async leave(): Promise<TeamStatusView> {
    await this.closePool();
    forgetTeamLink(this.app);
    this.app.settings.delete(AUDIT_HEAD_KEY);
    void this.app.service(createTeamChanges).check();
    return this.status();
  }

  async status(): Promise<TeamStatusView> {
    const link = this.link();
    const base: TeamStatusView = {
      joined: link !== null,
      url: link?.url ?? null,
      user: link?.user ?? null,
      database: link?.database ?? null,
      desktopId: link ? desktopId(this.app) : null,
      desktopName: link?.desktopName ?? null,
      roles: [],
      schemaVersion: null,
      approvalThresholdKobo: null,
      dualApprovalAboveKobo: null,
      approvalValidMinutes: null,
      problem: null,
      auditQueued: 0,
      setup: null,
    };
    if (!link) return base;
    await flushTeamAudit(this.app, this);
    base.auditQueued = queuedTeamAuditRows(this.app, this);
    try {
      return await this.withClient(async (client) => {
        const problems = await teamSetupProblems(client);
        return {
          ...base,
          roles: await rolesOf(client),
          schemaVersion: await teamSchemaVersion(client),
          ...(await readPolicy(client)),
          setup: { finished: problems.length === 0, problems },
        };
      });
    } catch (e) {
      const error = teamError(e);
      return { ...base, problem: `${error.message}${error.hint ? ` ${error.hint}` : ''}` };
    }
  }

  async listJobs(state: ApprovalStateFilter, jobIds?: string[]): Promise<TeamJobView[]> {
    return this.withClient(async (client) => {
      const states = STATES[state];
      const r = await client.query<JobRecord>(JOB_LIST_SQL, [states, jobIds ?? null]);
      const here = desktopId(this.app);
      const policy = await readPolicy(client);
      return r.rows.map((row) => jobView(row, here, policy));
    });
  }

  async job(jobId: string): Promise<TeamJobView> {
    return this.withClient(async (client) => {
      const r = await client.query<JobRecord>(`${JOB_SELECT} WHERE j.id = $1`, [jobId]);
      if (r.rows.length === 0) throw new AppError('team_job_not_found', `There is no team job ${jobId}.`, 'Check the job id (run `vendesk approvals --state all`).');
      return jobView(r.rows[0], desktopId(this.app), await readPolicy(client));
    });
  }

  async decide(jobId: string, decision: 'approve' | 'reject', note: string): Promise<TeamJobView> {
    const desktop = this.desktop();
    await this.withClient(
      (client) => callTeam(client, 'decide_job', { jobId, decision: decision === 'approve' ? 'approved' : 'rejected', note, desktopId: desktop.id, desktopName: desktop.name }),
      decision,
    );
    return this.job(jobId);
  }

  /** An admin sets the amount above which a single LIVE purchase needs approval (the database writes the `cap_change` row). */
  async setThreshold(thresholdKobo: number | null): Promise<TeamStatusView> {
    const desktop = this.desktop();
    await this.withClient(
      (client) =>
        callTeam(client, 'set_team_setting', { key: 'single_purchase_approval_kobo', value: JSON.stringify(thresholdKobo), desktopId: desktop.id, desktopName: desktop.name }),
      'setting',
    );
    return this.status();
  }

  /** An admin sets the approval policy: two approvers above an amount, and how long an approval lets anything be sent (null: none). */
  async setPolicy(policy: { dualApprovalAboveKobo?: number | null; approvalValidMinutes?: number | null }): Promise<TeamStatusView> {
    const desktop = this.desktop();
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        if (policy.dualApprovalAboveKobo !== undefined) {
          await callTeam(client, 'set_team_setting', {
            key: 'dual_approval_above_kobo',
            value: JSON.stringify(policy.dualApprovalAboveKobo),
            desktopId: desktop.id,
            desktopName: desktop.name,
          });
        }
        if (policy.approvalValidMinutes !== undefined) {
          await callTeam(client, 'set_team_setting', {
            key: 'approval_valid_minutes',
            value: JSON.stringify(policy.approvalValidMinutes),
            desktopId: desktop.id,
            desktopName: desktop.name,
          });
        }
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    return this.status();
  }

  /** One page of a team job's rows as the database stores them (what is bought), never the whole job at once. */
  async jobRows(jobId: string, page: number, pageSize: number): Promise<TeamJobRowsView> {
    const job = await this.job(jobId);
    return this.withClient(async (client) => {
      const r = await client.query<{ seq: number; item_index: number; amount_kobo: string; item: Record<string, unknown> }>(JOB_ROWS_SQL, [jobId, pageSize, (page - 1) * pageSize]);
      const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
      return {
        job,
        page,
        pageSize,
        pages: Math.max(1, Math.ceil(job.itemCount / pageSize)),
        rows: r.rows.map((row) => ({
          row: row.item_index,
          phone: text(row.item.phone),
          account: text(row.item.account),
          network: text(row.item.network),
          product: text(row.item.productCode) ?? text(row.item.description) ?? job.preview.kind,
          amountKobo: Number(row.amount_kobo),
        })),
      };
    });
  }

  /**
   * Checks the chain and reconciles the team's state with it; when the chain is intact, remembers
   * its last row so a later cut of the trail's end shows.
   */
  async verifyAudit(): Promise<AuditVerifyView> {
    await flushTeamAudit(this.app, this);
    const expectHead = this.app.settings.get<{ seq: number; hash: string } | null>(AUDIT_HEAD_KEY, null) ?? undefined;
    const result = await this.withClient((client) => verifyTrailAndState(client, expectHead));
    if (result.chainIntact && result.head) this.app.settings.set(AUDIT_HEAD_KEY, result.head);
    return verifyView(result);
  }

  async exportAudit(range: { from?: string; to?: string }): Promise<AuditExportView> {
    await flushTeamAudit(this.app, this);
    const file = exportPath(this.app, 'Audit trail', 'xlsx');
    const fileName = path.basename(file);
    const to = range.to ? new Date(lagosDayEndMs(range.to)) : undefined;
    const result = await this.withClient((client) => exportAuditTrail(client, file, { from: range.from ? dayStart(range.from) : undefined, to }));
    return { fileName, path: file, bytes: result.bytes, rows: result.rows, verification: verifyView(result.verification) };
  }
}

/**
 * Registers this desktop in the team (`record_join`) and answers the name it was registered with.
 * A data folder whose desktop id another team member registered (it joined before as someone else)
 * takes a new id: an id belongs to one member. A name another member's desktop has (team schema 7:
 * compared regardless of case and look-alike letters) is refused, or, when vendesk chose it,
 * `fallback` is tried instead.
 */
async function registerDesktop(app: AppPart<'settings'>, client: pg.ClientBase, desktopName: string, fallback: string | null): Promise<string> {
  const constraintOf = (e: unknown) => (e as { constraint?: string }).constraint;
  const register = async (name: string) => {
    try {
      await callTeam(client, 'record_join', { desktopId: desktopId(app), desktopName: name });
    } catch (e) {
      if (constraintOf(e) !== 'desktop_of_another_member') throw e;
      await callTeam(client, 'record_join', { desktopId: newDesktopId(app), desktopName: name });
    }
  };
  try {
    await register(desktopName);
    return desktopName;
  } catch (e) {
    if (fallback === null || constraintOf(e) !== 'desktop_name_taken') throw e;
    await register(fallback);
    return fallback;
  }
}

/** The signed-in role may create roles (a superuser, or CREATEROLE): the one that sets a team up. */
async function mayCreateRoles(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query<{ may: boolean }>('SELECT rolsuper OR rolcreaterole AS may FROM pg_catalog.pg_roles WHERE rolname = session_user');
  return r.rows[0]?.may === true;
}

async function rolesOf(client: pg.ClientBase): Promise<TeamRole[]> {
  const r = await client.query<{ preparer: boolean; approver: boolean; admin: boolean }>(
    `SELECT pg_has_role(session_user, 'vendesk_preparer', 'MEMBER') AS preparer,
            pg_has_role(session_user, 'vendesk_approver', 'MEMBER') AS approver,
            pg_has_role(session_user, 'vendesk_admin', 'MEMBER') AS admin`,
  );
  const row = r.rows[0];
  return (['preparer', 'approver', 'admin'] as const).filter((role) => row[role]);
}

export function createTeamWorkspace(app: App): TeamWorkspace {
  return new TeamWorkspace(app);
}

/** The app's team workspace service. */
export function teamWorkspace(app: AppPart<'service'>): TeamWorkspace {
  return app.service(createTeamWorkspace);
}
