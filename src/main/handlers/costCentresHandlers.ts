import { AppError } from '../../shared/appError';
import type { costCentresOperations } from '../../shared/contract/costCentres';
import { createServiceClock } from '../api/serviceClock';
import { changeCostCentre, costCentreHistory, desktopActor } from '../costCentres/costCentreChanges';
import { costCentresInUse, LOG_COST_CENTRES, UNASSIGNED } from '../costCentres/logCostCentres';
import { importRecipients } from '../costCentres/recipients';
import { adjustmentMonthFor } from '../monthEnd/monthCloses';
import { lagosDayOf } from '../../shared/localDates';
import { monthOfDay } from '../../shared/months';
import { resolveFileRef } from '../files';
import { teamWorkspace } from '../team/teamWorkspace';
import type { HandlersOf } from './handlerTypes';

/** Who changes a cost centre: in a team, the member this desktop signed in to the team database as; otherwise the computer's user. */
function costCentreActor(app: Parameters<typeof teamWorkspace>[0]): { actor: string; actorKind: 'desktop' | 'team' } {
  const link = teamWorkspace(app).link();
  return link ? { actor: link.user, actorKind: 'team' } : { actor: desktopActor(), actorKind: 'desktop' };
}

export const costCentresHandlers: HandlersOf<typeof costCentresOperations> = {
  'costCentres.importRecipients': (input, app) => importRecipients(app.db, resolveFileRef(app, input.file), new Date().toISOString()),
  'costCentres.change': (input, app) =>
    changeCostCentre(
      app.db,
      app.connection.profileId,
      input.reference,
      input.costCentre ?? null,
      costCentreActor(app),
      new Date(app.service(createServiceClock).now()).toISOString(),
    ),
  'costCentres.purchase': (input, app) => {
    const profile = app.connection.profileId;
    const own = app.db
      .prepare('SELECT i.cost_centre AS costCentre FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id WHERE i.reference = ? AND j.profile_id = ?')
      .get(input.reference, profile) as { costCentre: string | null } | undefined;
    const entry = app.db
      .prepare(`SELECT created_at AS createdAt, cost_centre AS chargedTo FROM ${LOG_COST_CENTRES} WHERE profile_id = ? AND transaction_id = ? LIMIT 1`)
      .get(profile, input.reference) as { createdAt: string; chargedTo: string } | undefined;
    if (!own && !entry) {
      throw new AppError(
        'purchase_not_found',
        `No purchase on this connection has the transaction id ${input.reference}.`,
        'Copy the transaction id from Transactions or the receipt.',
      );
    }
    const month = entry ? monthOfDay(lagosDayOf(entry.createdAt)) : null;
    const adjustmentMonth = month ? adjustmentMonthFor(app.db, profile, month) : null;
    return {
      reference: input.reference,
      costCentre: own?.costCentre ?? null,
      chargedTo: entry?.chargedTo ?? own?.costCentre ?? UNASSIGNED,
      vendeskPurchase: own !== undefined,
      createdAt: entry?.createdAt ?? null,
      month,
      monthClosed: adjustmentMonth !== null,
      adjustmentMonth,
      history: own ? costCentreHistory(app.db, profile, input.reference) : [],
    };
  },
  'costCentres.inUse': (_input, app) => costCentresInUse(app.db, app.connection.profileId),
  'costCentres.history': (input, app) => costCentreHistory(app.db, app.connection.profileId, input.reference),
};
