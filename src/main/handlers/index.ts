/** The one handler table every shell dispatches through: one file per area, combined here. */
import type { Operations } from '../../shared/contract';
import { appHandlers } from './appHandlers';
import { bulkHandlers } from './bulkHandlers';
import { catalogHandlers } from './catalogHandlers';
import { costCentresHandlers } from './costCentresHandlers';
import { dashboardHandlers } from './dashboardHandlers';
import type { HandlersOf } from './handlerTypes';
import { logsHandlers } from './logsHandlers';
import { messagingHandlers } from './messagingHandlers';
import { monthEndHandlers } from './monthEndHandlers';
import { pendingHandlers } from './pendingHandlers';
import { purchasesHandlers } from './purchasesHandlers';
import { reconcileHandlers } from './reconcileHandlers';
import { reportsHandlers } from './reportsHandlers';
import { serviceCheckHandlers } from './serviceCheckHandlers';
import { standingHandlers } from './standingHandlers';
import { teamHandlers } from './teamHandlers';
import { teamRunHandlers } from './teamRunHandlers';

export const handlers: HandlersOf<Operations> = {
  ...appHandlers,
  ...bulkHandlers,
  ...messagingHandlers,
  ...purchasesHandlers,
  ...pendingHandlers,
  ...reconcileHandlers,
  ...logsHandlers,
  ...catalogHandlers,
  ...dashboardHandlers,
  ...reportsHandlers,
  ...costCentresHandlers,
  ...monthEndHandlers,
  ...serviceCheckHandlers,
  ...teamHandlers,
  ...teamRunHandlers,
  ...standingHandlers,
};
