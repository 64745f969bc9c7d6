import type { costCentresOperations } from '../../shared/contract/costCentres';
import { createServiceClock } from '../api/serviceClock';
import { changeCostCentre, costCentreHistory, desktopActor } from '../costCentres/costCentreChanges';
import { importRecipients } from '../costCentres/recipients';
import { resolveFileRef } from '../files';
import type { HandlersOf } from './handlerTypes';

export const costCentresHandlers: HandlersOf<typeof costCentresOperations> = {
  'costCentres.importRecipients': (input, app) => importRecipients(app.db, resolveFileRef(app, input.file), new Date().toISOString()),
  'costCentres.change': (input, app) =>
    changeCostCentre(
      app.db,
      app.connection.profileId,
      input.reference,
      input.costCentre ?? null,
      { actor: desktopActor(), actorKind: 'desktop' },
      new Date(app.service(createServiceClock).now()).toISOString(),
    ),
  'costCentres.history': (input, app) => costCentreHistory(app.db, app.connection.profileId, input.reference),
};
