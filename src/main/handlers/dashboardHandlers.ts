import type { dashboardOperations } from '../../shared/contract/dashboard';
import { dashboardSummary } from '../dashboard/dashboardSummary';
import { monthByCostCentre } from '../dashboard/monthByCostCentre';
import type { HandlersOf } from './handlerTypes';

export const dashboardHandlers: HandlersOf<typeof dashboardOperations> = {
  'dashboard.summary': (_input, app) => dashboardSummary(app),
  'dashboard.costCentres': (_input, app) => monthByCostCentre(app),
};
