import { CATEGORY_SHORT_LABELS, reconcileOperations } from '../../shared/contract/reconcile';
import type { App } from '../appContext';
import { exportPath } from '../files';
import { writeSandboxVendorExport } from '../reconcile/sandboxVendorExport';
import { createReconcileRunner } from '../reconcile/reconcileService';
import { itemsPage, listRuns, requireRunOf, resolveItems, runView } from '../reconcile/reconcileRunStore';
import { requeryPendingItems } from '../reconcile/requeryPendingItems';
import { exported, writeCategoryCsv, writeReconcileWorkbook } from '../reports/reconcileWorkbook';
import { auditReconcileResolution, auditReconcileRun } from '../team/teamAuditHooks';
import type { HandlersOf } from './handlerTypes';

/** The run's id, once it is known to be a run of the connection in use. */
function ownRun(app: App, runId: string): string {
  requireRunOf(app.db, app.connection.profileId, runId);
  return runId;
}

export const reconcileHandlers: HandlersOf<typeof reconcileOperations> = {
  'reconcile.start': async (input, app, call) => {
    const run = await app.service(createReconcileRunner).start(input, { signal: call.signal });
    await auditReconcileRun(app, run);
    return run;
  },
  'reconcile.cancel': (input, app) => ({ cancelled: app.service(createReconcileRunner).cancel(input.runId) }),
  'reconcile.runs': (input, app) => listRuns(app.db, app.connection.profileId, input.limit),
  'reconcile.run': (input, app) => runView(app.db, ownRun(app, input.runId)),
  'reconcile.items': (input, app) => itemsPage(app.db, ownRun(app, input.runId), input.category, input.offset, input.limit, input.search),
  'reconcile.resolve': async (input, app) => {
    const resolved = resolveItems(app.db, ownRun(app, input.runId), input.seqs, input.note);
    await auditReconcileResolution(app, input.runId, input.seqs, input.note);
    return { resolved };
  },
  'reconcile.requeryPending': (input, app) => requeryPendingItems(app, ownRun(app, input.runId)),
  'reconcile.exportWorkbook': async (input, app) => {
    const run = runView(app.db, ownRun(app, input.runId));
    const file = exportPath(app, `Reconciliation ${run.parameters.from} to ${run.parameters.to}`, 'xlsx');
    return exported(file, await writeReconcileWorkbook(app.db, input.runId, file));
  },
  'reconcile.sandboxExport': (_input, app, call) => writeSandboxVendorExport(app, call.signal),
  'reconcile.exportCsv': async (input, app) => {
    const run = runView(app.db, ownRun(app, input.runId));
    const file = exportPath(app, `Reconciliation ${run.parameters.from} to ${run.parameters.to} ${CATEGORY_SHORT_LABELS[input.category]}`, 'csv');
    return exported(file, await writeCategoryCsv(app.db, input.runId, input.category, file));
  },
};
