/**
 * Audit rows this desktop records about its own actions while joined to a team: a connection
 * profile saved, switched to or deleted (never its token), bulk spending caps changed, a reconcile
 * run and the resolutions of its items. Each is written to the local outbox first (SQLite,
 * `team_audit_outbox`) and then to the team database through the schema's functions, in order.
 * When the team database cannot be reached, the action is not refused and not lost: its row stays
 * in the outbox, with when it happened (`detail.at`), and is written the next time this desktop
 * reaches the database (the next such action, `team status`, `audit verify|export`, a purchase
 * check). `team status` says how many rows wait.
 *
 * Two vendesk processes on one data folder never write the same row twice: the writer holds a
 * PostgreSQL advisory lock named after this desktop while it writes and removes rows.
 */
import type pg from 'pg';
import type { App, AppPart } from '../appContext';
import type { TeamLink } from './teamLink';
import { callTeam } from './teamCall';
import { withUnseenShown, withUnseenShownIn } from './teamText';

/** What an outbox row asks the team database to record. */
export type TeamAuditEntry =
  | { action: 'profile_change'; detail: Record<string, unknown> }
  | { action: 'cap_change'; amountKobo: number | null; detail: Record<string, unknown> }
  | { action: 'reconcile'; localRunId: string; from: string; to: string; summary: Record<string, unknown> }
  | { action: 'resolve'; localRunId: string; entryKey: string; resolution: string; note: string; amountKobo: number | null };

interface OutboxRow {
  seq: number;
  args: string;
}

interface Stored {
  entry: TeamAuditEntry;
  desktop: { id: string; name: string };
  at: string;
}

const LOCK_NAMESPACE = 'vendesk-audit-outbox:';

/** Writes of this app's outbox in progress (one at a time). */
const flushing = new WeakMap<App, Promise<number>>();

/** What the outbox needs of the team workspace, which hands itself in (teamWorkspace.ts). */
export interface AuditTeam {
  link(): TeamLink | null;
  desktop(): { id: string; name: string };
  withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

/**
 * Records an action in the team's audit trail: queued here, then written when the database
 * answers. Does nothing on a desktop that is not joined. Never throws for the database.
 */
export async function queueTeamAudit(app: App, team: AuditTeam, entry: TeamAuditEntry): Promise<void> {
  const link = team.link();
  if (!link) return;
  const stored: Stored = { entry, desktop: team.desktop(), at: new Date().toISOString() };
  app.db.prepare('INSERT INTO team_audit_outbox (team_url, action, args, created_at) VALUES (?, ?, ?, ?)').run(link.url, entry.action, JSON.stringify(stored), stored.at);
  await flushTeamAudit(app, team);
}

/** Rows waiting in the outbox for the team this desktop is joined to. */
export function queuedTeamAuditRows(app: AppPart<'db'>, team: AuditTeam): number {
  const link = team.link();
  if (!link) return 0;
  return (app.db.prepare('SELECT count(*) AS n FROM team_audit_outbox WHERE team_url = ?').get(link.url) as { n: number }).n;
}

/** Writes what waits in the outbox, oldest first; stops at the first failure (kept for the next try). Returns rows written. */
export function flushTeamAudit(app: App, team: AuditTeam): Promise<number> {
  const current = flushing.get(app);
  if (current) return current.then(() => flushTeamAudit(app, team));
  const run = flushNow(app, team).finally(() => flushing.delete(app));
  flushing.set(app, run);
  return run;
}

async function flushNow(app: AppPart<'db'>, team: AuditTeam): Promise<number> {
  const link = team.link();
  if (!link || queuedTeamAuditRows(app, team) === 0) return 0;
  let written = 0;
  try {
    await team.withClient(async (client) => {
      const desktopKey = LOCK_NAMESPACE + team.desktop().id;
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [desktopKey]);
      try {
        const rows = app.db.prepare('SELECT seq, args FROM team_audit_outbox WHERE team_url = ? ORDER BY seq').all(link.url) as OutboxRow[];
        for (const row of rows) {
          try {
            await write(app, client, link.url, JSON.parse(row.args) as Stored, row.seq);
          } catch (error) {
            app.db.prepare('UPDATE team_audit_outbox SET last_error = ? WHERE seq = ?').run(error instanceof Error ? error.message : String(error), row.seq);
            throw error;
          }
          app.db.prepare('DELETE FROM team_audit_outbox WHERE seq = ?').run(row.seq);
          written += 1;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [desktopKey]);
      }
    });
  } catch {
    // Unreachable or refused: the rows stay queued and are written on the next try.
  }
  return written;
}

/** The team's id of a local reconcile run, once it was recorded there. */
function teamRunId(app: AppPart<'db'>, url: string, localRunId: string): string | null {
  const r = app.db.prepare('SELECT team_run_id FROM team_reconcile_runs WHERE local_run_id = ? AND team_url = ?').get(localRunId, url) as { team_run_id: string } | undefined;
  return r?.team_run_id ?? null;
}

async function write(app: AppPart<'db'>, client: pg.PoolClient, url: string, stored: Stored, seq: number): Promise<void> {
  const { entry, desktop, at } = stored;
  // When it happened on this desktop (the row's own time is when the database wrote it).
  const when = { at, outboxSeq: seq };
  switch (entry.action) {
    case 'profile_change':
      await callTeam(client, 'record_profile_change', { desktopId: desktop.id, desktopName: desktop.name, detail: JSON.stringify({ ...entry.detail, ...when }) });
      return;
    case 'cap_change':
      await callTeam(client, 'record_desktop_cap_change', {
        desktopId: desktop.id,
        desktopName: desktop.name,
        amountKobo: entry.amountKobo,
        detail: JSON.stringify({ ...entry.detail, ...when }),
      });
      return;
    case 'reconcile': {
      if (teamRunId(app, url, entry.localRunId)) return; // recorded already (before a resolution needed it)
      const r = await callTeam<'record_reconcile_run', { id: string }>(
        client,
        'record_reconcile_run',
        // A file name the database would refuse (a control character in it) is sent with the character written as its code.
        {
          desktopId: desktop.id,
          desktopName: desktop.name,
          from: entry.from,
          to: entry.to,
          summary: JSON.stringify(withUnseenShownIn({ ...entry.summary, localRunId: entry.localRunId, ...when })),
        },
        { columns: 'id', alias: 'id' },
      );
      app.db.prepare('INSERT OR REPLACE INTO team_reconcile_runs (local_run_id, team_url, team_run_id) VALUES (?, ?, ?)').run(entry.localRunId, url, r.rows[0].id);
      return;
    }
    case 'resolve': {
      const runId = teamRunId(app, url, entry.localRunId);
      if (!runId) throw new Error(`Reconcile run ${entry.localRunId} is not recorded in the team database yet.`);
      const note = withUnseenShown(entry.note, { lineBreaks: true });
      await callTeam(client, 'resolve_reconcile_entry', {
        runId,
        entryKey: withUnseenShown(entry.entryKey),
        resolution: withUnseenShown(entry.resolution),
        // The row's time is when the database wrote it: a resolution written late says when it was made.
        note: Date.now() - Date.parse(at) > 60_000 ? `${note} (resolved at ${at} on this desktop, written later)` : note,
        amountKobo: entry.amountKobo,
        desktopId: desktop.id,
        desktopName: desktop.name,
      });
      return;
    }
  }
}

/** Whether a local reconcile run is recorded in the team (or queued to be). */
export function reconcileRunRecorded(app: AppPart<'db'>, team: AuditTeam, localRunId: string): boolean {
  const link = team.link();
  if (!link) return false;
  if (teamRunId(app, link.url, localRunId)) return true;
  const queued = app.db.prepare("SELECT args FROM team_audit_outbox WHERE team_url = ? AND action = 'reconcile'").all(link.url) as { args: string }[];
  return queued.some((q) => {
    const stored = JSON.parse(q.args) as Stored;
    return stored.entry.action === 'reconcile' && stored.entry.localRunId === localRunId;
  });
}
