/**
 * What the app's own actions write into the team's audit trail (through the outbox of
 * `teamAuditOutbox.ts`), called by their handlers once the action is done here:
 * - a connection profile saved, switched to or deleted: its name, kind and address (never the
 *   token; only whether one was given);
 * - the bulk spending caps of a connection changed: each setting before and after, the per-job
 *   cap as the amount;
 * - a reconcile run: its period, file, counts and amounts per category; the amount is the
 *   export's total;
 * - reconcile items marked resolved: one row per item, with its category and amount.
 * On a desktop that is not joined to a team these do nothing.
 */
import type { BulkSettingsView } from '../../shared/contract/bulk';
import type { ReconcileRunView } from '../../shared/contract/reconcile';
import type { App, AppPart } from '../appContext';
import { runView } from '../reconcile/reconcileRunStore';
import { queueTeamAudit, reconcileRunRecorded, type TeamAuditEntry } from './teamAuditOutbox';
import { teamWorkspace } from './teamWorkspace';

/** Records an action in the team's audit trail (teamAuditOutbox.ts), for the team this desktop is joined to. */
const recordTeamAudit = (app: App, entry: TeamAuditEntry) => queueTeamAudit(app, teamWorkspace(app), entry);

const joined = (app: AppPart<'service'>) => teamWorkspace(app).link() !== null;

export interface ProfileFacts {
  id: string;
  name: string;
  kind: 'sandbox' | 'live';
  baseUrl: string | null;
}

export async function auditProfileChange(
  app: App,
  change: 'saved' | 'activated' | 'deleted',
  profile: ProfileFacts,
  extra: { tokenGiven?: boolean; tokenCleared?: boolean } = {},
): Promise<void> {
  if (!joined(app)) return;
  await recordTeamAudit(app, {
    action: 'profile_change',
    detail: { change, profileId: profile.id, profile: profile.name, kind: profile.kind, baseUrl: profile.baseUrl, ...extra },
  });
}

export async function auditBulkCaps(app: App, before: BulkSettingsView, after: BulkSettingsView): Promise<void> {
  if (!joined(app)) return;
  const changed = (Object.keys(after) as (keyof BulkSettingsView)[]).filter((k) => before[k] !== after[k]);
  if (changed.length === 0) return;
  await recordTeamAudit(app, {
    action: 'cap_change',
    amountKobo: after.capPerJobKobo,
    detail: {
      setting: 'bulk',
      connection: app.connection.profileName,
      profileId: app.connection.profileId,
      changed,
      from: Object.fromEntries(changed.map((k) => [k, before[k]])),
      to: Object.fromEntries(changed.map((k) => [k, after[k]])),
    },
  });
}

function runSummary(app: AppPart<'connection'>, run: ReconcileRunView): Record<string, unknown> {
  const totals = Object.fromEntries(Object.entries(run.totals).map(([category, t]) => [category, { count: t.count, amountKobo: t.amountKobo }]));
  const exportKobo = Object.values(run.totals).reduce((s, t) => s + t.amountKobo, 0);
  return {
    state: run.state,
    connection: app.connection.profileName,
    file: run.inputs?.fileName ?? null,
    fileSha256: run.inputs?.fileHash ?? null,
    exportRows: run.inputs?.exportRows ?? null,
    totals,
    amountKobo: exportKobo,
    unexplainedKobo: run.rollForward?.unexplainedKobo ?? null,
  };
}

export async function auditReconcileRun(app: App, run: ReconcileRunView): Promise<void> {
  if (!joined(app)) return;
  await recordTeamAudit(app, { action: 'reconcile', localRunId: run.id, from: run.parameters.from, to: run.parameters.to, summary: runSummary(app, run) });
}

export async function auditReconcileResolution(app: App, runId: string, seqs: readonly number[], note: string): Promise<void> {
  if (!joined(app)) return;
  // A run made before this desktop joined is recorded first, so the resolution can name it.
  if (!reconcileRunRecorded(app, teamWorkspace(app), runId)) await auditReconcileRun(app, runView(app.db, runId));
  const items = app.db
    .prepare(
      `SELECT seq, category, transaction_id, amount_kobo FROM reconcile_items WHERE run_id = ? AND seq IN (${seqs.map(() => '?').join(',')}) AND resolved_at IS NOT NULL ORDER BY seq`,
    )
    .all(runId, ...seqs) as { seq: number; category: string; transaction_id: string; amount_kobo: number }[];
  for (const item of items) {
    await recordTeamAudit(app, {
      action: 'resolve',
      localRunId: runId,
      entryKey: item.transaction_id ? `item ${item.seq} (${item.transaction_id})` : `item ${item.seq}`,
      resolution: item.category,
      note,
      amountKobo: item.amount_kobo,
    });
  }
}
