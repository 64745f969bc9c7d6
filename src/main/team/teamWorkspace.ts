/**
 * The team workspace service of one app: joins this desktop to a team database, keeps a small
 * connection pool to it, and reads and decides team jobs and the audit trail. Every change goes
 * through the schema's functions (src/main/team/schema/), which take the acting user from the
 * login and write the audit row in the same transaction.
 */
import pg from 'pg';
import { AppError } from '../../shared/appError';
import type {
  ApprovalStateFilter,
  AuditExportView,
  AuditVerifyView,
  TeamJobPreview,
  TeamJobState,
  TeamJobView,
  TeamJoinResult,
  TeamRole,
  TeamStatusView,
} from '../../shared/contract/team';
import type { App } from '../app';
import { exportPath } from '../files';
import { exportAuditTrail, verifyAuditTrail } from './auditTrail';
import { flushTeamAudit, queuedTeamAuditRows } from './teamAuditOutbox';
import { teamError } from './teamErrors';
import { checkTeamPasswordCanBeKept, defaultDesktopName, desktopId, forgetTeamLink, parseTeamUrl, saveTeamLink, teamClientConfig, teamLink, teamPassword, type TeamLink } from './teamLink';
import { migrateTeamSchema, notMemberError, teamSchemaVersion } from './teamMigrations';
import path from 'node:path';

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
}

const JOB_SELECT = `SELECT j.id, j.kind, j.state, j.file_name, j.file_sha256, j.item_count, j.total_kobo::text, j.wallet_kobo::text,
    j.preview, j.prepared_by, j.prepared_at, j.desktop_name, j.desktop_id, a.decided_by, a.decided_at, a.note,
    (SELECT array_agg(o.id::text ORDER BY o.prepared_at) FROM vendesk.jobs o
      WHERE o.file_sha256 = j.file_sha256 AND o.id <> j.id) AS same_file
  FROM vendesk.jobs j LEFT JOIN vendesk.approvals a ON a.job_id = j.id`;

function jobView(r: JobRecord, thisDesktopId: string): TeamJobView {
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
    sameFileJobs: r.same_file ?? [],
    preview: { kind: r.preview?.kind ?? r.kind, rows: r.preview?.rows ?? [], moreRows: r.preview?.moreRows ?? 0, ...(r.preview?.purchase ? { purchase: r.preview.purchase } : {}) },
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

function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
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
      throw new AppError('team_not_joined', 'This desktop is not joined to a team database.', 'Join one in Settings → Team, or run `vendesk team join --url postgres://USER@HOST:PORT/DATABASE --password-file FILE`.');
    }
    return link;
  }

  /** Runs `fn` with a pooled connection as this desktop's team member. */
  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const link = this.requireLink();
    if (!this.pool) {
      const password = teamPassword(this.app);
      if (!password) {
        throw new AppError('team_password_missing', 'The password of your team database role is not on this desktop.', 'Join again (Settings → Team), or set VENDESK_TEAM_PASSWORD.');
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
      throw teamError(e);
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
    const desktopName = input.desktopName ?? this.link()?.desktopName ?? defaultDesktopName();
    try {
      await client.connect();
      migrated = (await migrateTeamSchema(client)).applied;
      const roles = await rolesOf(client);
      if (roles.length === 0) throw notMemberError(parsed.user);
      await client.query('SELECT vendesk.record_join($1, $2)', [desktopId(this.app), desktopName]);
    } catch (e) {
      throw teamError(e);
    } finally {
      await client.end().catch(() => undefined);
    }
    await this.closePool();
    saveTeamLink(this.app, { url: parsed.url, user: parsed.user, database: parsed.database, desktopName, joinedAt: new Date().toISOString() }, input.password);
    this.app.settings.delete(AUDIT_HEAD_KEY);
    return { ...(await this.status()), migrated };
  }

  async leave(): Promise<TeamStatusView> {
    await this.closePool();
    forgetTeamLink(this.app);
    this.app.settings.delete(AUDIT_HEAD_KEY);
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
      problem: null,
      auditQueued: 0,
    };
    if (!link) return base;
    await flushTeamAudit(this.app);
    base.auditQueued = queuedTeamAuditRows(this.app);
    try {
      return await this.withClient(async (client) => {
        const threshold = await client.query<{ value: number | null }>("SELECT value FROM vendesk.team_settings WHERE key = 'single_purchase_approval_kobo'");
        return { ...base, roles: await rolesOf(client), schemaVersion: await teamSchemaVersion(client), approvalThresholdKobo: threshold.rows[0]?.value ?? null };
      });
    } catch (e) {
      const error = teamError(e);
      return { ...base, problem: `${error.message}${error.hint ? ` ${error.hint}` : ''}` };
    }
  }

  async listJobs(state: ApprovalStateFilter, jobIds?: string[]): Promise<TeamJobView[]> {
    return this.withClient(async (client) => {
      const states = STATES[state];
      const r = await client.query<JobRecord>(
        `${JOB_SELECT} WHERE ($1::text[] IS NULL OR j.state = ANY($1)) AND ($2::uuid[] IS NULL OR j.id = ANY($2)) ORDER BY j.prepared_at DESC LIMIT 500`,
        [states, jobIds ?? null],
      );
      const here = desktopId(this.app);
      return r.rows.map((row) => jobView(row, here));
    });
  }

  async job(jobId: string): Promise<TeamJobView> {
    return this.withClient(async (client) => {
      const r = await client.query<JobRecord>(`${JOB_SELECT} WHERE j.id = $1`, [jobId]);
      if (r.rows.length === 0) throw new AppError('team_job_not_found', `There is no team job ${jobId}.`, 'Check the job id (run `vendesk approvals --state all`).');
      return jobView(r.rows[0], desktopId(this.app));
    });
  }

  async decide(jobId: string, decision: 'approve' | 'reject', note: string): Promise<TeamJobView> {
    const desktop = this.desktop();
    await this.withClient((client) =>
      client.query('SELECT vendesk.decide_job($1, $2, $3, $4, $5)', [jobId, decision === 'approve' ? 'approved' : 'rejected', note, desktop.id, desktop.name]),
    );
    return this.job(jobId);
  }

  /** An admin sets the amount above which a single LIVE purchase needs approval (the database writes the `cap_change` row). */
  async setThreshold(thresholdKobo: number | null): Promise<TeamStatusView> {
    const desktop = this.desktop();
    await this.withClient((client) =>
      client.query('SELECT vendesk.set_team_setting($1, $2, $3, $4)', ['single_purchase_approval_kobo', JSON.stringify(thresholdKobo), desktop.id, desktop.name]),
    );
    return this.status();
  }

  /** Checks the chain; when intact, remembers its last row so a later cut of the trail's end shows. */
  async verifyAudit(): Promise<AuditVerifyView> {
    await flushTeamAudit(this.app);
    const expectHead = this.app.settings.get<{ seq: number; hash: string } | null>(AUDIT_HEAD_KEY, null) ?? undefined;
    const result = await this.withClient((client) => verifyAuditTrail(client, expectHead));
    if (result.intact && result.head) this.app.settings.set(AUDIT_HEAD_KEY, result.head);
    return result;
  }

  async exportAudit(range: { from?: string; to?: string }): Promise<AuditExportView> {
    await flushTeamAudit(this.app);
    const file = exportPath(this.app, 'Audit trail', 'xlsx');
    const fileName = path.basename(file);
    const to = range.to ? new Date(dayStart(range.to).getTime() + 86_400_000) : undefined;
    const result = await this.withClient((client) => exportAuditTrail(client, file, { from: range.from ? dayStart(range.from) : undefined, to }));
    return { fileName, path: file, bytes: result.bytes, rows: result.rows, verification: result.verification };
  }
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
export function teamWorkspace(app: App): TeamWorkspace {
  return app.service(createTeamWorkspace);
}
