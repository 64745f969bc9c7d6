import type { costCentresOperations } from '../../shared/contract/costCentres';
import { createServiceClock } from '../api/serviceClock';
import { changeCostCentre, costCentreHistory, desktopActor } from '../costCentres/costCentreChanges';
import { importRecipients } from '../costCentres/recipients';
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
  'costCentres.history': (input, app) => costCentreHistory(app.db, app.connection.profileId, input.reference),
};
